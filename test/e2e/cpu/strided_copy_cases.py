"""Cases of pending-strided-copy.mlir (XFAIL: kilnc exits 4 with
'Symbols not found: [ memrefCopy ]'). References as in shape_cases.py."""

import numpy as np

from e2e import Case, randint, randn

CASES = [
    Case("concat_inner_axis", lambda rng: [randn(rng, 2, 3), randn(rng, 2, 5)],
         lambda a, b: np.concatenate([a, b], 1)),
    Case("concat_inner_axis_variants",
         lambda rng: [randn(rng, 2, 3), randn(rng, 2, 1),
                      randint(rng, -100, 100, 2, 3, 4),
                      randint(rng, -100, 100, 2, 1, 4),
                      randn(rng, 2, 2, dtype=np.float16),
                      randn(rng, 2, 3, dtype=np.float16)],
         lambda a, c, g, h, p, q: (np.concatenate([c, a, c, c], -1),
                                   np.concatenate([h, g], 1),
                                   np.concatenate([p, q], 1))),
    Case("concat_inner_axis_consumed",
         lambda rng: [randn(rng, 2, 3), randn(rng, 2, 5)],
         lambda a, b: np.maximum(np.concatenate([a, b], 1), np.float32(0))),
    Case("split_inner_axis", lambda rng: [randn(rng, 1, 4, 12)],
         lambda x: (x[:, :, 0:4], x[:, :, 4:8], x[:, :, 8:12])),
    Case("slice_inner_columns", lambda rng: [randn(rng, 4, 8)],
         lambda x: x[:, 2:5]),
    Case("slice_positive_step",
         lambda rng: [randn(rng, 4, 8), randn(rng, 8), randn(rng, 3, 4, 5)],
         lambda x, v, y: (x[:, 2:8:2], v[0:8:2], y[:, :, 1:5:2])),
]
