#!/usr/bin/env bash
# Runs the GPU check that scripts/gpu-prepare.sh prepared (build-gpu/ and
# gpu-check/ next to this script's repository). Needs an NVIDIA GPU and its
# driver; no MLIR, LLVM or compiler. Finishes in under 4 minutes.
# Writes into $OUT when set, else into gpu-check/: gpu-check.json (the
# runner's records, docs/cuda-backend.md lists them), torch-peers.json
# (PyTorch eager and torch.compile on the same models, when PyTorch sees
# the GPU) and sanitizer.txt (compute-sanitizer memcheck and racecheck on a
# model, when installed).
# Exit codes: the runner's: 0 all passed, 1 a check failed, 2 not prepared
# or bad files, 3 driver too old, 5 no GPU or driver (the JSON says why).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
runner="$root/build-gpu/bin/kiln-gpu-check"
kiln_run="$root/build-gpu/bin/kiln-run"
check="$root/gpu-check"
manifest="$check/manifest.txt"
if [ ! -x "$runner" ] || [ ! -f "$manifest" ]; then
  echo "gpu-check: not prepared: run scripts/gpu-prepare.sh on a machine with the toolchain first" >&2
  exit 2
fi
out="${OUT:-$check}"
mkdir -p "$out"
command -v nvidia-smi >/dev/null &&
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,power.limit --format=csv
timeout 170 "$runner" "$manifest" --json "$out/gpu-check.json"
rc=$?
[ -f "$out/gpu-check.json" ] && cat "$out/gpu-check.json"
[ "$rc" -eq 5 ] || [ "$rc" -eq 3 ] && exit $rc

# Peers in the same run (their own budget; they never change the exit code).
python="$(command -v python3 || true)"
if [ -n "$python" ] && "$python" -c 'import torch' 2>/dev/null; then
  timeout 100 "$python" "$root/bench/gpu/torch_peers.py" "$check/models" \
    --json "$out/torch-peers.json" --budget 70 \
    $(cat "$check/peers.txt") || echo "torch peers: exit $?"
else
  echo "torch peers: no python3 with PyTorch here; skipped"
fi

# compute-sanitizer on the small MLP: out-of-bounds accesses and races.
sanitizer="$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null || true)"
if [ -n "$sanitizer" ]; then
  for tool in memcheck racecheck; do
    echo "== compute-sanitizer --tool $tool: mlp.kiln" >>"$out/sanitizer.txt"
    KILN_CUDA_GRAPHS=0 timeout 40 "$sanitizer" --tool "$tool" --error-exitcode 9 \
      "$kiln_run" "$check/mlp.kiln" --input "input=$check/models/mlp.input.npy" \
      --output-dir "$out/sanitizer-$tool" >>"$out/sanitizer.txt" 2>&1
    echo "== exit $?" >>"$out/sanitizer.txt"
  done
  tail -n 20 "$out/sanitizer.txt"
else
  echo "compute-sanitizer: not installed here; skipped"
fi
exit $rc
