#!/usr/bin/env bash
# Installs the Debian 12 packages Kiln builds and tests with, if missing.
# Only Debian's archive is used. Safe to run repeatedly: it does nothing when
# everything is present.
set -euo pipefail

packages=(
  # Build tools (clang-22 also compiles the CPU kernel library to bitcode:
  # compiler/Codegen/CPU/CMakeLists.txt)
  cmake ninja-build ccache clang-22 lld-22
  # ASan/UBSan runtimes for clang-22 (scripts/check-sanitizers.sh)
  libclang-rt-22-dev
  # LLVM/MLIR 22 (headers, CMake configs, libMLIR.so, lit, FileCheck);
  # llvm-22 has llvm-link, which joins the CPU kernel library's bitcode
  # (compiler/Codegen/CPU/CMakeLists.txt)
  llvm-22 llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools
  # ONNX frontend: protobuf, onnx.proto; ONNX's node tests for conformance
  libprotobuf-dev protobuf-compiler libonnx-dev libonnx-testdata
  # Unit tests
  libgtest-dev
  # The MPI communicator plugin and its tests under mpirun (optional:
  # without them the runtime builds and those tests are skipped)
  openmpi-bin libopenmpi-dev
  # lit is a Python program; NumPy is the tests' independent reference
  python3 python3-numpy python3-onnx
  # PyTorch exports the end-to-end models and is their reference;
  # torchvision's architectures are test/e2e/models/torchvision.test's
  python3-torch python3-torchvision
  # Real data for the precision checks (test/e2e/precision)
  dataset-fashion-mnist
  # Node runs ONNX Runtime (npm) in the benchmark harness's smoke test
  nodejs
  # kiln-serve: HTTP (cpp-httplib); its tests use curl and Node as clients
  # and Prometheus's promtool to check /metrics
  libcpp-httplib-dev curl prometheus
)
# Some Node builds bring npm themselves; otherwise Debian's package.
command -v npm >/dev/null || packages+=(npm)

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null |
      grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
else
  echo "install-deps: installing ${missing[*]}"
  sudo=""
  if [ "$(id -u)" != 0 ]; then
    sudo="sudo"
  fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# ONNX Runtime 1.30 from the npm registry, for test/bench (lit feature
# onnxruntime-node). Its install script would download CUDA parts from
# outside the registry: skipped.
ort_cache="${KILN_BENCH_CACHE:-$HOME/.cache/kiln-bench}"
if [ ! -f "$ort_cache/node_modules/onnxruntime-node/package.json" ]; then
  echo "install-deps: npm install onnxruntime-node@1.30.0 into $ort_cache"
  ONNXRUNTIME_NODE_INSTALL=skip npm install --prefix "$ort_cache" --no-audit \
    --no-fund --ignore-scripts --loglevel=error onnxruntime-node@1.30.0
fi
