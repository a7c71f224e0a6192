"""Cases of pending-int-clip-bounds.mlir (XFAIL: integer clip bounds wrap or
truncate at run time)."""

import numpy as np

from e2e import Case

I8 = np.array([-128, -5, 0, 5, 100, 127], dtype=np.int8)
I32 = np.array([-2 ** 31, 0, 5, 2 ** 31 - 1], dtype=np.int32)
I64 = np.array([-2 ** 63, 0, 7, 2 ** 63 - 1], dtype=np.int64)

CASES = [
    Case("clip_int_wide_bounds", [I8, I32, I64],
         lambda a, b, c: (a, a, b, c)),
    # Integer results inside [2.5, inf) are >= 3; inside [-2.5, -0.5] they
    # are -2 or -1.
    Case("clip_int_fractional_bounds",
         [np.array([-3, -2, 1, 2, 3], dtype=np.int32)],
         lambda a: (np.array([3, 3, 3, 3, 3], dtype=np.int32),
                    np.array([-2, -2, -1, -1, -1], dtype=np.int32))),
]
