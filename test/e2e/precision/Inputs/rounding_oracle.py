#!/usr/bin/env python3
"""NumPy oracle for Inputs/rounding.mlir under --precision bf16|fp16.

  inputs DIR            writes x.npy and w.npy (w is an input, so Kiln reads
                        it as given, like the model's other inputs)
  check DIR PRECISION   compares DIR/PRECISION/{y,s}.npy with a simulation
                        that rounds every result to the low type's grid and
                        computes in fp32.
"""

import sys

import numpy as np


def round_to(values, precision):
    values = np.atleast_1d(np.asarray(values, dtype=np.float32))
    if precision == "fp16":
        return values.astype(np.float16).astype(np.float32)
    if precision == "bf16":
        # Round to nearest, ties to even, on the top 16 bits (no NaNs here).
        bits = values.view(np.uint32).astype(np.uint64)
        bits = (bits + np.uint64(0x7FFF) + ((bits >> np.uint64(16)) & np.uint64(1))) & np.uint64(0xFFFF0000)
        return bits.astype(np.uint32).view(np.float32)
    return values


def ulp(values, precision):
    mantissa = {"bf16": 8, "fp16": 11}[precision]
    exponent = np.floor(np.log2(np.maximum(np.abs(values), 2.0 ** -14)))
    return 2.0 ** (exponent - mantissa + 1)


def softmax(t):
    e = np.exp(t - t.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def main():
    command, folder = sys.argv[1], sys.argv[2]
    if command == "inputs":
        rng = np.random.default_rng(7)
        np.save(folder + "/x.npy", rng.standard_normal((8, 16)).astype(np.float32))
        np.save(folder + "/w.npy", (rng.standard_normal((16, 32)) * 0.3).astype(np.float32))
        return
    precision = sys.argv[3]
    x, w = np.load(folder + "/x.npy"), np.load(folder + "/w.npy")
    y, s = (np.load("%s/%s/%s.npy" % (folder, precision, n)) for n in ("y", "s"))
    b, three = round_to(np.float32(0.0123456789), precision), round_to(np.float32(3.0), precision)
    a = round_to(round_to(x @ w, precision) + b, precision)
    expected_y = round_to(np.tanh(np.maximum(a, 0)), precision)
    exact_y = np.tanh(np.maximum(x @ w + np.float32(0.0123456789), 0))
    failures = []
    if not np.array_equal(round_to(y, precision), y):
        failures.append("y is not on the %s grid" % precision)
    # fp32 sums in another order may round one step apart.
    off = np.abs(y - expected_y) / ulp(expected_y, precision)
    if off.max() > 1.0:
        failures.append("y is %.1f steps from the simulation" % off.max())
    if np.abs(y - exact_y).max() < 1e-5:
        failures.append("y is not rounded (it matches fp32)")
    # softmax stays fp32: not rounded, computed on the rounded 3*y.
    expected_s = softmax(round_to(y * three, precision))
    if np.abs(s - expected_s).max() > 1e-6:
        failures.append("s is %.2g from softmax of the rounded input" % np.abs(s - expected_s).max())
    if np.array_equal(round_to(s, precision), s):
        failures.append("s (an fp32 island) was rounded")
    if failures:
        print("%s: FAILED: %s" % (precision, "; ".join(failures)))
        sys.exit(1)
    print("%s: matches the rounding simulation (max %.2f steps)" % (precision, off.max()))


if __name__ == "__main__":
    main()
