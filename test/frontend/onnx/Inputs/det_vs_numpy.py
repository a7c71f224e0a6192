#!/usr/bin/python3
"""det_vs_numpy.py OUTDIR --kilnc KILNC: Det against numpy.linalg.det on a
batch of random 6x6 matrices, matrices that need row swaps (zeros on the
diagonal), singular ones (exactly 0, never NaN), 1x1, and float64; the
refusal of a 65x65 matrix (exit 3). Fixed seed."""
import numpy as np
from onnx import helper

from kilnc_cases import cases_from_command_line

rng = np.random.default_rng(0)
cases = cases_from_command_line(rtol=1e-4, atol=1e-5)


def det(name, x, **kwargs):
    cases.add(name, [helper.make_node("Det", ["x"], ["y"])], {"x": x},
              {"y": np.linalg.det(x.astype(np.float64)).astype(x.dtype)},
              **kwargs)


det("random_batch", rng.standard_normal((2, 3, 6, 6)).astype(np.float32))
swaps = np.array([[[0, 1, 0], [0, 0, 1], [1, 0, 0]],   # a cycle: +1
                  [[0, 2, 0], [3, 0, 0], [0, 0, 4]],   # one swap: -24
                  [[0, 0, 1], [0, 1, 0], [1, 0, 0]]],  # one swap: -1
                 np.float32)
det("row_swaps", swaps)
singular = rng.standard_normal((3, 4, 4)).astype(np.float32)
singular[0, :, 2] = 0                 # a zero column
singular[1, 3] = singular[1, 0]       # two equal rows
singular[2] = 0                       # all zeros
det("singular", singular)
det("one_by_one", np.array([[[-2.5]], [[4.0]]], np.float32))
det("float64", rng.standard_normal((5, 5)))
cases.add("too_large", [helper.make_node("Det", ["x"], ["y"])],
          {"x": np.eye(65, dtype=np.float32)}, {"y": np.float32(1)},
          expect_exit=3, expect_error="Det of 65x65 matrices")
cases.check()
