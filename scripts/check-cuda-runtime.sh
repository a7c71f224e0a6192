#!/usr/bin/env bash
# GPU check of the CUDA runtime (docs/cuda-runtime.md), for a machine with
# an NVIDIA GPU and the CUDA toolkit: builds real artifacts (CUBIN for the
# listed archs, and PTX only), runs them with kiln-run and compares with
# x * c + 1, then times many runs with CUDA Graphs on and off.
# Usage: scripts/check-cuda-runtime.sh [KILN_RUN] (default build/bin/kiln-run,
# or build-runtime/bin/kiln-run from the stand-alone build).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
run="${1:-$root/build/bin/kiln-run}"
nvcc="${NVCC:-/usr/local/cuda/bin/nvcc}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
make="$root/test/tools/kiln-run/Inputs/make_cuda_artifact.py"
/usr/bin/python3 "$make" "$work" --nvcc "$nvcc" --cubin 80,90,100 --name cubin
/usr/bin/python3 "$make" "$work" --nvcc "$nvcc" --cubin= --name ptx
expected="output 'y': f32[4] = [3, 7, 13, 21]"
status=0
for model in cubin ptx; do
  for graphs in 1 0; do
    out="$(KILN_CUDA_GRAPHS=$graphs "$run" "$work/$model.kiln" \
      --input x="$work/x.npy" --warmup 3 --iterations 2000)" || {
      echo "FAIL $model graphs=$graphs: exit $?"; status=1; continue; }
    if grep -qF "$expected" <<<"$out"; then
      echo "ok   $model graphs=$graphs: $(grep latency <<<"$out")"
    else
      echo "FAIL $model graphs=$graphs: $out"; status=1
    fi
  done
done
exit $status
