#!/usr/bin/env bash
# The README's main command: installs what is missing, builds the compiler,
# then compiles the example MLP to native code for this CPU and runs it on an
# input, printing the output and the latency: once in-process (JIT), once
# ahead of time into a .kiln artifact run by the runtime-only kiln-run, and
# on the GPU when there is one.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

scripts/install-deps.sh
scripts/build.sh --target kilnc --target kiln-run

model=examples/mlp/mlp.mlir
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
/usr/bin/python3 - "$work/x.npy" <<'PY'
import sys
import numpy as np
np.save(sys.argv[1], (np.arange(8, dtype=np.float32) / 8).reshape(2, 1, 4))
PY

echo
echo "== kilnc run $model (CPU) =="
build/bin/kilnc run "$model" --input arg0="$work/x.npy" --output-dir "$work/out"
echo
echo "== kilnc bench $model (JIT) =="
build/bin/kilnc bench "$model" --iterations 100

echo
echo "== ahead of time: kilnc compile -o mlp.kiln, then kiln-run (runtime only) =="
build/bin/kilnc compile "$model" -o "$work/mlp.kiln"
build/bin/kiln-run "$work/mlp.kiln" --input arg0="$work/x.npy" --warmup 10 --iterations 1000

# A GPU, if this machine has one (and the CUDA toolkit for NVRTC): the same
# model compiled for it and run by the runtime.
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
  echo
  echo "== GPU: kilnc compile --target cuda -o mlp-cuda.kiln, then kiln-run =="
  build/bin/kilnc compile "$model" --target cuda -o "$work/mlp-cuda.kiln"
  build/bin/kiln-run "$work/mlp-cuda.kiln" --input arg0="$work/x.npy" --warmup 10 --iterations 1000
else
  echo
  echo "(no NVIDIA GPU here: the CUDA path is skipped; see docs/cuda-backend.md)"
fi
