"""Writes the input of Inputs/chain.mlir, or checks an output against NumPy.

usage: check_chain.py make DIR | check DIR/x.npy DIR/y.npy
"""
import sys

import numpy as np


def reference(x):
    w = np.full((32, 32), 0.03125, np.float32)
    b = np.full((32,), 0.5, np.float32)
    a = x
    for _ in range(3):
        a = np.maximum(a @ w.T + b, 0)
    return a @ w.T + b + a


if sys.argv[1] == "make":
    x = np.linspace(-2, 2, 16 * 32, dtype=np.float32).reshape(16, 32)
    np.save(sys.argv[2] + "/x.npy", x)
else:
    x, y = np.load(sys.argv[2]), np.load(sys.argv[3])
    np.testing.assert_allclose(y, reference(x), rtol=1e-5, atol=1e-5)
    print("chain matches NumPy")
