"""Cases of shape.mlir: data movement, constants and fusions against NumPy."""

import numpy as np

from e2e import Case, f16, f32, f64, randbool, randint, randn

I32, I64 = np.int32, np.int64


def pad(x, low, high, mode, value=0):
    widths = list(zip(low, high))
    if mode == "constant":
        return np.pad(x, widths, mode="constant",
                      constant_values=np.asarray(value).astype(x.dtype))
    return np.pad(x, widths, mode=mode)  # "reflect" and "edge" as in NumPy


def gather(x, idx, axis):
    """Negative indices count from the end; out-of-range ones are clamped
    (documented run-time behaviour of kiln.gather)."""
    n = x.shape[axis]
    idx = np.asarray(idx).astype(np.int64)
    idx = np.where(idx < 0, idx + n, idx)
    idx = np.clip(idx, 0, n - 1)
    return np.take(x, idx, axis=axis)


def py_slice(x, starts, limits, steps):
    """Python slicing; a limit of -1 with a negative step means 'through
    index 0'."""
    index = tuple(slice(s, None if (l == -1 and st < 0) else l, st)
                  for s, l, st in zip(starts, limits, steps))
    return x[index]


CASES = [
    # -- reshape ----------------------------------------------------------------
    Case("reshape",
         lambda rng: [randn(rng, 2, 3, 4), randbool(rng, 4),
                      randint(rng, -2 ** 40, 2 ** 40, 6, dtype=I64)],
         lambda x, b, l: (x.reshape(6, 4), x.reshape(24), x.reshape(4, 1, 3, 2),
                          b.reshape(2, 2), l.reshape(3, 1, 2))),
    Case("reshape_rank0", [f32(-3.5), np.array([[42]], dtype=I32)],
         lambda x, y: (x.reshape(1, 1), x, y.reshape(()), y.reshape(1))),
    Case("reshape_after_transpose", lambda rng: [randn(rng, 2, 3, 4)],
         lambda x: np.transpose(x, (2, 0, 1)).reshape(4, 6)),

    # -- transpose / broadcast --------------------------------------------------------
    Case("transpose",
         lambda rng: [randn(rng, 2, 3, 4, 5),
                      randint(rng, -128, 128, 2, 3, dtype=np.int8),
                      np.array(17, dtype=I32), randbool(rng, 2, 1, 3)],
         lambda x, y, s, b: (np.transpose(x, (0, 2, 1, 3)),
                             np.transpose(x, (3, 1, 2, 0)),
                             np.transpose(x, (1, 2, 3, 0)), y.T, s,
                             np.transpose(b, (2, 0, 1)))),
    Case("canonicalized_chains",
         lambda rng: [randn(rng, 2, 3, 4), randn(rng, 1, 5, 1, 2)],
         lambda x, y: (np.transpose(np.transpose(x, (1, 2, 0)), (0, 2, 1)),
                       np.transpose(y, (1, 2, 3, 0)), x.reshape(4, 6), x)),
    Case("broadcast",
         lambda rng: [randn(rng), randbool(rng, 3, 1),
                      randn(rng, 1, 4, dtype=np.float16),
                      randint(rng, -10, 10, 3, 1, dtype=I64)],
         lambda s, x, r, c: (np.broadcast_to(s, (2, 3, 4)).copy(),
                             np.broadcast_to(x, (2, 3, 4)).copy(),
                             np.broadcast_to(r, (3, 4)).copy(),
                             np.broadcast_to(c, (2, 3, 5)).copy(), c)),

    # -- concat / split / slice ------------------------------------------------------
    Case("concat_axis0",
         lambda rng: [randn(rng, 2, 3), np.array([-9], dtype=I64),
                      randbool(rng, 2, 2, 3), randbool(rng, 1, 2, 3),
                      randint(rng, -100, 100, 2, 3, 4),
                      randint(rng, -100, 100, 1, 3, 4)],
         lambda a, d, e, f, g, h: (np.concatenate([a, a], -2), d,
                                   np.concatenate([e, f], 0),
                                   np.concatenate([h, g, h], 0))),
    Case("split_axis0",
         lambda rng: [randn(rng, 1, 4, 12), randint(rng, -50, 50, 6, 2)],
         lambda x, y: (y[0:1], y[1:1], y[1:6], y, x[:, 0:1], x[:, 1:4])),
    Case("split_inner_consumed", lambda rng: [randn(rng, 2, 12)],
         lambda x: ((x[:, 0:4].astype(np.float64) * x[:, 4:8])
                    .astype(np.float32) - x[:, 8:12])),
    Case("slice",
         lambda rng: [randn(rng, 4, 8),
                      np.array([10, -20, 30, -40, 50], dtype=np.int8)],
         lambda x, y: (py_slice(x, [3, 7], [-1, 0], [-1, -3]),
                       py_slice(y, [2], [2], [1]),
                       py_slice(x, [1, 0], [3, 8], [1, 1]),
                       py_slice(y, [4], [-1], [-1]),
                       py_slice(x, [2, 5], [4, 8], [10, 7]))),
    Case("slice_3d_negative",
         lambda rng: [randn(rng, 3, 4, 5), randbool(rng, 6)],
         lambda x, b: (pad(py_slice(x, [2, 3, 4], [0, -1, 0], [-1, -2, -2]),
                           [0, 0, 0], [0, 0, 1], "constant", 9.0),
                       py_slice(b, [5], [0], [-2]))),
    Case("slice_strided_consumed",
         lambda rng: [randn(rng, 4, 8), randn(rng, 3, 4, 5)],
         lambda x, y: (-py_slice(x, [0, 2], [4, 8], [1, 2]),
                       np.exp(py_slice(y, [0, 1, 1], [3, 4, 5], [1, 2, 2])
                              .astype(np.float64)).astype(np.float32))),

    # -- gather -----------------------------------------------------------------
    Case("gather_embedding",
         lambda rng: [randn(rng, 10, 4), randint(rng, 0, 10, 2, 3, dtype=I64)],
         lambda t, ids: gather(t, ids, 0)),
    Case("gather_axes",
         lambda rng: [randn(rng, 2, 3, 4),
                      np.array([3, -1, 0, -4, 2], dtype=I32),
                      np.array(-2, dtype=I64),
                      np.array([[0, -1], [2, -3]], dtype=I32)],
         lambda x, j, k, m: (gather(x, j, 2), gather(x, k, 1), gather(x, m, 1),
                             gather(x, m, 2))),
    Case("gather_types",
         lambda rng: [np.array([True, False, False, True]),
                      np.array([[3, -3], [0, -1]], dtype=I32),
                      randint(rng, -2 ** 40, 2 ** 40, 3, 2, dtype=I64),
                      np.array([-1, 0, 2], dtype=I64),
                      randn(rng, 5, dtype=np.float16)],
         lambda b, i, l, n, h: (
             gather(b, i, 0),
             np.concatenate([gather(l, n, 0).T, n.reshape(1, 3)], 0),
             gather(h, n, 0))),
    Case("gather_clamp",
         lambda rng: [randn(rng, 4, 3), np.array([10, -10, 3, -5], dtype=I64)],
         lambda x, i: gather(x, i, 0)),

    # -- pad ----------------------------------------------------------------------
    Case("pad_constant",
         lambda rng: [randn(rng, 1, 2, 3, 3), randint(rng, -9, 9, 3, 5),
                      f16([0.5, -1.25])],
         lambda x, y, h: (pad(x, [0, 0, 1, 1], [0, 0, 1, 1], "constant", 0.0),
                          pad(y, [0, 2], [1, 0], "constant", -1),
                          pad(h, [1], [2], "constant", 2.5),
                          pad(x, [1, 0, 0, 0], [0, 0, 1, 0], "constant",
                              -1.5))),
    Case("pad_reflect",
         lambda rng: [randn(rng, 1, 2, 4, 4),
                      np.array([1, 2, 3, 4, 5], dtype=I64)],
         lambda x, v: (pad(x, [0, 0, 3, 0], [0, 0, 0, 3], "reflect"),
                       pad(x, [0, 0, 1, 2], [0, 0, 1, 0], "reflect"),
                       pad(v, [4], [2], "reflect"))),
    Case("pad_edge",
         lambda rng: [randint(rng, -9, 9, 3, 5), np.array([[True, False]]),
                      randn(rng, 2, 3)],
         lambda y, b, x: (pad(y, [5, 0], [0, 7], "edge"),
                          pad(b, [1, 0], [0, 0], "edge"),
                          pad(x, [1, 1], [3, 1], "edge"))),

    # -- constant / fusion --------------------------------------------------------
    Case("constants", [],
         lambda: (f32([1, 2]), np.full((2, 3), 0.5, np.float16),
                  np.array([True, False, True]), np.full((2, 2), True),
                  np.array([1, 128, -1], dtype=I64), np.array(-7, np.int8),
                  np.array([0, 2 ** 31 - 1, -2 ** 31], dtype=I32),
                  np.zeros((0, 4), np.float32), f64([0.1, -2.5e300]))),
    Case("constants_with_inputs",
         lambda rng: [randn(rng, 2, 3), randint(rng, -100, 100, 3)],
         lambda x, i: (
             (x.astype(np.float64) * [[1.0, -2.0, 3.0], [0.5, 0.25, -0.125]])
             .astype(np.float32),
             i + np.array([10, -20, 30], dtype=I32), f32([1, 2]))),
    Case("fusion_many",
         lambda rng: [randn(rng, 2, 6), np.array([2, -3, 1], dtype=I32),
                      randbool(rng, 2, 6)],
         lambda x, i, m: (gather(x[:, 3:], i, 1),
                          gather(x[:, 3:], i, 1).astype(np.float64).sum(0)
                          .astype(np.float32), m)),
    Case("fusion_chain", lambda rng: [randn(rng, 4), np.array(-5, np.int8)],
         lambda x, y: ((-np.exp(x.astype(np.float64))).astype(np.float32), y,
                       np.array([3, 4], dtype=I64))),
    Case("folded_shape_ops", [],
         lambda: (np.array([[1, 4], [2, 5], [3, 6]], I32),
                  np.array([[1, 1, 2, 3, 3], [4, 4, 5, 6, 6]], I32),
                  np.array([[6], [3]], I32),
                  np.array([[3, 1], [6, 4]], I32),
                  np.array([1, 4], I32),
                  np.array([[2, 3, 3, 1], [5, 6, 6, 4]], I32))),
]
