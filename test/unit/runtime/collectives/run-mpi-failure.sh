#!/usr/bin/env bash
# run-mpi-failure.sh MAX_SECONDS EXPECTED_TEXT -- COMMAND...
# Passes when COMMAND (an mpirun job) exits non-zero within MAX_SECONDS and
# its output contains EXPECTED_TEXT.
set -uo pipefail
max_ms=$(($1 * 1000))
expected="$2"
shift 3
start=$(date +%s%N)
output=$("$@" 2>&1)
code=$?
elapsed_ms=$((($(date +%s%N) - start) / 1000000))
echo "$output"
echo "exit code $code after ${elapsed_ms} ms"
if [ "$code" -eq 0 ]; then
  echo "error: the job succeeded; a failure was expected" >&2
  exit 1
fi
if [ "$elapsed_ms" -gt "$max_ms" ]; then
  echo "error: the job took ${elapsed_ms} ms, more than ${max_ms} ms" >&2
  exit 1
fi
if ! grep -qF -- "$expected" <<<"$output"; then
  echo "error: the output lacks '$expected'" >&2
  exit 1
fi
