#!/usr/bin/python3
"""Recomputes examples/mlp/mlp.mlir with NumPy and compares (rtol 1e-4)."""
import sys

import numpy as np

x = np.load(sys.argv[1]).reshape(2, 4).astype(np.float64)
w1 = np.array([[0.5, -0.25, 0.125, 1.0], [0.0, 0.5, -0.5, 0.25],
               [1.0, 1.0, 0.0, -1.0], [0.25, 0.25, 0.25, 0.25],
               [-0.5, 0.0, 0.5, 0.0], [0.125, -0.125, 0.0, 1.0],
               [0.0, 0.0, 1.0, 0.0], [-1.0, 0.5, 0.5, 0.0]])
hidden = np.maximum(x @ w1.T + 0.1, 0.0)
logits = hidden @ np.full((3, 8), 0.125).T + np.array([0.1, 0.2, 0.3])
exps = np.exp(logits - logits.max(axis=-1, keepdims=True))
expected = exps / exps.sum(axis=-1, keepdims=True)
actual = np.load(sys.argv[2])
assert actual.dtype == np.float32 and actual.shape == (2, 3), actual
np.testing.assert_allclose(actual, expected, rtol=1e-4, atol=1e-6)
print("MLP matches NumPy")
