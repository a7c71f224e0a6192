#!/usr/bin/env python3
"""Kiln int8 against Kiln fp32 on a GEMM-heavy model, one thread.

Builds an MLP (LAYERS Gemm+Relu layers of WIDTH x WIDTH, batch BATCH,
random weights) as ONNX, compiles it at fp32 and at int8 (calibrated by
Kiln on 8 random samples), then times both artifacts with `kilnc bench`
in interleaved rounds and prints the medians, their ratio and the int8
result's SQNR against fp32.

  /usr/bin/python3 bench/quantization/int8_speed.py [--build-dir build]
      [--batch 32] [--width 1024] [--layers 4] [--rounds 3] [--iterations 200]

KILN_CPU_ISA=portable|vnni|amx caps the kernels' instruction set.
"""

import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from kilnc_timing import median_ms


def make_model(folder, batch, width, layers):
    rng = np.random.default_rng(0)
    nodes, initializers, x = [], [], "x"
    for i in range(layers):
        w = (rng.standard_normal((width, width)) / np.sqrt(width)).astype(np.float32)
        b = (rng.standard_normal(width) * 0.1).astype(np.float32)
        initializers += [numpy_helper.from_array(w, "w%d" % i),
                         numpy_helper.from_array(b, "b%d" % i)]
        nodes.append(helper.make_node("Gemm", [x, "w%d" % i, "b%d" % i],
                                      ["g%d" % i], transB=1, name="fc%d" % i))
        x = "g%d" % i
        if i < layers - 1:
            nodes.append(helper.make_node("Relu", [x], ["r%d" % i], name="relu%d" % i))
            x = "r%d" % i
    graph = helper.make_graph(
        nodes, "mlp", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [batch, width])],
        [helper.make_tensor_value_info(x, TensorProto.FLOAT, [batch, width])], initializers)
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]),
              os.path.join(folder, "mlp.onnx"))
    for s in range(8):
        os.makedirs(os.path.join(folder, "calibration", "s%d" % s))
        np.save(os.path.join(folder, "calibration", "s%d" % s, "x.npy"),
                rng.standard_normal((batch, width)).astype(np.float32))
    np.save(os.path.join(folder, "x.npy"), rng.standard_normal((batch, width)).astype(np.float32))


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--build-dir", default="build")
    p.add_argument("--batch", type=int, default=32)
    p.add_argument("--width", type=int, default=1024)
    p.add_argument("--layers", type=int, default=4)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--iterations", type=int, default=200)
    args = p.parse_args()
    kilnc = os.path.join(args.build_dir, "bin", "kilnc")
    kiln_run = os.path.join(args.build_dir, "bin", "kiln-run")
    with tempfile.TemporaryDirectory() as folder:
        make_model(folder, args.batch, args.width, args.layers)
        model, x = os.path.join(folder, "mlp.onnx"), os.path.join(folder, "x.npy")
        artifacts = {}
        for precision in ("fp32", "int8"):
            artifacts[precision] = os.path.join(folder, precision + ".kiln")
            extra = ["--precision", "int8", "--calibration-data",
                     os.path.join(folder, "calibration")] if precision == "int8" else []
            subprocess.run([kilnc, "compile", model, "-o", artifacts[precision]] + extra,
                           check=True, capture_output=True)
            subprocess.run([kiln_run, artifacts[precision], "--input", "x=" + x,
                            "--output-dir", os.path.join(folder, precision)],
                           check=True, capture_output=True)
        outputs = {k: np.load(os.path.join(folder, k, os.listdir(os.path.join(folder, k))[0]))
                   for k in artifacts}
        noise = ((outputs["fp32"] - outputs["int8"]) ** 2).sum()
        sqnr = 10 * np.log10((outputs["fp32"] ** 2).sum() / noise)
        times = {k: [] for k in artifacts}
        for _ in range(args.rounds):
            for precision in artifacts:  # interleaved
                times[precision].append(median_ms(kilnc, artifacts[precision], x,
                                                  args.iterations))
        fp32, int8 = np.median(times["fp32"]), np.median(times["int8"])
        print("MLP %d x %d, %d layers, batch %d, 1 thread, %d rounds of %d runs"
              % (args.width, args.width, args.layers, args.batch, args.rounds,
                 args.iterations))
        print("fp32 median %.3f ms (rounds: %s)" % (fp32, ", ".join("%.3f" % t for t in times["fp32"])))
        print("int8 median %.3f ms (rounds: %s)" % (int8, ", ".join("%.3f" % t for t in times["int8"])))
        print("int8 speed-up over fp32: %.2fx; int8 SQNR vs fp32 %.1f dB" % (fp32 / int8, sqnr))


if __name__ == "__main__":
    sys.exit(main())
