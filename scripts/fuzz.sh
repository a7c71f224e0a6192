#!/usr/bin/env bash
# libFuzzer harnesses for the runtime's readers of untrusted bytes (.npy
# inputs, .kiln artifacts): builds fuzz/*Fuzzer.cpp with
# -fsanitize=fuzzer,address,undefined against the runtime's sources into
# build-fuzz/, then runs each from its seed corpus (fuzz/corpus/<name>) for
# SECONDS seconds (default 30: the smoke mode scripts/test.sh runs; see
# docs/fuzzing.md for a long run). Inputs that crash are kept in
# build-fuzz/crashes/<name>/ and fail the script.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds="${1:-30}"
build="${KILN_FUZZ_BUILD_DIR:-$root/build-fuzz}"
mkdir -p "$build"

flags=(-std=gnu++17 -O1 -g -fsanitize=fuzzer,address,undefined
  -fno-sanitize-recover=undefined -I"$root/runtime/include"
  -I"$root/runtime/src")
common=("$root/runtime/src/base/Status.cpp" "$root/runtime/src/base/DType.cpp")
declare -A sources=(
  [npy]="$root/runtime/src/io/Npy.cpp"
  [artifact]="$root/runtime/src/artifact/Artifact.cpp $root/runtime/src/artifact/StepCodec.cpp"
)
declare -A harness=([npy]=NpyFuzzer [artifact]=ArtifactFuzzer)

status=0
for name in npy artifact; do
  binary="$build/${harness[$name]}"
  # shellcheck disable=SC2206  # the source lists are space-separated paths
  clang++-22 "${flags[@]}" "$root/fuzz/${harness[$name]}.cpp" \
    ${sources[$name]} "${common[@]}" -o "$binary"
  corpus="$build/corpus/$name"   # grows; the committed seeds stay as they are
  crashes="$build/crashes/$name"
  mkdir -p "$corpus" "$crashes"
  if ! "$binary" -max_total_time="$seconds" -print_final_stats=1 \
      -artifact_prefix="$crashes/" "$corpus" "$root/fuzz/corpus/$name" \
      >"$build/$name.log" 2>&1; then
    echo "fuzz: $name crashed; inputs in $crashes, log $build/$name.log" >&2
    tail -30 "$build/$name.log" >&2
    status=1
    continue
  fi
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$build/$name.log" |
    grep -o '[0-9]*$' || echo '?')
  echo "fuzz: $name clean, $runs runs in ${seconds}s"
done
exit "$status"
