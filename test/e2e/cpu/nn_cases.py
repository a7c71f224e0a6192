"""Cases of nn.mlir: pooling, softmax, normalisation against NumPy."""

import numpy as np

import nnref
from e2e import Case, f32, randn, uniform

INF = np.inf


def cast(dtype, *arrays):
    out = tuple(np.asarray(a).astype(dtype) for a in arrays)
    return out if len(out) > 1 else out[0]


def F32(*arrays):
    return cast(np.float32, *arrays)


def F16(*arrays):
    return cast(np.float16, *arrays)


def maxp(x, k, **kw):
    return nnref.pool2d(x, "max", k, **kw)


def avgp(x, k, **kw):
    return nnref.pool2d(x, "avg", k, **kw)


def gmax(x):
    return np.max(x, axis=tuple(range(2, x.ndim)), keepdims=True)


def gavg(x):
    return np.mean(np.asarray(x, np.float64), axis=tuple(range(2, x.ndim)),
                   keepdims=True)


def pos(rng, *shape, dtype=np.float32):
    return uniform(rng, 0.2, 2.0, *shape, dtype=dtype)


CASES = [
    # -- max_pool2d -------------------------------------------------------------
    Case("max_pool_basic", lambda rng: [randn(rng, 2, 3, 6, 6)],
         lambda x: F32(maxp(x, (2, 2), strides=(2, 2)), maxp(x, (3, 3)))),
    Case("max_pool_padding",
         lambda rng: [-np.abs(randn(rng, 1, 2, 7, 7)) - f32(1.0)],
         lambda x: F32(maxp(x, (3, 3), strides=(2, 2), pads=(1, 1, 1, 1)),
                       maxp(x, (3, 2), pads=(2, 0, 1, 0)))),
    Case("max_pool_ceil",
         lambda rng: [-np.abs(randn(rng, 1, 2, 6, 6)) - f32(1.0),
                      randn(rng, 2, 3, 5, 5)],
         lambda x, y: F32(maxp(x, (3, 3), strides=(2, 2), ceil_mode=True),
                          maxp(y, (2, 2), strides=(3, 3), pads=(1, 1, 1, 1),
                               ceil_mode=True))),
    Case("max_pool_dilation", lambda rng: [randn(rng, 1, 2, 9, 7)],
         lambda y: F32(maxp(y, (2, 3), strides=(1, 2), dilations=(2, 1),
                            pads=(0, 2, 1, 0)))),
    Case("max_pool_f16",
         lambda rng: [randn(rng, 1, 2, 5, 5, dtype=np.float16)],
         lambda x: F16(maxp(x, (3, 3), strides=(2, 2), pads=(1, 1, 1, 1)))),

    # -- avg_pool2d -------------------------------------------------------------
    Case("avg_pool_basic", lambda rng: [randn(rng, 1, 3, 4, 4)],
         lambda x: F32(avgp(x, (2, 2), strides=(2, 2)), avgp(x, (3, 2)))),
    Case("avg_pool_padding", lambda rng: [randn(rng, 2, 2, 5, 5)],
         lambda x: F32(
             avgp(x, (3, 3), pads=(1, 1, 1, 1)),
             avgp(x, (3, 3), pads=(1, 1, 1, 1), count_include_pad=True),
             avgp(x, (3, 3), strides=(2, 1), pads=(2, 0, 0, 1)),
             avgp(x, (3, 3), strides=(2, 1), pads=(2, 0, 0, 1),
                  count_include_pad=True))),
    Case("avg_pool_ceil", lambda rng: [randn(rng, 1, 2, 6, 6)],
         lambda x: F32(
             avgp(x, (3, 3), strides=(2, 2), ceil_mode=True),
             avgp(x, (3, 3), strides=(2, 2), ceil_mode=True,
                  count_include_pad=True))),
    Case("avg_pool_ceil_pad", lambda rng: [randn(rng, 1, 2, 6, 6)],
         lambda x: F32(
             avgp(x, (3, 3), strides=(2, 2), pads=(1, 1, 1, 1), ceil_mode=True),
             avgp(x, (3, 3), strides=(2, 2), pads=(1, 1, 1, 1), ceil_mode=True,
                  count_include_pad=True),
             maxp(x, (3, 3), strides=(2, 2), pads=(1, 1, 1, 1),
                  ceil_mode=True))),
    Case("avg_pool_dilation", lambda rng: [randn(rng, 1, 1, 7, 7)],
         lambda x: F32(avgp(x, (3, 2), dilations=(2, 2)),
                       avgp(x, (2, 2), dilations=(2, 2), pads=(1, 1, 0, 0),
                            strides=(2, 1)))),
    Case("avg_pool_f16",
         lambda rng: [randn(rng, 1, 2, 4, 4, dtype=np.float16)],
         lambda x: F16(avgp(x, (3, 3), pads=(1, 1, 1, 1)))),

    # -- global pools -----------------------------------------------------------
    Case("global_pools",
         lambda rng: [randn(rng, 2, 3, 4, 5), randn(rng, 2, 4, 9) - f32(5.0),
                      randn(rng, 1, 2, 3, 2, 2)],
         lambda x, y, z: F32(gavg(x), gmax(x), gavg(y), gmax(y), gavg(z),
                             gmax(z))),
    Case("global_pools_f16",
         lambda rng: [randn(rng, 1, 3, 4, 4, dtype=np.float16)],
         lambda x: F16(gavg(x), gmax(x))),

    # -- softmax ----------------------------------------------------------------
    Case("softmax_axes", lambda rng: [randn(rng, 2, 3, 5, scale=2.0)],
         lambda x: F32(nnref.softmax(x, -1), nnref.softmax(x, 0),
                       nnref.softmax(x, 1), nnref.softmax(x, -2))),
    Case("log_softmax_axes", lambda rng: [randn(rng, 2, 3, 5, scale=2.0)],
         lambda x: F32(nnref.log_softmax(x, -1), nnref.log_softmax(x, 0),
                       nnref.log_softmax(x, -2))),
    Case("softmax_stability",
         [f32([[1000, 999, 998, -1000, 0, 1],
               [-INF, 0, 1, -INF, 2, 3],
               [88, 89, -88, 0, 0.5, 90]])],
         lambda x: F32(nnref.softmax(x, 1), nnref.log_softmax(x, -1))),
    Case("softmax_unit_axis_f64",
         lambda rng: [randn(rng, 3, 1), randn(rng, 2, 4, dtype=np.float64)],
         lambda x, d: (F32(nnref.softmax(x, 1)), F32(nnref.log_softmax(x, -1)),
                       nnref.softmax(d, 0), nnref.log_softmax(d, 1))),
    Case("softmax_1d_f16",
         lambda rng: [randn(rng, 16, scale=3.0),
                      randn(rng, 4, 10, dtype=np.float16, scale=2.0)],
         lambda x, h: (F32(nnref.softmax(x, 0)), F32(nnref.log_softmax(x, 0)),
                       F16(nnref.softmax(h, -1)),
                       F16(nnref.log_softmax(h, -2)))),

    # -- normalisation ------------------------------------------------------------
    Case("layer_norm_last",
         lambda rng: [randn(rng, 2, 5, 8, scale=3.0) + f32(1.5),
                      randn(rng, 8), randn(rng, 8)],
         lambda x, g, b: F32(nnref.layer_norm(x, g, b, -1, 1e-5),
                             nnref.layer_norm(x, g, None, 2, 1e-12),
                             nnref.layer_norm(x, g, b, -1, 0.5))),
    Case("layer_norm_multi_dim",
         lambda rng: [randn(rng, 2, 3, 4, 5), randn(rng, 3, 4, 5),
                      randn(rng, 3, 4, 5), randn(rng, 4, 5), randn(rng, 6)],
         lambda x, g, b, g2, y: F32(
             nnref.layer_norm(x, g, b, 1, 1e-5),
             nnref.layer_norm(x, g, None, -3, 1e-3),
             nnref.layer_norm(x, g2, None, 2, 1e-5),
             nnref.layer_norm(y, y, y, 0, 1e-5))),
    Case("layer_norm_f16",
         lambda rng: [randn(rng, 4, 16, dtype=np.float16),
                      randn(rng, 16, dtype=np.float16),
                      randn(rng, 16, dtype=np.float16)],
         lambda x, g, b: F16(nnref.layer_norm(x, g, b, -1, 1e-5))),
    Case("batch_norm_nchw",
         lambda rng: [randn(rng, 2, 3, 4, 4), randn(rng, 3), randn(rng, 3),
                      randn(rng, 3), pos(rng, 3)],
         lambda x, s, b, m, v: F32(nnref.batch_norm(x, s, b, m, v, 1e-5),
                                   nnref.batch_norm(x, s, b, m, v, 0.25))),
    Case("batch_norm_ranks",
         lambda rng: [randn(rng, 8, 16), pos(rng, 16), randn(rng, 16),
                      randn(rng, 2, 4, 10), pos(rng, 4), randn(rng, 4),
                      randn(rng, 1, 2, 2, 3, 2), pos(rng, 2)],
         lambda x, p, q, y, r, t, z, u: F32(
             nnref.batch_norm(x, p, q, q, p, 1e-3),
             nnref.batch_norm(y, r, t, t, r, 0.0),
             nnref.batch_norm(z, u, u, u, u, 1e-5))),
    Case("batch_norm_f16",
         lambda rng: [randn(rng, 1, 4, 3, 3, dtype=np.float16),
                      randn(rng, 4, dtype=np.float16),
                      randn(rng, 4, dtype=np.float16),
                      randn(rng, 4, dtype=np.float16),
                      pos(rng, 4, dtype=np.float16)],
         lambda x, s, b, m, v: F16(nnref.batch_norm(x, s, b, m, v, 1e-3))),
    Case("batch_norm_constant_stats", lambda rng: [randn(rng, 1, 2, 3, 3)],
         lambda x: F32(nnref.batch_norm(x, f32([1.5, -0.5]), f32([0.1, 0.2]),
                                        f32([0.3, -0.4]), f32([2.0, 0.5]),
                                        1e-5))),
]
