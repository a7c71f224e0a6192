#!/usr/bin/env bash
# Runs the GPU check that scripts/gpu-prepare.sh prepared (build-gpu/ and
# gpu-check/ next to this script's repository). Needs an NVIDIA GPU and its
# driver; no MLIR, LLVM or compiler. Finishes in well under 5 minutes.
# Writes gpu-check.json into $OUT when set, else into gpu-check/.
# Exit codes: 0 all passed, 1 a numeric check failed, 2 not prepared,
# 5 no GPU or driver.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
runner="$root/build-gpu/bin/kiln-gpu-check"
manifest="$root/gpu-check/manifest.txt"
if [ ! -x "$runner" ] || [ ! -f "$manifest" ]; then
  echo "gpu-check: not prepared: run scripts/gpu-prepare.sh on a machine with the toolchain first" >&2
  exit 2
fi
json="${OUT:-$root/gpu-check}/gpu-check.json"
command -v nvidia-smi >/dev/null && nvidia-smi -L
timeout 290 "$runner" "$manifest" --json "$json"
rc=$?
[ -f "$json" ] && cat "$json"
exit $rc
