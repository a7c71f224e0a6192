#!/usr/bin/python3
"""compare_exact.py ACTUAL.npy EXPECTED.npy: same dtype, shape and values."""
import sys

import numpy as np

actual, expected = np.load(sys.argv[1]), np.load(sys.argv[2])
assert actual.dtype == expected.dtype, (actual.dtype, expected.dtype)
assert actual.shape == expected.shape, (actual.shape, expected.shape)
assert np.array_equal(actual, expected), (actual, expected)
print("EXACT")
