#!/usr/bin/env bash
# Installs the Debian 12 packages Kiln builds and tests with, if missing.
# Only Debian's archive is used. Safe to run repeatedly: it does nothing when
# everything is present.
set -euo pipefail

packages=(
  # Build tools
  cmake ninja-build ccache clang-22 lld-22
  # LLVM/MLIR 22 (headers, CMake configs, libMLIR.so, lit, FileCheck)
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools
  # ONNX frontend: protobuf, onnx.proto; ONNX's node tests for conformance
  libprotobuf-dev protobuf-compiler libonnx-dev libonnx-testdata
  # Unit tests
  libgtest-dev
  # lit is a Python program; NumPy is the tests' independent reference
  python3 python3-numpy python3-onnx
  # PyTorch exports the end-to-end models and is their reference
  python3-torch
)

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null |
      grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
sudo=""
if [ "$(id -u)" != 0 ]; then
  sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
