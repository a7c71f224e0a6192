"""Cases of reduction.mlir: reductions and arg-reductions against NumPy."""

import numpy as np

from e2e import Case, as_f64, f16, f32, f64, randint, randn

INF = np.inf


def F32(*arrays):
    out = tuple(np.asarray(a).astype(np.float32) for a in arrays)
    return out if len(out) > 1 else out[0]


def argmax(x, axis, keep_dims=False, last=False, fn=np.argmax):
    """Index of the first (or last) extreme element along `axis`."""
    x = np.asarray(x)
    if last:
        n = x.shape[axis]
        idx = n - 1 - fn(np.flip(x, axis=axis), axis=axis)
    else:
        idx = fn(x, axis=axis)
    idx = np.asarray(idx, dtype=np.int64)
    return np.expand_dims(idx, axis) if keep_dims else idx


def argmin(x, axis, keep_dims=False, last=False):
    return argmax(x, axis, keep_dims, last, fn=np.argmin)


def divisible_int_inputs(rng):
    """Integer tensors whose reduced sums divide exactly by the count, so the
    integer mean does not depend on a rounding rule."""
    x = randint(rng, -1000, 1000, 3, 4)
    x[2] -= x.sum(axis=0) % 3
    y = randint(rng, -20, 20, 2, 5, dtype=np.int8)
    y[:, 4] -= (y.sum(axis=1, dtype=np.int64) % 5).astype(np.int8)
    z = np.array([2 ** 53 + 1, 2 ** 60, -7], dtype=np.int64)
    return [x, y, z]


CASES = [
    Case("reduce_sum_axes", lambda rng: [randn(rng, 2, 3, 4)],
         lambda x: F32(np.sum(as_f64(x), axis=-1, keepdims=True),
                       np.sum(as_f64(x), axis=(0, 2)),
                       np.sum(as_f64(x)),
                       x,
                       np.sum(as_f64(x), axis=(0, 2), keepdims=True),
                       np.sum(as_f64(x), axis=-2))),
    Case("reduce_mean_axes",
         lambda rng: [randn(rng, 4, 6), randn(rng, 2, 3, 4)],
         lambda x, y: F32(np.mean(as_f64(x), axis=1, keepdims=True),
                          np.mean(as_f64(x), axis=(0, 1), keepdims=True),
                          np.mean(as_f64(x), axis=0),
                          np.mean(as_f64(y), axis=(0, 2)),
                          np.mean(as_f64(y)))),
    Case("reduce_max_min_f32",
         lambda rng: [np.stack([-np.abs(randn(rng, 5)) - f32(1),
                                np.abs(randn(rng, 5)) + f32(1),
                                randn(rng, 5)])],
         lambda x: (np.max(x, axis=1), np.min(x, axis=-1),
                    np.max(x, axis=0, keepdims=True),
                    np.min(x, axis=0, keepdims=True),
                    np.max(x), np.min(x))),
    Case("reduce_max_min_inf",
         [f32([[-INF, -INF, -INF, -INF], [INF, INF, 1.0, -INF]])],
         lambda x: (f32([-INF, INF]), f32([-INF, -INF]))),
    Case("reduce_max_min_int",
         lambda rng: [
             np.array([[-128, 5, 127, -1, -128], [-128, -7, 126, -2, -120],
                       [-128, 0, 125, -3, -128]], dtype=np.int8),
             randint(rng, -2 ** 31, 2 ** 31 - 1, 3, 5),
             np.array([[-2 ** 63, 2 ** 62], [-2 ** 63 + 1, 2 ** 63 - 1],
                       [-5, 2 ** 62 + 1], [-(2 ** 62), 0]], dtype=np.int64)],
         lambda x, y, z: (np.max(x, 0), np.min(x, 0),
                          np.max(y, -1, keepdims=True),
                          np.min(y, -1, keepdims=True),
                          np.max(z, 0), np.min(z, 0))),
    Case("reduce_sum_mean_int", divisible_int_inputs,
         lambda x, y, z: (np.sum(x, 0, dtype=np.int32),
                          np.sum(x, 1, keepdims=True, dtype=np.int32),
                          np.sum(y, -1, dtype=np.int8),
                          np.sum(z, dtype=np.int64),
                          (np.sum(x, 0) // 3).astype(np.int32),
                          (np.sum(y, 1, keepdims=True, dtype=np.int64) // 5)
                          .astype(np.int8))),
    Case("reduce_prod",
         lambda rng: [np.abs(randn(rng, 3, 4)) + f32(0.5),
                      np.array([-3, 2 ** 20, 2 ** 21 + 1], dtype=np.int64),
                      randint(rng, -9, 10, 2, 3)],
         lambda x, y, z: (F32(np.prod(as_f64(x), 0)),
                          F32(np.prod(as_f64(x), -1, keepdims=True)),
                          np.prod(y), np.prod(z, 1, dtype=np.int32))),
    Case("reduce_empty_axis", [np.zeros((0, 4), np.float32)],
         lambda x: (np.ones((1, 4), np.float32), np.zeros(4, np.float32))),
    Case("reduce_rank0", [f64(-2.5), f32(3.25)],
         lambda x, y: (x, y)),
    Case("reduce_f16",
         lambda rng: [(randn(rng, 4, 6) * f32(0.5) + f32(1.0))
                      .astype(np.float16)],
         lambda x: (np.mean(as_f64(x), 1, keepdims=True).astype(np.float16),
                    np.sum(as_f64(x), 0).astype(np.float16),
                    np.max(x, 1), np.min(x, 1),
                    np.prod(as_f64(x)).astype(np.float16)),
         # The product of 24 f16 factors, each rounded product adding up to
         # half an f16 ulp (~5e-4) of relative error: rtol 2e-2.
         rtol=2e-2),
    Case("reduce_4d", lambda rng: [randn(rng, 2, 3, 4, 5)],
         lambda x: (F32(np.sum(as_f64(x), (1, 2))),
                    np.max(x, (0, 2), keepdims=True))),

    # -- argmax / argmin ----------------------------------------------------------
    Case("argmax_f32", lambda rng: [randn(rng, 4, 10)],
         lambda x: (argmax(x, 1), argmax(x, -1, True), argmax(x, 0),
                    argmin(x, -2, True))),
    Case("argmax_ties",
         lambda rng: [randint(rng, -1, 2, 2, 3, 4, dtype=np.int8)],
         lambda y: (argmax(y, 0), argmax(y, 0, last=True),
                    argmax(y, -2, True), argmax(y, -2, True, last=True),
                    argmax(y, 2), argmax(y, 2, last=True))),
    Case("argmin_ties",
         lambda rng: [f32([3, 1, 2, 1, 5, 1, 4]),
                      randint(rng, 0, 3, 5, 2, dtype=np.int64),
                      randint(rng, 0, 2, 3, 4)],
         lambda x, y, z: (argmin(x, 0), argmin(x, 0, last=True),
                          argmin(y, -2), argmin(y, -2, last=True),
                          argmin(z, 1, True), argmin(z, 1, True, last=True))),
    Case("arg_extremes",
         [np.array([[-128, -128, -128], [127, -128, 127]], dtype=np.int8),
          f32([[-INF, -INF, -INF, -INF], [INF, 3.0, INF, -INF]])],
         lambda x, f: (argmax(x, 1), argmin(x, 1), argmax(f, 1),
                       argmin(f, 1, last=True))),
    Case("argmax_f16",
         lambda rng: [randn(rng, 3, 5, dtype=np.float16)],
         lambda h: (argmax(h, 1), argmin(h, 0))),
    Case("folded_reductions", [],
         lambda: (f32([2.5, -1.5]), np.array([7, 9, 2], dtype=np.int32),
                  np.array([1, 2], dtype=np.int64),
                  np.array(1512, dtype=np.int64))),
]
