#!/usr/bin/python3
"""compare.py NAME ACTUAL.npy EXPECTED.npy: fp32 with rtol 1e-4, atol 1e-5.

Prints "NAME matches PyTorch (max abs error E)" or fails with the worst
element.
"""
import sys

import numpy as np

name, actual_path, expected_path = sys.argv[1:4]
actual, expected = np.load(actual_path), np.load(expected_path)
if actual.shape != expected.shape or actual.dtype != expected.dtype:
    sys.exit(f"{name}: got {actual.dtype}{actual.shape}, "
             f"PyTorch gives {expected.dtype}{expected.shape}")
error = np.abs(actual.astype(np.float64) - expected)
if not np.allclose(actual, expected, rtol=1e-4, atol=1e-5):
    worst = np.unravel_index(np.argmax(error), error.shape)
    sys.exit(f"{name}: mismatch at {worst}: {actual[worst]} vs {expected[worst]}")
print(f"{name} matches PyTorch (max abs error {error.max():.3g})")
