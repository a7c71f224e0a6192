#!/usr/bin/env python3
"""Kiln weight-only int8/int4 against Kiln fp32 on one GEMV, one thread.

Builds one MatMul (ROWS x K times a constant K x N, random weights) as
ONNX, compiles it at fp32, --weight-only int8:gGROUP and int4:gGROUP,
times the three artifacts with `kilnc bench` in interleaved rounds and
prints the medians, the speed-ups over fp32, the weight bytes each reads
and each result's SQNR against fp32.

  /usr/bin/python3 bench/quantization/weight_only_speed.py [--build-dir build]
      [--rows 1] [--k 4096] [--n 4096] [--group 128] [--rounds 5]
      [--iterations 100]

KILN_CPU_ISA=portable caps the kernel's instruction set.
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


def make_model(folder, rows, k, n):
    rng = np.random.default_rng(0)
    w = (rng.standard_normal((k, n)) / np.sqrt(k)).astype(np.float32)
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["x", "w"], ["y"], name="gemv")], "gemv",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [rows, k])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [rows, n])],
        [numpy_helper.from_array(w, "w")])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]),
              os.path.join(folder, "gemv.onnx"))
    np.save(os.path.join(folder, "x.npy"), rng.standard_normal((rows, k)).astype(np.float32))


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--build-dir", default="build")
    p.add_argument("--rows", type=int, default=1)
    p.add_argument("--k", type=int, default=4096)
    p.add_argument("--n", type=int, default=4096)
    p.add_argument("--group", type=int, default=128)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--iterations", type=int, default=100)
    args = p.parse_args()
    kilnc = os.path.join(args.build_dir, "bin", "kilnc")
    kiln_run = os.path.join(args.build_dir, "bin", "kiln-run")
    schemes = {"fp32": [], "int8": ["--weight-only", "int8:g%d" % args.group],
               "int4": ["--weight-only", "int4:g%d" % args.group]}
    groups = -(-args.k // args.group)
    weight_bytes = {"fp32": 4 * args.k * args.n,
                    "int8": args.k * args.n + 4 * groups * args.n,
                    "int4": args.k * args.n // 2 + 4 * groups * args.n}
    with tempfile.TemporaryDirectory() as folder:
        make_model(folder, args.rows, args.k, args.n)
        model, x = os.path.join(folder, "gemv.onnx"), os.path.join(folder, "x.npy")
        artifacts, outputs = {}, {}
        for name, flags in schemes.items():
            artifacts[name] = os.path.join(folder, name + ".kiln")
            subprocess.run([kilnc, "compile", model, "-o", artifacts[name]] + flags,
                           check=True, capture_output=True)
            subprocess.run([kiln_run, artifacts[name], "--input", "x=" + x,
                            "--output-dir", os.path.join(folder, name)],
                           check=True, capture_output=True)
            outputs[name] = np.load(os.path.join(folder, name, "y.npy"))
        times = {name: [] for name in artifacts}
        for _ in range(args.rounds):
            for name in artifacts:  # interleaved
                times[name].append(median_ms(kilnc, artifacts[name], x, args.iterations))
        print("MatMul %d x %d by %d x %d, group %d, 1 thread, %d rounds of %d runs"
              % (args.rows, args.k, args.k, args.n, args.group, args.rounds, args.iterations))
        fp32 = np.median(times["fp32"])
        for name in artifacts:
            median = np.median(times[name])
            noise = ((outputs["fp32"] - outputs[name]) ** 2).sum()
            sqnr = (10 * np.log10((outputs["fp32"] ** 2).sum() / noise)
                    if noise > 0 else float("inf"))
            print("%s median %.3f ms (rounds: %s); %.1f MiB of weights; "
                  "%.2fx fp32; SQNR vs fp32 %.1f dB"
                  % (name, median, ", ".join("%.3f" % t for t in times[name]),
                     weight_bytes[name] / 2**20, fp32 / median, sqnr))


if __name__ == "__main__":
    sys.exit(main())
