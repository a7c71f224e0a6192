#!/usr/bin/env bash
# Prepares the GPU check on a CPU machine with the full toolchain (MLIR,
# NVRTC): builds the runtime-only runner (build-gpu/) and writes CUDA
# artifacts, inputs and reference outputs into gpu-check/. Then carry both
# folders to a machine with an NVIDIA GPU and run scripts/gpu-check.sh
# there: it needs neither MLIR nor LLVM nor a compiler.
#   ./scripts/gpu-prepare.sh [ARCH]      # ARCH: sm_90 (default), sm_80, ...
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
arch="${1:-sm_90}"
out="$root/gpu-check"
export CCACHE_BASEDIR="$root"

"$root/scripts/build.sh" --target kilnc >/dev/null
kilnc="$root/build/bin/kilnc"

# The runner, stand-alone: the runtime library and nothing else.
if [ ! -f "$root/build-gpu/build.ninja" ]; then
  cmake -G Ninja -S "$root/runtime" -B "$root/build-gpu" \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=clang++-22 \
    -DCMAKE_CXX_COMPILER_LAUNCHER=ccache >/dev/null
fi
ninja -C "$root/build-gpu" kiln-gpu-check kiln-run >/dev/null

rm -rf "$out" && mkdir -p "$out/models"
manifest="$out/manifest.txt"
echo "# Written by scripts/gpu-prepare.sh for cuda:$arch; run scripts/gpu-check.sh." >"$manifest"

# The PyTorch models of the end-to-end tests, checked against PyTorch's own
# outputs, and their latency with and without graphs and fusion.
/usr/bin/python3 "$root/test/e2e/models/export_models.py" "$out/models" >/dev/null
for m in mlp resnet bert gpt; do
  "$kilnc" compile "$out/models/$m.onnx" --target "cuda:$arch" -o "$out/$m.kiln" >/dev/null
  "$kilnc" compile "$out/models/$m.onnx" --target "cuda:$arch" --fusion=none -o "$out/$m.nofusion.kiln" >/dev/null
  echo "check $m $m.kiln 1e-3 1e-4 input=models/$m.input.npy -- output=models/$m.expected.npy" >>"$manifest"
  echo "latency $m $m.kiln $m.nofusion.kiln input=models/$m.input.npy" >>"$manifest"
done
rm -f "$out"/models/*.onnx "$out"/models/*.onnx.data

# The end-to-end MLIR model (examples/mlp), against the CPU backend.
"$kilnc" compile "$root/examples/mlp/mlp.mlir" --target "cuda:$arch" -o "$out/example-mlp.kiln" >/dev/null
/usr/bin/python3 -c "import numpy as np; np.save('$out/models/example-mlp.x.npy', np.random.default_rng(0).standard_normal((2,1,4)).astype(np.float32))"
"$kilnc" run "$root/examples/mlp/mlp.mlir" --input "arg0=$out/models/example-mlp.x.npy" --output-dir "$out/models/example-mlp.cpu" >/dev/null
echo "check example-mlp example-mlp.kiln 1e-4 1e-5 arg0=models/example-mlp.x.npy -- result0=models/example-mlp.cpu/result0.npy" >>"$manifest"

# Bandwidth and GEMM workloads (inputs are whatever the arena holds).
for w in ew_chain softmax_rows layernorm_rows; do
  "$kilnc" compile "$root/bench/gpu/$w.mlir" --target "cuda:$arch" -o "$out/$w.kiln" >/dev/null
  echo "bandwidth $w $w.kiln" >>"$manifest"
done
"$kilnc" compile "$root/bench/gpu/gemm_2048.mlir" --target "cuda:$arch" -o "$out/gemm_2048.kiln" >/dev/null
echo "gemm gemm_2048 gemm_2048.kiln 2048 2048 2048" >>"$manifest"

du -sh "$out" "$root/build-gpu/bin" 2>/dev/null || du -sh "$out"
echo "prepared $(grep -vc '^#' "$manifest") checks in $out; next: scripts/gpu-check.sh on a GPU machine"
