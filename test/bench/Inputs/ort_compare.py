#!/usr/bin/env python3
"""ort_compare.py --node-modules DIR --rtol R --atol A FOLDER CASE...

Runs each CASE's model (FOLDER/CASE.onnx, inputs FOLDER/CASE.NAME.npy, as
written by the frontend's kilnc_cases.py) on ONNX Runtime (npm
onnxruntime-node, bench/ort_worker.js) and compares its outputs with
Kiln's (FOLDER/CASE.out/NAME.npy). Prints MATCH or DIFF per case and a
SUMMARY line; exits 1 on any difference.
"""

import argparse
import glob
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "bench"))
import engine_ort  # noqa: E402


def inputs_of(folder, name):
    """{input: path} of FOLDER/NAME.INPUT.npy."""
    prefix = os.path.join(folder, name) + "."
    return {path[len(prefix):-4]: path for path in sorted(glob.glob(prefix + "*.npy"))}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--node-modules", required=True)
    parser.add_argument("--rtol", type=float, default=1e-5)
    parser.add_argument("--atol", type=float, default=1e-6)
    parser.add_argument("folder")
    parser.add_argument("cases", nargs="+")
    args = parser.parse_args()
    ort = engine_ort.OrtEngine(args.node_modules)
    differ = 0
    for name in args.cases:
        ort._call(cmd="load", id=name,
                  model=os.path.join(args.folder, name + ".onnx"),
                  inputs=inputs_of(args.folder, name), threads=1)
        out_dir = os.path.join(args.folder, name + ".ort")
        os.makedirs(out_dir, exist_ok=True)
        outputs = ort._call(cmd="run", id=name, out_dir=out_dir)["outputs"]
        for output, path in outputs.items():
            theirs = np.load(path)
            ours = np.load(os.path.join(args.folder, name + ".out", output + ".npy"))
            if ours.shape != theirs.shape or not np.allclose(
                    ours, theirs, rtol=args.rtol, atol=args.atol):
                differ += 1
                print("DIFF %s %s: max |kiln - ort| %.3g" % (
                    name, output, np.abs(ours.astype(np.float64) - theirs).max()
                    if ours.shape == theirs.shape else float("inf")))
            else:
                print("MATCH %s %s (max |kiln - ort| %.2g)" % (
                    name, output, np.abs(ours.astype(np.float64) - theirs).max()))
    ort.close()
    print("SUMMARY: %d differ" % differ)
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
