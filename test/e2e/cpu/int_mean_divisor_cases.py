"""Cases of pending-int-mean-divisor.mlir (XFAIL: the i8 mean's divisor 128
wraps to -128)."""

import numpy as np

from e2e import Case

CASES = [
    # Row 0: 128 x -1 (sum -128, fits i8), mean exactly -1. Row 1: 64 x 1 and
    # 64 x -1, mean exactly 0. No rounding rule is involved.
    Case("reduce_mean_i8_count_128",
         [np.array([[-1] * 128, [1, -1] * 64], dtype=np.int8)],
         lambda x: np.array([-1, 0], dtype=np.int8)),
]
