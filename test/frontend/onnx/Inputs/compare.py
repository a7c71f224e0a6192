#!/usr/bin/python3
"""compare.py ACTUAL.npy EXPECTED.npy: fp32 rtol 1e-4, atol 1e-6."""
import sys

import numpy as np

actual, expected = np.load(sys.argv[1]), np.load(sys.argv[2])
assert actual.shape == expected.shape, (actual.shape, expected.shape)
np.testing.assert_allclose(actual, expected, rtol=1e-4, atol=1e-6)
print("MATCH")
