"""NumPy reference implementations of Kiln's non-elementwise ops.

Written from the op descriptions in dialects/Graph/IR/Graph*Ops.td (and
ONNX/PyTorch semantics where those descriptions defer to them), in float64,
with plain loops where that is clearer than cleverness. Nothing here looks
at Kiln's lowering.
"""

import math

import numpy as np


def _f64(x):
    return np.asarray(x, dtype=np.float64)


# ----------------------------------------------------------------------------
# Contractions
# ----------------------------------------------------------------------------

def matmul(a, b):
    """[B..., M, K] x [B'..., K, N] with NumPy batch broadcasting."""
    return np.matmul(a, b)


def gemm(a, b, c=None, alpha=1.0, beta=1.0, trans_a=False, trans_b=False):
    a, b = _f64(a), _f64(b)
    if trans_a:
        a = a.T
    if trans_b:
        b = b.T
    y = alpha * (a @ b)
    if c is not None:
        y = y + beta * _f64(c)
    return y


def conv2d(x, w, bias=None, strides=(1, 1), pads=(0, 0, 0, 0),
           dilations=(1, 1), groups=1):
    """NCHW input, OIHW weight; pads = [top, left, bottom, right]."""
    x, w = _f64(x), _f64(w)
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    assert c == cg * groups and o % groups == 0
    sh, sw = strides
    dh, dw = dilations
    top, left, bottom, right = pads
    ho = (h + top + bottom - dh * (kh - 1) - 1) // sh + 1
    wo = (wd + left + right - dw * (kw - 1) - 1) // sw + 1
    xp = np.zeros((n, c, h + top + bottom, wd + left + right))
    xp[:, :, top:top + h, left:left + wd] = x
    out = np.zeros((n, o, ho, wo))
    og = o // groups
    for g in range(groups):
        for oc in range(g * og, (g + 1) * og):
            for i in range(ho):
                for j in range(wo):
                    acc = 0.0
                    for ci in range(cg):
                        for p in range(kh):
                            for q in range(kw):
                                acc += (xp[:, g * cg + ci, i * sh + p * dh,
                                           j * sw + q * dw]
                                        * w[oc, ci, p, q])
                    out[:, oc, i, j] = acc
    if bias is not None:
        out += _f64(bias).reshape(1, o, 1, 1)
    return out


# ----------------------------------------------------------------------------
# Pooling
# ----------------------------------------------------------------------------

def pool_out_size(size, k, s, d, pb, pe, ceil_mode):
    span = d * (k - 1) + 1
    if ceil_mode:
        out = -(-(size + pb + pe - span) // s) + 1
        # The last window must start inside the input or the leading
        # padding (ONNX / PyTorch rule).
        if (out - 1) * s >= size + pb:
            out -= 1
    else:
        out = (size + pb + pe - span) // s + 1
    return out


def pool2d(x, kind, kernel_shape, strides=(1, 1), pads=(0, 0, 0, 0),
           dilations=(1, 1), ceil_mode=False, count_include_pad=False):
    """max / avg pooling of NCHW `x`.

    Windows read input positions; positions in the (top/left/bottom/right)
    padding never win a max and count in an average's divisor only with
    count_include_pad. Positions beyond the padded extent (the overhang of
    ceil_mode) never count (PyTorch's rule).
    """
    x = _f64(x)
    n, c, h, w = x.shape
    kh, kw = kernel_shape
    sh, sw = strides
    dh, dw = dilations
    top, left, bottom, right = pads
    ho = pool_out_size(h, kh, sh, dh, top, bottom, ceil_mode)
    wo = pool_out_size(w, kw, sw, dw, left, right, ceil_mode)
    out = np.zeros((n, c, ho, wo))
    for i in range(ho):
        for j in range(wo):
            vals, padded = [], 0
            for p in range(kh):
                for q in range(kw):
                    r = i * sh + p * dh - top
                    s = j * sw + q * dw - left
                    if 0 <= r < h and 0 <= s < w:
                        vals.append(x[:, :, r, s])
                    elif -top <= r < h + bottom and -left <= s < w + right:
                        padded += 1
            if kind == "max":
                out[:, :, i, j] = np.max(np.stack(vals), axis=0)
            else:
                count = len(vals) + (padded if count_include_pad else 0)
                out[:, :, i, j] = np.sum(np.stack(vals), axis=0) / count
    return out


# ----------------------------------------------------------------------------
# Softmax and normalisation
# ----------------------------------------------------------------------------

def softmax(x, axis):
    x = _f64(x)
    m = np.max(x, axis=axis, keepdims=True)
    e = np.exp(x - m)
    return e / np.sum(e, axis=axis, keepdims=True)


def log_softmax(x, axis):
    x = _f64(x)
    m = np.max(x, axis=axis, keepdims=True)
    return x - m - np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True))


def layer_norm(x, scale, bias=None, axis=-1, epsilon=1e-5):
    x = _f64(x)
    axis = axis % x.ndim
    axes = tuple(range(axis, x.ndim))
    mean = np.mean(x, axis=axes, keepdims=True)
    var = np.mean((x - mean) ** 2, axis=axes, keepdims=True)
    y = (x - mean) / np.sqrt(var + epsilon) * _f64(scale)
    if bias is not None:
        y = y + _f64(bias)
    return y


def batch_norm(x, scale, bias, mean, var, epsilon=1e-5):
    x = _f64(x)
    shape = (1, x.shape[1]) + (1,) * (x.ndim - 2)
    s, b, m, v = (_f64(t).reshape(shape) for t in (scale, bias, mean, var))
    return (x - m) / np.sqrt(v + epsilon) * s + b


def gelu(x, approximate="none"):
    x = _f64(x)
    if approximate == "tanh":
        return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) *
                                      (x + 0.044715 * x ** 3)))
    erf = np.vectorize(math.erf, otypes=[np.float64])
    return 0.5 * x * (1 + erf(x / math.sqrt(2)))
