#!/usr/bin/env bash
# libFuzzer harnesses for Kiln's readers of untrusted bytes, each run from
# its seed corpus (fuzz/corpus/<name>) for SECONDS seconds (default 30: the
# smoke mode scripts/test.sh runs; see docs/fuzzing.md for a long run).
#  - npy, artifact: the runtime's readers, and infer: kiln-serve's infer
#    request parser, built with one clang++ line against their sources into
#    build-fuzz/ (a few seconds);
#  - onnx, mlir: the ONNX importer and the MLIR parser with Kiln's dialects,
#    which link libKiln: built in the ASan/UBSan build dir that
#    scripts/check-sanitizers.sh uses (build-asan/, configured by
#    scripts/configure-asan.sh with KILN_BUILD_FUZZERS=ON).
# Inputs that crash are kept in build-fuzz/crashes/<name>/ and fail the
# script. Usage: scripts/fuzz.sh [SECONDS] [HARNESS...] (default: all five).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds="${1:-30}"
shift || true
names=("$@")
[ ${#names[@]} -gt 0 ] || names=(npy artifact infer onnx mlir)
build="${KILN_FUZZ_BUILD_DIR:-$root/build-fuzz}"
compiler_build="${KILN_ASAN_BUILD_DIR:-$root/build-asan}"
# The compiler harnesses mix ASan-built Kiln with Debian's uninstrumented
# libMLIR, whose allocator slabs Kiln's inline code poisons: see
# scripts/check-sanitizers.sh.
export ASAN_OPTIONS="${ASAN_OPTIONS:-allow_user_poisoning=0}"
mkdir -p "$build"

flags=(-std=gnu++17 -O1 -g -fsanitize=fuzzer,address,undefined
  -fno-sanitize-recover=undefined -I"$root/runtime/include"
  -I"$root/runtime/src" -I"$root/tools/kiln-serve")
common=("$root/runtime/src/base/Status.cpp" "$root/runtime/src/base/DType.cpp")
declare -A sources=(
  [npy]="$root/runtime/src/io/Npy.cpp"
  [infer]="$root/tools/kiln-serve/InferenceProtocol.cpp $root/runtime/src/serving/Json.cpp"
  [artifact]="$root/runtime/src/artifact/Artifact.cpp $root/runtime/src/artifact/BatchVariants.cpp $root/runtime/src/artifact/FileBytes.cpp $root/runtime/src/artifact/GemmCall.cpp $root/runtime/src/artifact/PrecisionReport.cpp $root/runtime/src/artifact/RankedArtifact.cpp $root/runtime/src/artifact/StepCodec.cpp"
)
declare -A harness=([npy]=NpyFuzzer [artifact]=ArtifactFuzzer
  [infer]=InferRequestFuzzer
  [onnx]=OnnxImportFuzzer [mlir]=MlirParseFuzzer)
# Per-harness libFuzzer options: a slow input is a finding too (an import
# or parse of a few KiB has no reason to take seconds).
declare -A options=([npy]="" [artifact]="" [infer]="-timeout=10" [onnx]="-timeout=10"
  [mlir]="-timeout=10 -dict=$root/fuzz/mlir.dict")

compiler_targets=()
for name in "${names[@]}"; do
  case "$name" in
  onnx | mlir) compiler_targets+=("${harness[$name]}") ;;
  npy | artifact | infer) ;;
  *) echo "fuzz: unknown harness '$name'" >&2; exit 2 ;;
  esac
done
if [ ${#compiler_targets[@]} -gt 0 ]; then
  "$root/scripts/configure-asan.sh" "$compiler_build"
  CCACHE_BASEDIR="$root" cmake --build "$compiler_build" \
    --target "${compiler_targets[@]}"
fi

status=0
for name in "${names[@]}"; do
  case "$name" in
  onnx | mlir) binary="$compiler_build/bin/${harness[$name]}" ;;
  *)
    binary="$build/${harness[$name]}"
    # shellcheck disable=SC2086  # the source lists are space-separated paths
    clang++-22 "${flags[@]}" "$root/fuzz/${harness[$name]}.cpp" \
      ${sources[$name]} "${common[@]}" -o "$binary"
    ;;
  esac
  corpus="$build/corpus/$name"   # grows; the committed seeds stay as they are
  crashes="$build/crashes/$name"
  mkdir -p "$corpus" "$crashes"
  # shellcheck disable=SC2086  # options are space-separated flags
  if ! "$binary" -max_total_time="$seconds" -print_final_stats=1 \
      ${options[$name]} -artifact_prefix="$crashes/" \
      "$corpus" "$root/fuzz/corpus/$name" >"$build/$name.log" 2>&1; then
    echo "fuzz: $name crashed; inputs in $crashes, log $build/$name.log" >&2
    tail -30 "$build/$name.log" >&2
    status=1
    continue
  fi
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$build/$name.log" |
    grep -o '[0-9]*$' || echo '?')
  cov=$(grep -oE 'cov: [0-9]+' "$build/$name.log" | tail -1 | grep -o '[0-9]*' ||
    echo '?')
  echo "fuzz: $name clean, $runs runs in ${seconds}s, $cov coverage edges"
done
exit "$status"
