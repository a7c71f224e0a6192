#!/usr/bin/env bash
# Installs what the benchmark peers need, if missing (idempotent):
#   Debian: python3-torch (PyTorch eager + ONNX export), python3-onnx,
#           python3-torchvision (the on-request ResNet-50 workload),
#           python3-numpy, python3-matplotlib (the chart), nodejs + npm
#   npm:    onnxruntime-node into $KILN_BENCH_CACHE (~/.cache/kiln-bench)
#   Debian libopenblas0-pthread unpacked (not installed) into the same cache,
#           for PyTorch's matrix products (see bench/blas.py)
# Only Debian's archive and the npm registry are used.
set -euo pipefail

ORT_VERSION="${KILN_ORT_VERSION:-1.30.0}"
cache="${KILN_BENCH_CACHE:-$HOME/.cache/kiln-bench}"

packages=(python3 python3-numpy python3-onnx python3-torch python3-torchvision
  python3-matplotlib
  libgfortran5)
command -v node >/dev/null || packages+=(nodejs)
command -v npm >/dev/null || packages+=(npm)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null |
    grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "bench-setup: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# ONNX Runtime's install script downloads CUDA parts from outside the npm
# registry: skip it (the CPU library ships inside the package).
installed="$cache/node_modules/onnxruntime-node/package.json"
if [ ! -f "$installed" ] ||
    ! grep -q "\"version\": \"$ORT_VERSION\"" "$installed"; then
  echo "bench-setup: installing onnxruntime-node@$ORT_VERSION into $cache"
  mkdir -p "$cache"
  ONNXRUNTIME_NODE_INSTALL=skip npm install --prefix "$cache" --no-audit \
    --no-fund --ignore-scripts --loglevel=error \
    "onnxruntime-node@$ORT_VERSION"
fi

# PyTorch's BLAS: unpack Debian's OpenBLAS into the cache unless installed.
openblas=usr/lib/x86_64-linux-gnu/openblas-pthread/libblas.so.3
if [ ! -f "/$openblas" ] && [ ! -f "$cache/openblas/$openblas" ]; then
  echo "bench-setup: unpacking libopenblas0-pthread into $cache/openblas"
  tmp="$(mktemp -d)"
  trap 'rm -rf "$tmp"' EXIT
  chmod 755 "$tmp"   # apt's sandbox user writes the download there
  (cd "$tmp" && { apt-get download -qq libopenblas0-pthread 2>/dev/null ||
    { apt-get update -qq && apt-get download -qq libopenblas0-pthread; }; })
  mkdir -p "$cache/openblas"
  dpkg-deb -x "$tmp"/libopenblas0-pthread_*.deb "$cache/openblas"
fi
