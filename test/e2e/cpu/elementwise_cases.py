"""Cases of elementwise.mlir: NumPy references from GraphElementwiseOps.td."""

import math

import numpy as np

from e2e import Case, as_f64, f16, f32, f64, randbool, randint, randn, uniform

NAN, INF = np.nan, np.inf
np.seterr(all="ignore")

erf = np.vectorize(math.erf, otypes=[np.float64])


def with_specials(x, specials):
    """`x` with its first elements (row-major) replaced by `specials`."""
    flat = x.reshape(-1).copy()
    flat[:len(specials)] = specials
    return flat.reshape(x.shape)


def nonzero_f32(rng, lo, hi, *shape):
    """Floats with lo <= |x| < hi and random signs."""
    mag = rng.uniform(lo, hi, size=shape)
    return (mag * rng.choice([-1.0, 1.0], size=shape)).astype(np.float32)


def nonzero_int(rng, lo, hi, *shape, dtype=np.int32):
    mag = rng.integers(lo, hi, size=shape)
    return (mag * rng.choice([-1, 1], size=shape)).astype(dtype)


def trunc_div(a, b):
    """Integer division truncating toward zero (C semantics)."""
    a = np.asarray(a).astype(np.int64)
    b = np.asarray(b).astype(np.int64)
    q = np.abs(a) // np.abs(b)
    return np.where((a < 0) != (b < 0), -q, q)


def gelu_erf(x):
    return 0.5 * x * (1.0 + erf(x / math.sqrt(2.0)))


def gelu_tanh(x):
    return 0.5 * x * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) *
                                    (x + 0.044715 * x ** 3)))


def hardswish(x):
    return x * np.maximum(0.0, np.minimum(1.0, x / 6.0 + 0.5))


def hardsigmoid(x, alpha, beta):
    # np.maximum/np.minimum propagate NaN, as documented for kiln.min/max.
    return np.maximum(0.0, np.minimum(1.0, alpha * x + beta))


def leaky_relu(x, alpha):
    return np.where(np.isnan(x), np.nan, np.where(x >= 0, x, alpha * x))


def to_bf16_f32(x):
    """Round float32 to bfloat16 (nearest, ties to even), back as float32."""
    x = np.asarray(x, dtype=np.float32)
    bits = x.view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    out = rounded.astype(np.uint32).view(np.float32)
    return np.where(np.isnan(x), np.float32(np.nan), out).astype(np.float32)


# ----------------------------------------------------------------------------
# Inputs
# ----------------------------------------------------------------------------

def numeric_unary_f32_inputs(rng):
    x = randn(rng, 4, 6, scale=2.0)
    return [with_specials(x, [NAN, INF, -INF, 0.0, -0.0, 3.0])]


def numeric_unary_int_inputs(rng):
    a = randint(rng, -127, 128, 3, 4, dtype=np.int8)
    a.reshape(-1)[:2] = [0, 127]
    b = randint(rng, -1000, 1000, 12, dtype=np.int32)
    b[:3] = [0, -2147483647, 2147483647]
    c = randint(rng, -10 ** 12, 10 ** 12, 2, 6, dtype=np.int64)
    c.reshape(-1)[:3] = [0, -(2 ** 62), 2 ** 53 + 1]
    return [a, b, c]


SPECIALS = f32([0.0, -0.0, -1.0, INF, -INF, NAN, 100.0, 1e-30, 1e-40, 88.0])

FLOOR_CEIL_IN = f32([-2.5, -0.5, -0.0, 0.0, 0.5, 1.0, 1.5, -1.0, 1e10, -1e10,
                     8388609.0, NAN, INF, -INF, 2.9999, -2.0001])


def tanh_inputs(rng):
    x = randn(rng, 5, 8, scale=3.0)
    return [with_specials(x, [20.0, -20.0, 100.0, -100.0, 0.0, NAN, 1e-4,
                              -9.0])]


def cast_from_f32_inputs(rng):
    x = uniform(rng, -120.0, 120.0, 3, 5)
    return [with_specials(x, [0.0, -0.0, 0.5, -0.5, -1.7, 1.7, -127.9,
                              126.99, -0.9999])]


def bits_i1(x):
    return np.asarray(x) != 0


# ----------------------------------------------------------------------------
# Cases
# ----------------------------------------------------------------------------

CASES = [
    # -- unary ----------------------------------------------------------------
    Case("numeric_unary_f32", numeric_unary_f32_inputs,
         lambda x: (-x, np.abs(x), np.sign(x), np.maximum(x, f32(0)))),
    Case("numeric_unary_int", numeric_unary_int_inputs,
         lambda a, b, c: (-a, np.maximum(a, np.int8(0)), np.abs(b),
                          np.sign(b), np.sign(c), np.abs(c), -b)),
    Case("exp_log_sqrt",
         lambda rng: [nonzero_f32(rng, 0.1, 5.0, 3, 7),
                      uniform(rng, 0.01, 100.0, 3, 7)],
         lambda x, p: tuple(r.astype(np.float32) for r in (
             np.exp(as_f64(x)), np.log(as_f64(p)), np.sqrt(as_f64(p)),
             1.0 / np.sqrt(as_f64(p)), 1.0 / as_f64(x)))),
    Case("exp_log_sqrt_specials", [SPECIALS],
         lambda x: tuple(r.astype(np.float32) for r in (
             np.exp(as_f64(x)), np.log(as_f64(x)), np.sqrt(as_f64(x)),
             1.0 / np.sqrt(as_f64(x)), 1.0 / as_f64(x)))),
    Case("tanh_sigmoid_erf", tanh_inputs,
         lambda x: tuple(r.astype(np.float32) for r in (
             np.tanh(as_f64(x)), 1.0 / (1.0 + np.exp(-as_f64(x))),
             erf(as_f64(x))))),
    Case("floor_ceil", [FLOOR_CEIL_IN],
         lambda x: (np.floor(x), np.ceil(x))),
    Case("sin_cos", lambda rng: [uniform(rng, -20.0, 20.0, 4, 8)],
         lambda x: (np.sin(as_f64(x)).astype(np.float32),
                    np.cos(as_f64(x)).astype(np.float32))),
    Case("hardswish",
         lambda rng: [with_specials(uniform(rng, -5.0, 5.0, 3, 9),
                                    [-3.0, 3.0, 0.0, -6.0, 6.0, NAN])],
         lambda x: hardswish(as_f64(x)).astype(np.float32)),
    Case("gelu",
         lambda rng: [with_specials(randn(rng, 4, 10, scale=2.5),
                                    [0.0, -8.0, 8.0, NAN])],
         lambda x: (gelu_erf(as_f64(x)).astype(np.float32),
                    gelu_erf(as_f64(x)).astype(np.float32),
                    gelu_tanh(as_f64(x)).astype(np.float32))),
    Case("hardsigmoid_leaky_relu",
         lambda rng: [with_specials(uniform(rng, -6.0, 6.0, 2, 12),
                                    [NAN, -2.5, 2.5, -3.0, 3.0, 0.0])],
         lambda x: (hardsigmoid(as_f64(x), 0.2, 0.5).astype(np.float32),
                    hardsigmoid(as_f64(x), 1.0 / 6.0, 0.5).astype(np.float32),
                    leaky_relu(as_f64(x), 0.01).astype(np.float32),
                    leaky_relu(as_f64(x), 0.3).astype(np.float32))),
    Case("clip_f32",
         lambda rng: [with_specials(uniform(rng, -3.0, 8.0, 3, 8),
                                    [NAN, INF, -INF, 6.0, 0.0])],
         lambda x: (np.minimum(np.maximum(x, f32(0.0)), f32(6.0)),
                    np.maximum(x, f32(-1.0)),
                    np.minimum(x, f32(0.5)),
                    x.copy(),
                    np.where(np.isnan(x), f32(NAN), f32(0.25)))),
    Case("clip_int",
         lambda rng: [
             randint(rng, -128, 128, 10, dtype=np.int8),
             randint(rng, -10, 11, 10, dtype=np.int32),
             np.array([2 ** 53 + 1, -(2 ** 53) - 1, 2 ** 63 - 1, 5],
                      dtype=np.int64)],
         lambda a, b, c: (np.clip(a, -20, 100).astype(np.int8),
                          np.clip(b, -5, 5).astype(np.int32),
                          np.maximum(c, np.int64(0)),
                          np.full(4, 3, dtype=np.int64))),
    Case("logical_not", lambda rng: [randbool(rng, 3, 5)], lambda x: ~x),
    Case("unary_f16",
         lambda rng: [randn(rng, 4, 8, dtype=np.float16, scale=2.0),
                      uniform(rng, 0.1, 10.0, 4, 8, dtype=np.float16)],
         lambda x, p: tuple(r.astype(np.float16) for r in (
             np.exp(as_f64(x)), np.tanh(as_f64(x)),
             1.0 / (1.0 + np.exp(-as_f64(x))), gelu_erf(as_f64(x)),
             np.log(as_f64(p)), np.sqrt(as_f64(p)),
             np.maximum(as_f64(x), 0.0), hardswish(as_f64(x))))),
    Case("unary_f64",
         lambda rng: [randn(rng, 12, dtype=np.float64, scale=3.0),
                      uniform(rng, 0.01, 50.0, 12, dtype=np.float64)],
         lambda x, p: (np.exp(x), np.log(p), np.tanh(x), erf(x), np.sin(x),
                       1.0 / np.sqrt(p))),

    # -- binary ---------------------------------------------------------------
    Case("arith_f32_broadcast",
         lambda rng: [randn(rng, 2, 3), nonzero_f32(rng, 0.5, 3.0, 3),
                      randn(rng), nonzero_f32(rng, 0.5, 3.0, 2, 1)],
         lambda a, b, s, c: tuple(f32(r) for r in (
             as_f64(a) + as_f64(b), as_f64(s) - as_f64(a),
             as_f64(c) * as_f64(b), as_f64(a) / as_f64(c),
             np.minimum(a, c), np.maximum(b, a), as_f64(s) * as_f64(s),
             as_f64(a) - (as_f64(s) / as_f64(b)).astype(np.float32)))),
    Case("arith_broadcast_both",
         lambda rng: [randn(rng, 4, 1, 5), randn(rng, 3, 1)],
         lambda a, b: tuple(f32(r) for r in (
             as_f64(a) + as_f64(b), as_f64(b) - as_f64(a),
             as_f64(a) * as_f64(b), np.maximum(a, b)))),
    Case("pow_f32",
         lambda rng: [uniform(rng, 0.1, 4.0, 3, 6), uniform(rng, -2.0, 2.0, 6),
                      uniform(rng, -2.0, 2.0)],
         lambda x, y, s: (np.power(as_f64(x), as_f64(y)).astype(np.float32),
                          np.power(as_f64(x), as_f64(s)).astype(np.float32))),
    # pow follows C/IEEE pow: negative bases with integral exponents are
    # fine, with non-integral ones NaN.
    Case("pow_special", name="pow_negative_base",
         inputs=[f32([-2, -2, -2, -2, -3, -0.5, -2, -8, 3, 2, 1.5, -1]),
                 f32([3, 2, 0.5, -1, 4, -2, 1.5, 1 / 3, 4, -3, 2, 7])],
         ref=lambda x, y: np.power(as_f64(x), as_f64(y)).astype(np.float32)),
    Case("pow_special", name="pow_zero_inf_nan",
         inputs=[f32([0, 0, 0, -0.0, 2, NAN, 1, INF, INF, 0.5, 4, NAN]),
                 f32([0, -1, 2, 3, NAN, 0, NAN, 2, -1, INF, -INF, 2])],
         ref=lambda x, y: np.power(as_f64(x), as_f64(y)).astype(np.float32)),
    Case("min_max_nan",
         [f32([NAN, 1, NAN, -1, 2, -0.5, INF, -INF]),
          f32([1, NAN, NAN, 2, -1, -0.5, 3, 3])],
         lambda a, b: (np.minimum(a, b), np.maximum(a, b))),
    Case("arith_int",
         lambda rng: [randint(rng, -60, 61, 8, dtype=np.int8),
                      randint(rng, -50, 51, 3, 1, dtype=np.int32),
                      nonzero_int(rng, 1, 8, 1, 5, dtype=np.int32),
                      np.array(-3, dtype=np.int64),
                      randint(rng, -10 ** 9, 10 ** 9, 2, 3, dtype=np.int64)],
         lambda i, j, k, l, m: (
             (i + i).astype(np.int8), (i - i).astype(np.int8),
             (j + k).astype(np.int32), (j - k).astype(np.int32),
             (j * k).astype(np.int32), trunc_div(j, k).astype(np.int32),
             np.minimum(j, k), np.maximum(j, k),
             trunc_div(m, l).astype(np.int64), (l * m).astype(np.int64),
             np.array(0, dtype=np.int64))),
    Case("arith_i8_minmax_div",
         lambda rng: [randint(rng, -12, 13, 2, 4, dtype=np.int8),
                      nonzero_int(rng, 1, 11, 4, dtype=np.int8)],
         lambda a, b: (trunc_div(a, b).astype(np.int8), np.minimum(a, b),
                       np.maximum(a, b), (a.astype(np.int64) * b)
                       .astype(np.int8))),
    Case("rem_mixed_signs",
         lambda rng: [randint(rng, -50, 51, 2, 4, dtype=np.int32),
                      nonzero_int(rng, 1, 9, 4, dtype=np.int32),
                      nonzero_f32(rng, 0.1, 20.0, 3, 4),
                      nonzero_f32(rng, 0.5, 3.0, 4),
                      np.array([7.25, -7.25, 1e300, 3.0, -0.0]),
                      np.array([2.0, 2.0, 3.0, INF, 1.0])],
         lambda a, b, x, y, p, q: (
             (a.astype(np.int64) - trunc_div(a, b) * b).astype(np.int32),
             np.fmod(x, y), np.fmod(p, q))),
    Case("arith_f16",
         lambda rng: [nonzero_f32(rng, 0.1, 3.0, 3, 4).astype(np.float16),
                      nonzero_f32(rng, 0.5, 2.0, 4).astype(np.float16),
                      f16(rng.uniform(-2, 2))],
         lambda a, b, s: tuple(r.astype(np.float16) for r in (
             as_f64(a) + as_f64(b), as_f64(s) - as_f64(a),
             as_f64(a) * as_f64(b), as_f64(a) / as_f64(b),
             np.minimum(as_f64(a), as_f64(s)), np.maximum(as_f64(a),
                                                          as_f64(b)),
             np.power(np.abs(as_f64(a)), as_f64(b))))),
    Case("arith_f64",
         lambda rng: [randn(rng, 2, 3, dtype=np.float64),
                      f64(nonzero_f32(rng, 0.5, 3.0, 3))],
         lambda a, b: (a + b, a * b, a / b, b - a)),
    Case("logical_binary",
         lambda rng: [randbool(rng, 2, 4), randbool(rng, 4),
                      np.array(True)],
         lambda a, b, s: (a & b, s | a, b ^ a, np.array(False), a & s)),
    Case("logical_binary", name="logical_binary_false_scalar",
         inputs=lambda rng: [randbool(rng, 2, 4), randbool(rng, 4),
                             np.array(False)], seed=1,
         ref=lambda a, b, s: (a & b, s | a, b ^ a, np.array(False), a & s)),

    # bf16 keeps 8 significant bits: rtol 1e-2 (one bf16 ulp is <= 7.8e-3
    # relative), atol 1e-3.
    Case("arith_bf16",
         lambda rng: [randn(rng, 8, scale=2.0), randn(rng, 8, scale=2.0)],
         lambda x, y: (lambda a, b: tuple(to_bf16_f32(r) for r in (
             a + b, a * b, np.exp(a), np.tanh(b))))(
             to_bf16_f32(x).astype(np.float64),
             to_bf16_f32(y).astype(np.float64)),
         rtol=1e-2, atol=1e-3),
    Case("arith_i16",
         [np.array([-300, 2, 1000, -32768, 7, -7], dtype=np.int16),
          np.array([100, -3, 30, 1, -2, 2], dtype=np.int16)],
         lambda x, y: ((x.astype(np.int64) * y).astype(np.int16),
                       trunc_div(x, y).astype(np.int16), np.maximum(x, y),
                       x.astype(np.float32), x.astype(np.int64), x < y)),

    # -- compare / select / cast ------------------------------------------------
    Case("compare_f32",
         lambda rng: (lambda x, y: [
             with_specials(x, [NAN, 1.0, NAN, 2.0, INF, -INF, 0.0]),
             with_specials(y, [1.0, NAN, NAN, 2.0, INF, -INF, -0.0])])(
             rng.integers(-2, 3, (2, 6)).astype(np.float32),
             rng.integers(-2, 3, (2, 6)).astype(np.float32)),
         lambda x, y: (x == y, x != y, x < y, x <= y, x > y, x >= y)),
    Case("compare_int_broadcast",
         lambda rng: [randint(rng, -3, 4, 2, 5, dtype=np.int64),
                      np.array(1, dtype=np.int64),
                      randint(rng, -128, 128, 3, 1, dtype=np.int8),
                      np.array([-128, -1, 0, 127], dtype=np.int8)],
         lambda x, s, a, b: (x == s, s != x, x < s, x <= s, x > s, x >= s,
                             a < b, a >= b)),
    Case("compare_i32_bool_f16",
         lambda rng: [randint(rng, -2, 3, 6), randint(rng, -2, 3, 6),
                      randbool(rng, 2, 4), randbool(rng, 4),
                      f16([[0.5, -1.0, NAN, 2.0, 0.25]]),
                      f16([[0.5], [NAN], [-2.0]])],
         lambda x, y, b, c, h, g: (x <= y, x > y, b == c, b != c, h < g,
                                   h != g)),
    Case("select_broadcast",
         lambda rng: [randbool(rng, 2, 1, 4),
                      with_specials(randn(rng, 3, 1), [NAN]),
                      randn(rng, 4), np.array(True), randn(rng)],
         lambda c, a, b, d, s: (np.where(c, a, b), np.where(d, a, b),
                                np.where(d, s, b).astype(np.float32))),
    Case("select_broadcast", name="select_broadcast_false_scalar", seed=3,
         inputs=lambda rng: [randbool(rng, 2, 1, 4), randn(rng, 3, 1),
                             randn(rng, 4), np.array(False), randn(rng)],
         ref=lambda c, a, b, d, s: (np.where(c, a, b), np.where(d, a, b),
                                    np.where(d, s, b).astype(np.float32))),
    Case("select_int_bool",
         lambda rng: [randbool(rng, 4), randint(rng, -100, 100, 2, 1),
                      randint(rng, -100, 100, 4), randbool(rng, 2, 4),
                      randbool(rng, 4),
                      randint(rng, -2 ** 40, 2 ** 40, 4, dtype=np.int64),
                      np.array(-7, dtype=np.int64)],
         lambda c, i, j, p, q, l, m: (np.where(c, i, j), np.where(c, p, q),
                                      np.where(c, m, l))),
    Case("cast_from_f32", cast_from_f32_inputs,
         lambda x: (x.astype(np.float16), x.astype(np.float64),
                    np.trunc(x).astype(np.int32), np.trunc(x).astype(np.int64),
                    np.trunc(x).astype(np.int8), x != 0)),
    Case("cast_f32_to_bool_specials",
         [f32([NAN, INF, -INF, -0.0, 1e-40, 0.0])],
         lambda x: np.array([True, True, True, False, True, False])),
    Case("cast_to_f32",
         [f16([0.5, -1.5, 65504, -0.0, 6e-5, NAN]),
          np.array([0, -1, 16777217, -16777219, 2 ** 31 - 1, 123456789],
                   dtype=np.int32),
          np.array([2 ** 40 + 1, -(2 ** 53) - 3, 0, -1, 2 ** 62, 7],
                   dtype=np.int64),
          np.array([-128, -1, 0, 1, 127, 42], dtype=np.int8),
          np.array([True, False, True, True, False, False]),
          f64([0.1, -1e39, 1e39, NAN, 1e-50, -3.25])],
         lambda h, i, l, b, z, d: (h.astype(np.float32), i.astype(np.float32),
                                   l.astype(np.float32), b.astype(np.float32),
                                   z.astype(np.float32), d.astype(np.float32))),
    Case("cast_int_int",
         [np.array([-128, -1, 0, 1, 2, 127, -2, 64], dtype=np.int8),
          np.array([0, 1, -1, 2, 4, 256, 65536, -2], dtype=np.int32),
          np.array([0, 1, -1, 2, -2, 100, -128, 127], dtype=np.int64),
          np.array([True, False, True, False, False, True, True, False])],
         lambda b, i, l, z: (b.astype(np.int64), b.astype(np.int32),
                             l.astype(np.int8), l.astype(np.int32),
                             bits_i1(i), bits_i1(b), z.astype(np.int32),
                             z.astype(np.int64), z.astype(np.int8),
                             bits_i1(l))),
    Case("cast_f16_int",
         [f16([-2.7, -0.5, 0.5, 2.5, -100.25, 0.0, -0.0, 1000.5]),
          np.array([0, 1, -1, 2049, 65504, 70000, -3, 100], dtype=np.int32),
          np.array([True, False, True, True, False, False, True, False]),
          np.array([-128, -1, 0, 1, 2, 127, -2, 64], dtype=np.int8)],
         lambda h, i, z, b: (np.trunc(h).astype(np.int32),
                             np.trunc(h).astype(np.int64), h != 0,
                             i.astype(np.float16), z.astype(np.float16),
                             b.astype(np.float16), h.astype(np.float64))),
    Case("cast_rounding",
         [f32([1 + 2 ** -10, 1 + 2 ** -11, 1 + 3 * 2 ** -11, 65504, 65520,
               1e-8, 6e-5, -2.5, NAN, -INF])],
         lambda x: (x.astype(np.float16), to_bf16_f32(x))),

    # -- fusion, folding, model boundary --------------------------------------
    Case("fusion_add_relu", lambda rng: [randn(rng, 4, 8), randn(rng, 8)],
         lambda x, b: np.maximum(x + b, f32(0))),
    Case("folded_unary", [],
         lambda: (f32([NAN, 0, 0, 2.5]), f32([NAN, 0, 0, 2.5]),
                  f32([NAN, 0.2, 0.5, 1.0]), f32([NAN, -1, 0, 1]),
                  f32([NAN, -1, 0, 1]), np.array([False, False, True, True]),
                  np.array([-3, -3, -2, 1], dtype=np.int32))),
    Case("clip_int_folded", [],
         lambda: (np.array([-5, 0, 100], dtype=np.int8),
                  np.array([3, 3, 3, 3, 3], dtype=np.int32),
                  np.array([2 ** 63 - 1, -(2 ** 63) + 1], dtype=np.int64))),
    Case("named_io",
         lambda rng: {"x": randn(rng, 3), "bias": randn(rng, 3)},
         lambda x, b: (x + b, x * b), out_names=["sum", "logits_0"]),

    # -- negative cases: kilnc rejects bad inputs with exit code 2 -------------
    Case("named_io", name="reject_wrong_shape",
         inputs={"x": f32([1, 2, 3, 4]), "bias": f32([1, 2, 3])},
         expect_rc=2, expect_err="x"),
    Case("named_io", name="reject_wrong_dtype",
         inputs={"x": f64([1, 2, 3]), "bias": f32([1, 2, 3])},
         expect_rc=2, expect_err="kilnc: error:"),
    Case("named_io", name="reject_missing_input",
         inputs={"x": f32([1, 2, 3])},
         expect_rc=2, expect_err="missing --input bias"),
    Case("fusion_add_relu", name="reject_fortran_order",
         inputs=lambda rng: [np.asfortranarray(randn(rng, 4, 8)),
                             randn(rng, 8)],
         expect_rc=2, expect_err="Fortran-ordered"),
    Case("named_io", name="reject_big_endian",
         inputs={"x": f32([1, 2, 3]), "bias": f32([1, 2, 3]).astype(">f4")},
         expect_rc=2, expect_err="unsupported .npy dtype"),
    Case("named_io", name="reject_unknown_input",
         inputs={"x": f32([1, 2, 3]), "bias": f32([1, 2, 3]),
                 "arg1": f32([1, 2, 3])},
         expect_rc=2, expect_err="no input named 'arg1'"),
]
