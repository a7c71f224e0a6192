#!/usr/bin/env bash
# Configures and builds runtime/ as its own CMake project with MLIR and LLVM
# made unfindable, then runs its unit tests. Guards the dependency arrow:
# the runtime must never need the compiler.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${KILN_RUNTIME_BUILD_DIR:-$root/build-runtime}"
export CCACHE_BASEDIR="$root"

cmake -G Ninja -S "$root/runtime" -B "$build" \
  -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
  -DCMAKE_CXX_COMPILER_LAUNCHER=ccache \
  -DKILN_RUNTIME_BUILD_TESTS=ON \
  -DCMAKE_DISABLE_FIND_PACKAGE_MLIR=ON -DCMAKE_DISABLE_FIND_PACKAGE_LLVM=ON \
  >/dev/null
cmake --build "$build"

# Nothing in the runtime may mention MLIR or LLVM headers.
if grep -rEl '#include *[<"](mlir|llvm)/' "$root/runtime"; then
  echo "error: runtime/ includes MLIR or LLVM headers (listed above)" >&2
  exit 1
fi
# The runtime-only tools must not pull in the compiler's libraries.
for tool in kiln-run kiln-sim kiln-serve; do
  if ldd "$build/bin/$tool" | grep -E 'libMLIR|libLLVM'; then
    echo "error: $tool links MLIR or LLVM (listed above)" >&2
    exit 1
  fi
done
ctest --test-dir "$build" --output-on-failure
echo "runtime: stand-alone build and tests OK"
