#!/usr/bin/python3
"""Writes the .npy inputs of the kilnc tool tests into a folder."""
import os
import sys

import numpy as np

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
np.save(os.path.join(out, "x.npy"),
        np.array([[-1, 2, -3], [4, -5, 6]], dtype=np.float32))
np.save(os.path.join(out, "wrong_shape.npy"), np.zeros((3, 2), np.float32))
np.save(os.path.join(out, "wrong_dtype.npy"), np.zeros((2, 3), np.int32))
np.save(os.path.join(out, "mlp_x.npy"),
        (np.arange(8, dtype=np.float32) / 8).reshape(2, 1, 4))
with open(os.path.join(out, "x.npy"), "rb") as f:
    data = f.read()
with open(os.path.join(out, "truncated.npy"), "wb") as f:
    f.write(data[:-5])
