#!/usr/bin/env python3
"""compare.py GOT.npy EXPECTED.npy: exit 0 when they agree (rtol 1e-4)."""
import sys

import numpy as np

got, expected = np.load(sys.argv[1]), np.load(sys.argv[2])
error = float(np.max(np.abs(got.astype(np.float64) - expected)))
ok = got.shape == expected.shape and np.allclose(got, expected, rtol=1e-4,
                                                 atol=1e-6)
print(f"max abs error {error:.3g}: {'OK' if ok else 'MISMATCH'}")
sys.exit(0 if ok else 1)
