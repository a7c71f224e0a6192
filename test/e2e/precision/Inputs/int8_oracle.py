#!/usr/bin/env python3
"""NumPy oracle for Inputs/int8.mlir under --precision int8.

  inputs DIR [batched]
               writes DIR/calibration/000/x.npy (values in [-1, 3]) and
               DIR/x.npy (values inside and outside that range), with a
               leading batch dimension of 1 for int8_batched.mlir
  check DIR    compares DIR/out/y.npy with x quantized per tensor
               (scale 4/255, zero point -64: minmax of the calibration
               sample), dequantized, times W rounded to int8 per column
  same A B     checks that A/y.npy and B/y.npy are bit for bit equal
"""

import os
import sys

import numpy as np

W = np.array([[1, 2, 3], [4, -5, 6], [7, 8, 9], [1, 2, -3]], dtype=np.float64)


def main():
    folder = sys.argv[2]
    if sys.argv[1] == "same":
        a, b = np.load(folder + "/y.npy"), np.load(sys.argv[3] + "/y.npy")
        if a.tobytes() != b.tobytes():
            print("FAILED: %s and %s differ" % (folder, sys.argv[3]))
            sys.exit(1)
        print("the same bits")
        return
    if sys.argv[1] == "inputs":
        batch = (1,) if sys.argv[3:] == ["batched"] else ()
        os.makedirs(folder + "/calibration/000", exist_ok=True)
        np.save(folder + "/calibration/000/x.npy",
                np.array([[-1, 0, 1, 2], [3, 0.5, 0.25, 0]], dtype=np.float32).reshape(batch + (2, 4)))
        np.save(folder + "/x.npy",
                np.array([[-2, 0.1, 1.01, 2.5], [5, -0.3, 0.0078, 1.5]], dtype=np.float32).reshape(batch + (2, 4)))
        return
    x = np.load(folder + "/x.npy").astype(np.float64).reshape(2, 4)
    scale, zero = 4.0 / 255.0, -64
    q = np.clip(np.round(x / scale) + zero, -128, 127)  # np.round: half to even
    dq = (q - zero) * scale
    w_scale = np.abs(W).max(axis=0) / 127.0
    w = np.clip(np.round(W / w_scale), -127, 127) * w_scale
    expected = dq @ w
    y = np.load(folder + "/out/y.npy").reshape(2, 3)
    error = np.abs(y - expected).max()
    unquantized = np.abs(y - x @ W).max()
    if error > 1e-4 or unquantized < 1e-3:
        print("FAILED: %.3g from the int8 simulation, %.3g from fp32" % (error, unquantized))
        sys.exit(1)
    print("int8 matches the QDQ simulation (max error %.2g; %.3g from fp32)" % (error, unquantized))


if __name__ == "__main__":
    main()
