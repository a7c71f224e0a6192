"""Cases of contraction.mlir: matmul, gemm, conv2d against NumPy."""

import numpy as np

import nnref
from e2e import Case, as_f64, f32, randint, randn


def F32(*arrays):
    out = tuple(np.asarray(a).astype(np.float32) for a in arrays)
    return out if len(out) > 1 else out[0]


def conv_case(fn, shapes, convs, *, dtype=np.float32, seed=0, **kw):
    """`shapes`: input shapes; `convs`: for every result, a function of the
    inputs returning the float64 reference."""
    def inputs(rng):
        return [randn(rng, *s, dtype=dtype) for s in shapes]

    def ref(*args):
        return tuple(c(*args).astype(dtype) for c in convs)
    return Case(fn, inputs, ref, seed=seed, **kw)


CASES = [
    # -- matmul ---------------------------------------------------------------
    Case("matmul_2d", lambda rng: [randn(rng, 4, 8), randn(rng, 8, 16)],
         lambda a, b: F32(as_f64(a) @ as_f64(b))),
    Case("matmul_partial_accumulators",
         lambda rng: [randn(rng, 16, 66), randn(rng, 66, 49),
                      randn(rng, 1, 66), randn(rng, 66, 40)],
         lambda a, b, c, d: F32(as_f64(a) @ as_f64(b), as_f64(c) @ as_f64(d))),
    Case("matmul_vector_shapes",
         lambda rng: [randn(rng, 1, 7), randn(rng, 7, 1), randn(rng, 5, 1),
                      randn(rng, 1, 3)],
         lambda a, b, c, d: F32(as_f64(a) @ as_f64(b), as_f64(c) @ as_f64(d))),
    Case("matmul_batched", lambda rng: [randn(rng, 3, 4, 6),
                                        randn(rng, 3, 6, 5)],
         lambda a, b: F32(np.matmul(as_f64(a), as_f64(b)))),
    Case("matmul_batch_broadcast",
         lambda rng: [randn(rng, 2, 3, 4, 8), randn(rng, 8, 5),
                      randn(rng, 2, 1, 4, 8), randn(rng, 3, 8, 5),
                      randn(rng, 4, 8), randn(rng, 2, 1, 8, 3)],
         lambda a, b, c, d, e, f: F32(np.matmul(as_f64(a), as_f64(b)),
                                      np.matmul(as_f64(c), as_f64(d)),
                                      np.matmul(as_f64(e), as_f64(f)))),
    Case("matmul_integer",
         lambda rng: [randint(rng, -128, 128, 2, 3, dtype=np.int8),
                      randint(rng, -128, 128, 3, 4, dtype=np.int8),
                      randint(rng, -1000, 1000, 5, 2, 3),
                      randint(rng, -1000, 1000, 5, 3, 1),
                      randint(rng, -2 ** 30, 2 ** 30, 1, 6, dtype=np.int64),
                      randint(rng, -2 ** 20, 2 ** 20, 6, 1, dtype=np.int64)],
         # int8 products accumulate in i32, over the full int8 range.
         lambda a, b, c, d, e, f: (np.matmul(a.astype(np.int32),
                                             b.astype(np.int32)),
                                   np.matmul(c, d),
                                   np.matmul(e, f))),
    Case("matmul_int8_tiles",
         lambda rng: [randint(rng, -128, 128, 70, 100, dtype=np.int8),
                      randint(rng, -128, 128, 100, 130, dtype=np.int8),
                      randint(rng, -128, 128, 2, 33, 48, dtype=np.int8),
                      randint(rng, -128, 128, 48, 65, dtype=np.int8)],
         lambda a, b, c, d: (np.matmul(a.astype(np.int32), b.astype(np.int32)),
                             np.matmul(c.astype(np.int32),
                                       d.astype(np.int32)))),
    Case("matmul_f16",
         lambda rng: [randn(rng, 2, 4, 16, dtype=np.float16),
                      randn(rng, 16, 8, dtype=np.float16)],
         lambda a, b: np.matmul(as_f64(a), as_f64(b)).astype(np.float16)),
    Case("matmul_f64",
         lambda rng: [randn(rng, 3, 5, dtype=np.float64),
                      randn(rng, 5, 2, dtype=np.float64)],
         lambda a, b: a @ b),

    # -- gemm -----------------------------------------------------------------
    Case("gemm_plain", lambda rng: [randn(rng, 4, 6), randn(rng, 6, 5)],
         lambda a, b: F32(nnref.gemm(a, b))),
    Case("gemm_linear",
         lambda rng: [randn(rng, 4, 16), randn(rng, 8, 16), randn(rng, 8)],
         lambda x, w, b: F32(nnref.gemm(x, w, b, trans_b=True))),
    Case("gemm_splat_weights", lambda rng: [randn(rng, 5, 96)],
         lambda x: F32(np.maximum(nnref.gemm(
             x, np.full((40, 96), 0.125), np.full(40, -0.25), trans_b=True),
             0))),
    Case("gemm_transposes",
         lambda rng: [randn(rng, 6, 4), randn(rng, 6, 5), randn(rng, 5, 6),
                      randn(rng, 4, 5), randn(rng, 4, 1), randn(rng, 1, 5),
                      randn(rng)],
         lambda at, b, bt, c2, c1, cr, cs: F32(
             nnref.gemm(at, b, c2, trans_a=True),
             nnref.gemm(at, bt, c1, trans_a=True, trans_b=True),
             nnref.gemm(at, b, cr, trans_a=True),
             nnref.gemm(at, bt, cs, trans_a=True, trans_b=True))),
    Case("gemm_alpha_beta",
         lambda rng: [randn(rng, 3, 7), randn(rng, 7, 4), randn(rng, 3, 4),
                      randn(rng, 4)],
         lambda a, b, c, bias: F32(
             nnref.gemm(a, b, c, alpha=0.5, beta=2.0),
             nnref.gemm(a, b, alpha=-3.0),
             nnref.gemm(a, b, bias, beta=0.0),
             nnref.gemm(a, b, bias, alpha=0.0, beta=-1.5))),
    Case("gemm_f16",
         lambda rng: [randn(rng, 8, 4, dtype=np.float16),
                      randn(rng, 6, 8, dtype=np.float16),
                      randn(rng, 4, 1, dtype=np.float16)],
         lambda at, bt, c: nnref.gemm(at, bt, c, alpha=0.5, beta=2.0,
                                      trans_a=True, trans_b=True)
         .astype(np.float16)),

    # -- conv2d ---------------------------------------------------------------
    conv_case("conv2d_basic", [(1, 3, 8, 8), (4, 3, 3, 3)],
              [lambda x, w: nnref.conv2d(x, w)]),
    conv_case("conv2d_bias_stride_pad", [(2, 3, 9, 9), (5, 3, 3, 3), (5,)],
              [lambda x, w, b: nnref.conv2d(x, w, b, strides=(2, 2),
                                            pads=(1, 1, 1, 1))]),
    conv_case("conv2d_asymmetric_pads", [(1, 2, 7, 6), (3, 2, 3, 2)],
              [lambda x, w: nnref.conv2d(x, w, strides=(1, 2),
                                         pads=(1, 0, 2, 1))]),
    conv_case("conv2d_dilation", [(1, 2, 10, 12), (4, 2, 3, 3), (4,)],
              [lambda x, w, b: nnref.conv2d(x, w, b, dilations=(2, 1)),
               lambda x, w, b: nnref.conv2d(x, w, dilations=(3, 3),
                                            pads=(2, 1, 2, 1))]),
    conv_case("conv2d_groups",
              [(2, 8, 6, 7), (4, 4, 3, 3), (4,), (1, 6, 5, 5), (9, 2, 3, 3)],
              [lambda x, w, b, y, v: nnref.conv2d(x, w, b, groups=2),
               lambda x, w, b, y, v: nnref.conv2d(y, v, groups=3)]),
    conv_case("conv2d_depthwise",
              [(1, 8, 6, 6), (8, 1, 3, 3), (8,), (2, 4, 5, 5), (8, 1, 3, 3)],
              [lambda x, w, b, y, v: nnref.conv2d(x, w, b, groups=8,
                                                  pads=(1, 1, 1, 1)),
               lambda x, w, b, y, v: nnref.conv2d(y, v, groups=4,
                                                  strides=(2, 2))]),
    conv_case("conv2d_pointwise",
              [(2, 8, 4, 5), (6, 8, 1, 1), (6,), (1, 2, 8, 8), (3, 2, 2, 2)],
              [lambda x, w, b, y, v: nnref.conv2d(x, w, b, strides=(1, 2),
                                                  pads=(1, 0, 2, 1)),
               lambda x, w, b, y, v: nnref.conv2d(y, v, strides=(3, 3))]),
    conv_case("conv2d_everything", [(1, 8, 10, 12), (4, 4, 3, 3), (4,)],
              [lambda x, w, b: nnref.conv2d(x, w, b, strides=(2, 3),
                                            dilations=(2, 1), groups=2,
                                            pads=(0, 1, 0, 1))]),
    conv_case("conv2d_chunked", [(1, 8, 32, 32), (8, 8, 3, 3), (8,)],
              [lambda x, w, b: nnref.conv2d(x, w, b, pads=(1, 1, 1, 1))]),
    conv_case("conv2d_chunked_strided", [(1, 3, 40, 38), (8, 3, 5, 5)],
              [lambda x, w: nnref.conv2d(x, w, strides=(2, 2),
                                         pads=(2, 1, 1, 0))]),
    conv_case("conv2d_window_covers_padding", [(1, 1, 2, 2), (2, 1, 3, 3)],
              [lambda x, w: nnref.conv2d(x, w, pads=(1, 1, 1, 1))]),
    conv_case("conv2d_f16", [(1, 4, 6, 6), (4, 2, 3, 3), (4,)],
              [lambda x, w, b: nnref.conv2d(x, w, b, groups=2, strides=(2, 2),
                                            pads=(1, 1, 0, 0))],
              dtype=np.float16),
    conv_case("conv2d_f64", [(1, 2, 5, 5), (3, 2, 3, 3), (3,)],
              [lambda x, w, b: nnref.conv2d(x, w, b)], dtype=np.float64),
    Case("conv2d_channel_columns",
         lambda rng: [randn(rng, 1, 8, 7, 7), randn(rng, 1, 8, 1, 1)],
         lambda x, y: F32(
             nnref.conv2d(
                 x, (np.sin(np.arange(2304) * 0.37) * 0.2).astype(
                     np.float32).reshape(32, 8, 3, 3),
                 (np.arange(32) * 0.01).astype(np.float32),
                 pads=(1, 1, 1, 1)),
             nnref.conv2d(
                 y, (np.cos(np.arange(48 * 8) * 0.21) * 0.3).astype(
                     np.float32).reshape(48, 8, 1, 1)))),
    Case("conv2d_packed_channel_columns",
         lambda rng: [randn(rng, 2, 16, 7, 7), randn(rng, 1, 16, 13, 13)],
         lambda x, y: F32(*[
             nnref.conv2d(
                 v, (np.sin(np.arange(1024) * 0.53) * 0.3).astype(
                     np.float32).reshape(64, 16, 1, 1),
                 (np.arange(64) * 0.01).astype(np.float32), strides=s)
             for v, s in ((x, (1, 1)), (y, (2, 2)))])),
    Case("conv2d_constant_weights", lambda rng: [randn(rng, 1, 1, 4, 4)],
         lambda x: F32(nnref.conv2d(
             x, f32([[[[1.0, -1.0], [0.5, 2.0]]], [[[0.0, 1.0],
                                                    [-2.0, 0.25]]]]),
             f32([0.5, -1.0])))),
]
