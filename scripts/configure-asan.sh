#!/usr/bin/env bash
# Configures the ASan/UBSan build of the compiler (default build-asan/) that
# scripts/check-sanitizers.sh and scripts/fuzz.sh share: clang-22,
# RelWithDebInfo, ccache, coverage for libFuzzer (KILN_BUILD_FUZZERS) and the
# test suites (the sanitized lit run), so one cold build serves both. Usage: scripts/configure-asan.sh [BUILD_DIR]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-${KILN_ASAN_BUILD_DIR:-$root/build-asan}}"
export CCACHE_BASEDIR="$root"

if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$build" \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DKILN_ENABLE_SANITIZERS=ON -DKILN_BUILD_TESTS=ON \
    -DKILN_BUILD_FUZZERS=ON >/dev/null
elif ! grep -q '^KILN_BUILD_FUZZERS:BOOL=ON' "$build/CMakeCache.txt" ||
  ! grep -q '^KILN_BUILD_TESTS:BOOL=ON' "$build/CMakeCache.txt"; then
  # A build dir from before the fuzzers or the sanitized test suite: add
  # them (Kiln's objects rebuild once, with coverage).
  cmake "$build" -DKILN_BUILD_FUZZERS=ON -DKILN_BUILD_TESTS=ON >/dev/null
fi
