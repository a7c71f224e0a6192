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

# The PyTorch models of the end-to-end tests (test size), and the
# transformer ones again at bench size (seq 128, d 128): checked against
# PyTorch's own outputs, timed with and without graphs and fusion, and
# re-run by PyTorch eager and torch.compile there (NAME.pt: their weights).
# Larger models (ResNet-50: 102 MB of weights, BERT-base: 440 MB) do not
# fit the 64 MiB a GPU session may carry; docs/cuda-backend.md says more.
models="$out/models"
/usr/bin/python3 "$root/test/e2e/models/export_models.py" "$models" \
  --only mlp resnet bert gpt --state-dicts >/dev/null
/usr/bin/python3 "$root/test/e2e/models/export_models.py" "$models/bench" \
  --size bench --only bert gpt --state-dicts >/dev/null
: >"$out/peers.txt"
add_model() { # NAME ONNX-FOLDER PREFIX RTOL ATOL
  local name="$1" dir="$2" prefix="$3"
  "$kilnc" compile "$dir/$prefix.onnx" --target "cuda:$arch" -o "$out/$name.kiln" >/dev/null
  "$kilnc" compile "$dir/$prefix.onnx" --target "cuda:$arch" --fusion=none -o "$out/$name.nofusion.kiln" >/dev/null
  local rel="${dir#"$out"/}"
  echo "check $name $name.kiln $4 $5 input=$rel/$prefix.input.npy -- output=$rel/$prefix.expected.npy" >>"$manifest"
  echo "latency $name $name.kiln $name.nofusion.kiln input=$rel/$prefix.input.npy" >>"$manifest"
}
for m in mlp resnet bert gpt; do
  add_model "$m" "$models" "$m" 1e-3 1e-4
  echo "$m" >>"$out/peers.txt"
done
for m in bert gpt; do
  add_model "$m-bench" "$models/bench" "$m" 1e-3 1e-4
  echo "$m:bench" >>"$out/peers.txt"
done
rm -f "$models"/*.onnx "$models"/*.onnx.data "$models"/bench/*.onnx "$models"/bench/*.onnx.data

# The end-to-end MLIR model (examples/mlp), against the same MLP computed by
# PyTorch from the weights in mlp.mlir (an independent implementation).
"$kilnc" compile "$root/examples/mlp/mlp.mlir" --target "cuda:$arch" -o "$out/example-mlp.kiln" >/dev/null
/usr/bin/python3 - "$models" <<'PY'
import sys, numpy as np, torch
folder = sys.argv[1]
x = np.random.default_rng(0).standard_normal((2, 1, 4)).astype(np.float32)
w1 = torch.tensor([[0.5, -0.25, 0.125, 1.0], [0.0, 0.5, -0.5, 0.25],
                   [1.0, 1.0, 0.0, -1.0], [0.25, 0.25, 0.25, 0.25],
                   [-0.5, 0.0, 0.5, 0.0], [0.125, -0.125, 0.0, 1.0],
                   [0.0, 0.0, 1.0, 0.0], [-1.0, 0.5, 0.5, 0.0]])
h = torch.relu(torch.nn.functional.linear(torch.from_numpy(x).flatten(1), w1,
                                          torch.full((8,), 0.1)))
logits = torch.nn.functional.linear(h, torch.full((3, 8), 0.125),
                                    0.5 * torch.tensor([0.2, 0.4, 0.6]))
np.save(f"{folder}/example-mlp.x.npy", x)
np.save(f"{folder}/example-mlp.expected.npy", torch.softmax(logits, -1).numpy())
PY
echo "check example-mlp example-mlp.kiln 1e-5 1e-6 arg0=models/example-mlp.x.npy -- result0=models/example-mlp.expected.npy" >>"$manifest"

# int8 on tensor cores (WMMA signed char): the pre-quantized ONNX models of
# test/e2e/precision/qdq.test against their NumPy models (exact integer
# products; the requantized MLP is left out, as a sum on a rounding boundary
# may go either way). qdq_models.py checks them on this CPU first.
qdq="$models/qdq"
/usr/bin/python3 "$root/test/e2e/precision/Inputs/qdq_models.py" "$qdq" --kilnc "$kilnc" >/dev/null
for c in matmul_u8 matmul_s8 gemm_bias conv; do
  "$kilnc" compile "$qdq/$c.onnx" --target "cuda:$arch" -o "$out/qdq-$c.kiln" >/dev/null
  echo "check qdq-$c qdq-$c.kiln 1e-4 1e-4 x=models/qdq/$c.x.npy -- y=models/qdq/$c.expected.npy" >>"$manifest"
done
rm -rf "$qdq"/*.onnx "$qdq"/*.out "$qdq"/mlp.*

# Bandwidth and GEMM workloads: the runner feeds them seeded random inputs;
# the GEMM's result is compared with cuBLASLt's.
for w in ew_chain softmax_rows layernorm_rows; do
  "$kilnc" compile "$root/bench/gpu/$w.mlir" --target "cuda:$arch" -o "$out/$w.kiln" >/dev/null
  echo "bandwidth $w $w.kiln" >>"$manifest"
done
"$kilnc" compile "$root/bench/gpu/gemm_2048.mlir" --target "cuda:$arch" -o "$out/gemm_2048.kiln" >/dev/null
echo "gemm gemm_2048 gemm_2048.kiln 2048 2048 2048" >>"$manifest"
# NCCL's all-reduce over every GPU (recorded as skipped on a single GPU).
echo "nccl allreduce_256MiB 256 20" >>"$manifest"

# What a GPU session may carry: 64 MiB in all (build-gpu/ and gpu-check/).
size_kib=$(du -sk "$out" "$root/build-gpu/bin" | awk '{s += $1} END {print s}')
echo "prepared $(grep -vc '^#' "$manifest") checks in $out; with the runner: $((size_kib / 1024)) MiB"
if [ "$size_kib" -gt $((60 * 1024)) ]; then
  echo "gpu-prepare: $((size_kib / 1024)) MiB is over the 60 MiB a GPU session can carry" >&2
  exit 1
fi
echo "next: scripts/gpu-check.sh on a GPU machine"
