#!/usr/bin/python3
"""ReduceMax/ReduceMin over every axis of a tensor large enough for
kiln-split-full-reductions (two stages), with and without keepdims, and
with a NaN (it must reach the result): `kilnc run` against NumPy.

full_reductions.py OUT --kilnc KILNC   prints one line per case."""
import argparse
import os
import subprocess

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--kilnc", required=True)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    rng = np.random.default_rng(3)
    for keep in (0, 1):
        for nan in (False, True):
            name = "keep%d%s" % (keep, "_nan" if nan else "")
            shape = [1, 1, 1] if keep else []
            nodes = [helper.make_node("ReduceMax", ["x"], ["y"], keepdims=keep),
                     helper.make_node("ReduceMin", ["x"], ["z"], keepdims=keep)]
            graph = helper.make_graph(
                nodes, name, [helper.make_tensor_value_info("x", T.FLOAT, [3, 100, 70])],
                [helper.make_tensor_value_info("y", T.FLOAT, shape),
                 helper.make_tensor_value_info("z", T.FLOAT, shape)])
            model = os.path.join(args.out, name + ".onnx")
            onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]),
                      model)
            x = rng.standard_normal((3, 100, 70)).astype(np.float32)
            x[1, 50, 3], x[2, 7, 69] = 9, -9  # away from the first row and column
            if nan:
                x[2, 99, 40] = np.nan
            np.save(os.path.join(args.out, name + ".npy"), x)
            out = os.path.join(args.out, name + ".out")
            subprocess.run([args.kilnc, "run", model, "--input",
                            "x=" + os.path.join(args.out, name + ".npy"),
                            "--output-dir", out], check=True, stdout=subprocess.DEVNULL)
            ok = True
            for output, want in (("y", np.max(x, keepdims=bool(keep))),
                                 ("z", np.min(x, keepdims=bool(keep)))):
                got = np.load(os.path.join(out, output + ".npy"))
                ok &= got.shape == want.shape and np.array_equal(got, want, equal_nan=True)
            print("%s: %s" % (name, "OK" if ok else "FAIL"))


if __name__ == "__main__":
    main()
