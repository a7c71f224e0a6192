#!/usr/bin/env bash
# The README's main command: installs what is missing, builds the compiler,
# then compiles the example MLP to native code for this CPU (in-process JIT)
# and runs it on an input, printing the output and the latency.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

scripts/install-deps.sh
scripts/build.sh --target kilnc

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
echo "== kilnc bench $model =="
build/bin/kilnc bench "$model" --iterations 100
