#!/usr/bin/env bash
# Builds kilnc with AddressSanitizer + UndefinedBehaviorSanitizer in
# build-asan/ and feeds it the malformed-ONNX corpus: every file must give a
# clean, documented error, with no sanitizer report. Then most of the lit
# suite and the compiler's gtests on the sanitized tools (see below), and
# the runtime's unit tests (artifact decoding, the schedule on threads, step
# hooks, the CUDA runtime on the fake driver) under both sanitizers, in
# build-runtime-asan/.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${KILN_ASAN_BUILD_DIR:-$root/build-asan}"
export CCACHE_BASEDIR="$root"

# The same build dir as the compiler's fuzzers (scripts/fuzz.sh).
"$root/scripts/configure-asan.sh" "$build"
cmake --build "$build" --target kilnc

# Leaks are reported too; any report makes the process exit non-zero, which
# the corpus checker counts as a failure.
# allow_user_poisoning=0: LLVM's BumpPtrAllocator poisons its slabs from
# inline code when the including file is built with ASan; Kiln's files are,
# Debian's libMLIR is not, and the two allocate from one context's slabs, so
# MLIR's (unpoisoning-free) allocations would read as use-after-poison.
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:exitcode=99:allow_user_poisoning=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:exitcode=98"
corpus="$(mktemp -d)"
trap 'rm -rf "$corpus"' EXIT
/usr/bin/python3 "$root/test/frontend/onnx/malformed/make_corpus.py" "$corpus" >/dev/null
/usr/bin/python3 "$root/test/frontend/onnx/malformed/check_corpus.py" \
  --kilnc "$build/bin/kilnc" --corpus "$corpus" --no-memory-limit
echo "sanitizers: malformed corpus clean under ASan/UBSan"

# The lit suite and the compiler's gtests against the sanitized tools: every
# IR, pass, diagnostic, tool and CPU end-to-end test (about 6 minutes on 2
# cores). Left out, for the test command's 45 minutes: ONNX's conformance
# data and the torchvision models (the slowest third of the suite, which
# the importer fuzzer covers under ASan instead), Fashion-MNIST (mostly
# PyTorch training; rounding.test and int8.test run the same kilnc paths),
# the CUDA emulator end to end (its kernels are host code built without
# sanitizers), the benchmark smoke tests, and malformed.test (it caps
# memory with ulimit, which ASan's shadow memory cannot live under; its
# corpus ran just above, uncapped). Also left out, being the slowest under
# ASan (each 2 to 4 minutes) and covered otherwise: kiln-run's sweep of
# every truncation and bit flip of an artifact (the artifact fuzzer runs
# the same decoder under ASan), ONNX's other conformance suites (like
# conformance.test), the whole sharded models (the sharding lit and gtest
# cases stay) and the unfused rerun of the CPU end-to-end cases (the same
# kernels, one per op).
cmake --build "$build" --target kiln-opt kiln-translate kilnc kiln-run kiln-sim kiln-serve \
  kiln-gpu-check kiln-cuda-emulate kiln-doc kiln-comm-bench KilnUnitTests graph-jit onnx-jit \
  DivToMul DivToMulWrongVersion
heavy='frontend/onnx/conformance(-suites)?\.test|e2e/models/|e2e/cuda/|bench/|frontend/onnx/malformed/|e2e/precision/fashion-mnist\.test|tools/kiln-run/run\.test|e2e/sharding/models\.test|e2e/cpu/unfused\.test'
# Reports abort, so that no test passes on the exit code of one (`not` or
# `test $? -eq N` would take 99 for an expected failure).
ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:allow_user_poisoning=0" \
  LSAN_OPTIONS="suppressions=$root/scripts/lsan-suppressions.txt" \
  UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:abort_on_error=1" \
  /usr/lib/llvm-22/bin/lit -sv --filter-out "$heavy" "$build/test" \
  "$build/test/unit"
echo "sanitizers: lit and gtest suites clean under ASan/UBSan (heavy tests excepted)"

runtime_build="${KILN_RUNTIME_ASAN_BUILD_DIR:-$root/build-runtime-asan}"
cmake -G Ninja -S "$root/runtime" -B "$runtime_build" \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
  -DCMAKE_CXX_COMPILER_LAUNCHER=ccache \
  -DKILN_RUNTIME_BUILD_TESTS=ON -DKILN_ENABLE_SANITIZERS=ON \
  -DCMAKE_DISABLE_FIND_PACKAGE_MLIR=ON -DCMAKE_DISABLE_FIND_PACKAGE_LLVM=ON \
  >/dev/null
cmake --build "$runtime_build"
ctest --test-dir "$runtime_build" --output-on-failure -E '^KilnMpi'
# Under mpirun, without the leak check: Open MPI's components keep memory
# until exit and are dlclosed by MPI_Finalize, so LeakSanitizer sees
# leaks in unknown modules that no suppression can name. ASan and UBSan
# still check every access of Kiln's code.
ASAN_OPTIONS="detect_leaks=0:abort_on_error=0:exitcode=99:allow_user_poisoning=0" \
  ctest --test-dir "$runtime_build" --output-on-failure -R '^KilnMpi'
echo "sanitizers: runtime unit tests clean under ASan/UBSan"
