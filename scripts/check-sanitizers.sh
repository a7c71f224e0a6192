#!/usr/bin/env bash
# Builds kilnc with AddressSanitizer + UndefinedBehaviorSanitizer in
# build-asan/ and feeds it the malformed-ONNX corpus: every file must give a
# clean, documented error, with no sanitizer report. Then the runtime's unit
# tests (artifact decoding, the schedule on threads, step hooks, the CUDA
# runtime on the fake driver) under both sanitizers, in build-runtime-asan/.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${KILN_ASAN_BUILD_DIR:-$root/build-asan}"
export CCACHE_BASEDIR="$root"

# The same build dir as the compiler's fuzzers (scripts/fuzz.sh).
"$root/scripts/configure-asan.sh" "$build"
cmake --build "$build" --target kilnc

# Leaks are reported too; any report makes the process exit non-zero, which
# the corpus checker counts as a failure.
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:exitcode=99"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:exitcode=98"
corpus="$(mktemp -d)"
trap 'rm -rf "$corpus"' EXIT
/usr/bin/python3 "$root/test/frontend/onnx/malformed/make_corpus.py" "$corpus" >/dev/null
/usr/bin/python3 "$root/test/frontend/onnx/malformed/check_corpus.py" \
  --kilnc "$build/bin/kilnc" --corpus "$corpus" --no-memory-limit
echo "sanitizers: malformed corpus clean under ASan/UBSan"

runtime_build="${KILN_RUNTIME_ASAN_BUILD_DIR:-$root/build-runtime-asan}"
cmake -G Ninja -S "$root/runtime" -B "$runtime_build" \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
  -DCMAKE_CXX_COMPILER_LAUNCHER=ccache \
  -DKILN_RUNTIME_BUILD_TESTS=ON -DKILN_ENABLE_SANITIZERS=ON \
  -DCMAKE_DISABLE_FIND_PACKAGE_MLIR=ON -DCMAKE_DISABLE_FIND_PACKAGE_LLVM=ON \
  >/dev/null
cmake --build "$runtime_build"
ctest --test-dir "$runtime_build" --output-on-failure
echo "sanitizers: runtime unit tests clean under ASan/UBSan"
