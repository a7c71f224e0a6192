#!/usr/bin/env bash
# The README's main command: installs what is missing, builds the compiler and
# runs the example model through it.
#
# Today that is the graph clean-up pipeline (contract check, constant folding,
# CSE) on examples/mlp; it becomes "compile and run on the CPU (or GPU)" when
# the backends land.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

scripts/install-deps.sh
scripts/build.sh --target kiln-opt

model=examples/mlp/mlp.mlir
echo
echo "== kiln-opt --kiln-cleanup-pipeline $model =="
start=$(date +%s%N)
build/bin/kiln-opt --kiln-cleanup-pipeline "$model"
end=$(date +%s%N)
echo "(compiled in $(( (end - start) / 1000000 )) ms)"
