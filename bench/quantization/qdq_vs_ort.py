#!/usr/bin/env python3
"""Kiln against ONNX Runtime on the same pre-quantized model, one thread
each.

Builds models in the three forms ORT's quantization tools write (QDQ,
QOperator with QLinearMatMul, and dynamic quantization with MatMulInteger;
uint8 activations per tensor, int8 weights per output channel): one 1024 x
1024 x 1024 MatMul and a 4-layer 1024-wide MLP at batch 32 (ReLU,
requantized between layers). Kiln compiles each (kiln-fold-qdq and
kiln-fold-integer-contractions run the contractions on its int8 kernels)
and also the float model with the same weights dequantized (its fp32
baseline). Times come from `kilnc bench --threads 1`
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


def build(folder, name, rows, widths, form):
    """A chain of MatMuls (widths[i] -> widths[i+1]), ReLU between them, in
    one of the forms ORT's quantization tools write: "qdq" (QuantizeLinear/
    DequantizeLinear around float MatMuls), "qlinear" (QOperator: uint8
    activations through QLinearMatMul; a hidden layer's output zero point 0
    is its ReLU), "dynamic" (DynamicQuantizeLinear + MatMulInteger per
    layer), or "fp32" (the same weights dequantized)."""
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

    def node(op, inputs, output, **attrs):
        nodes.append(helper.make_node(op, inputs, [output], **attrs))
        return output

    current = "x"
    if form == "qlinear":
        current = node("QuantizeLinear", ["x", const("x_s", np.array(0.02, np.float32)),
                                          const("x_z", np.array(128, np.uint8))], "x_q")
    layers = len(widths) - 1
    for layer, (k, n) in enumerate(zip(widths, widths[1:])):
        w = rng.integers(-127, 128, size=(k, n)).astype(np.int8)
        scales = (rng.random(n).astype(np.float32) + 0.5) / (64 * np.sqrt(k))
        last = layer == layers - 1
        wq, ws = "w%d_q" % layer, "w%d_s" % layer
        if form == "qdq":
            a = qdq(current, 0.02)
            const(wq, w)
            const(ws, scales)
            out = node("MatMul", [a, node("DequantizeLinear", [wq, ws], "w%d" % layer, axis=1)],
                       "y" if last else "m%d" % layer)
        elif form == "qlinear":
            const(wq, w)
            const(ws, scales)
            # Hidden layers: zero point 0 clamps at 0, ORT's fused ReLU.
            y_zero = 128 if last else 0
            out = node("QLinearMatMul", [
                current, "x_s" if layer == 0 else "h%d_s" % (layer - 1),
                "x_z" if layer == 0 else "h%d_z" % (layer - 1), wq, ws,
                const(wq + "_z", np.zeros(n, np.int8)),
                const("h%d_s" % layer, np.array(0.02, np.float32)),
                const("h%d_z" % layer, np.array(y_zero, np.uint8))], "h%d_q" % layer)
            if last:
                out = node("DequantizeLinear", [out, "h%d_s" % layer, "h%d_z" % layer], "y")
            current = out
            continue
        elif form == "dynamic":
            const(wq, w)
            const(ws, scales)
            q, s, z = current + "_q", current + "_qs", current + "_qz"
            nodes.append(helper.make_node("DynamicQuantizeLinear", [current], [q, s, z]))
            acc = node("MatMulInteger", [q, wq, z], "acc%d" % layer)
            wide = node("Cast", [acc], acc + "_f", to=TensorProto.FLOAT)
            out = node("Mul", [wide, node("Mul", [s, ws], "s%d" % layer)],
                       "y" if last else "m%d" % layer)
        else:
            out = node("MatMul", [current, const("w%d" % layer, (w.astype(np.float32) * scales)
                                                 .astype(np.float32))],
                       "y" if last else "m%d" % layer)
        if not last:
            current = node("Relu", [out], "h%d" % layer)
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
    cases = [(name + "_" + form, rows, widths, form)
             for form in ("qdq", "qlinear", "dynamic")
             for name, rows, widths in (("matmul_1024", 1024, [1024, 1024]),
                                        ("mlp4_1024_b32", 32, [1024] * 5))]
    print("ONNX Runtime %s, one thread each; medians of %d rounds" % (ort.version, args.rounds))
    print("%-22s %10s %10s %10s %9s %9s %12s" % ("model", "Kiln fp32", "Kiln int8", "ORT int8",
                                                 "fp32/int8", "Kiln/ORT", "max |diff|"))
    for name, rows, widths, form in cases:
        x = os.path.join(work, name + ".x.npy")
        np.save(x, np.random.default_rng(1).standard_normal((rows, widths[0])).astype(np.float32))
        qdq_model = build(work, name, rows, widths, form)
        fp32_model = build(work, name + "_fp32", rows, widths, "fp32")
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
        print("%-22s %8.3f ms %8.3f ms %8.3f ms %8.2fx %8.2fx %12.3g" % (
            name, m["fp32"], m["qdq"], m["ort"], m["fp32"] / m["qdq"], m["qdq"] / m["ort"], diff))
    ort.close()


if __name__ == "__main__":
    main()
