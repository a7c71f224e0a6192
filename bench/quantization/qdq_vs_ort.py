#!/usr/bin/env python3
"""Kiln against ONNX Runtime on the same pre-quantized (QDQ) model, one
thread each.

Builds QDQ models in the form ORT's quantization tools write (uint8
activations per tensor, int8 weights per output channel): one 1024 x 1024
x 1024 MatMul and a 4-layer 1024-wide MLP at batch 32 (ReLU, requantized
between layers). Kiln compiles each (kiln-fold-qdq runs the contractions
on its int8 kernels) and also the float model with the same weights
dequantized (its fp32 baseline). Times come from `kilnc bench --threads 1`
and ORT's own loop (bench/ort_worker.js, one intra-op thread), in
interleaved rounds; prints medians, Kiln / ORT, and how far Kiln's
outputs are from ORT's.

  /usr/bin/python3 bench/quantization/qdq_vs_ort.py [--build-dir build]
      [--node-modules DIR] [--rounds 5] [--iterations 50]
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import engine_ort  # noqa: E402
from kilnc_timing import median_ms  # noqa: E402


def build(folder, name, rows, widths, quantized):
    """A chain of MatMuls (widths[i] -> widths[i+1]), ReLU between them."""
    rng = np.random.default_rng(0)
    nodes, inits = [], []

    def const(n, a):
        inits.append(numpy_helper.from_array(a, n))
        return n

    def qdq(x, scale):
        s, z = const(x + "_s", np.array(scale, np.float32)), const(x + "_z", np.array(128, np.uint8))
        nodes.append(helper.make_node("QuantizeLinear", [x, s, z], [x + "_q"]))
        nodes.append(helper.make_node("DequantizeLinear", [x + "_q", s, z], [x + "_dq"]))
        return x + "_dq"

    current = "x"
    for layer, (k, n) in enumerate(zip(widths, widths[1:])):
        w = rng.integers(-127, 128, size=(k, n)).astype(np.int8)
        scales = (rng.random(n).astype(np.float32) + 0.5) / (64 * np.sqrt(k))
        if quantized:
            a = qdq(current, 0.02)
            const("w%d_q" % layer, w)
            const("w%d_s" % layer, scales)
            nodes.append(helper.make_node("DequantizeLinear", ["w%d_q" % layer, "w%d_s" % layer],
                                          ["w%d" % layer], axis=1))
        else:
            a = current
            const("w%d" % layer, (w.astype(np.float32) * scales).astype(np.float32))
        out = "y" if layer == len(widths) - 2 else "m%d" % layer
        nodes.append(helper.make_node("MatMul", [a, "w%d" % layer], [out]))
        if out != "y":
            nodes.append(helper.make_node("Relu", [out], ["h%d" % layer]))
            current = "h%d" % layer
    graph = helper.make_graph(
        nodes, name, [helper.make_tensor_value_info("x", TensorProto.FLOAT, [rows, widths[0]])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [rows, widths[-1]])], inits)
    path = os.path.join(folder, name + ".onnx")
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), path)
    return path


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build-dir", default="build")
    parser.add_argument("--node-modules")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--iterations", type=int, default=50)
    args = parser.parse_args()
    kilnc = os.path.join(args.build_dir, "bin", "kilnc")
    node_modules = engine_ort.find_node_modules(args.node_modules)
    if not node_modules:
        sys.exit("onnxruntime-node not found (bench/setup.sh installs it)")
    ort = engine_ort.OrtEngine(node_modules)
    work = tempfile.mkdtemp(prefix="kiln-qdq-")
    cases = [("matmul_1024", 1024, [1024, 1024]),
             ("mlp4_1024_b32", 32, [1024] * 5)]
    print("ONNX Runtime %s, one thread each; medians of %d rounds" % (ort.version, args.rounds))
    print("%-16s %10s %10s %10s %9s %9s %12s" % ("model", "Kiln fp32", "Kiln QDQ", "ORT QDQ",
                                                 "fp32/QDQ", "Kiln/ORT", "max |diff|"))
    for name, rows, widths in cases:
        x = os.path.join(work, name + ".x.npy")
        np.save(x, np.random.default_rng(1).standard_normal((rows, widths[0])).astype(np.float32))
        qdq_model = build(work, name, rows, widths, True)
        fp32_model = build(work, name + "_fp32", rows, widths, False)
        artifacts = {}
        for label, model in (("qdq", qdq_model), ("fp32", fp32_model)):
            artifacts[label] = os.path.join(work, name + "." + label + ".kiln")
            subprocess.run([kilnc, "compile", model, "-o", artifacts[label]], check=True,
                           stdout=subprocess.DEVNULL)
        ort._call(cmd="load", id=name, model=qdq_model, inputs={"x": x}, threads=1)
        ours = os.path.join(work, name + ".out")
        subprocess.run([kilnc, "run", artifacts["qdq"], "--input", "x=" + x, "--output-dir", ours,
                        "--threads", "1"], check=True, stdout=subprocess.DEVNULL)
        theirs_dir = os.path.join(work, name + ".ort")
        os.makedirs(theirs_dir, exist_ok=True)
        theirs = ort._call(cmd="run", id=name, out_dir=theirs_dir)["outputs"]["y"]
        diff = np.abs(np.load(os.path.join(ours, "y.npy")) - np.load(theirs)).max()
        times = {"fp32": [], "qdq": [], "ort": []}
        for _ in range(args.rounds):
            times["fp32"].append(median_ms(kilnc, artifacts["fp32"], x, args.iterations))
            times["qdq"].append(median_ms(kilnc, artifacts["qdq"], x, args.iterations))
            ort_times = ort._call(cmd="bench", id=name, warmup=10,
                                  iterations=args.iterations)["times_ms"]
            times["ort"].append(statistics.median(ort_times))
        ort._call(cmd="unload", id=name)
        m = {k: statistics.median(v) for k, v in times.items()}
        print("%-16s %8.3f ms %8.3f ms %8.3f ms %8.2fx %8.2fx %12.3g" % (
            name, m["fp32"], m["qdq"], m["ort"], m["fp32"] / m["qdq"], m["qdq"] / m["ort"], diff))
    ort.close()


if __name__ == "__main__":
    main()
