#!/usr/bin/env python3
"""Writes DIR/calibration/0/x.npy (the range [-127.5, 127.5]: scale 1, zero
point 0) and DIR/ties.npy, DIR/edges.npy for int8-rounding.test."""

import os
import sys

import numpy as np

folder = sys.argv[1]
os.makedirs(folder + "/calibration/0", exist_ok=True)
np.save(folder + "/calibration/0/x.npy",
        np.array([[-127.5, 127.5, 0, 0, 0, 0, 0, 0]], np.float32))
np.save(folder + "/ties.npy",
        np.array([[0.5, 1.5, 2.5, -0.5, -1.5, 2.4999, 126.5, 200]], np.float32))
np.save(folder + "/edges.npy",
        np.array([[-2.5, 3.5, -3.5, 125.5, -127.5, -300, 0.49999997, 1e30]],
                 np.float32))
