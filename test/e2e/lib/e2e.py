"""Helpers shared by the end-to-end case files (test/e2e/*/*_cases.py).

A case file defines ``CASES``, a list of :class:`Case`. Each case names one
public function of the model, how to build its inputs (a function of a seeded
``numpy.random.Generator``) and a NumPy reference written from the op
documentation (dialects/Graph/IR/Graph*Ops.td), *not* from Kiln's lowering.

check_e2e.py runs ``kilnc run --entry <fn>`` on the inputs and compares every
output with the reference:

* float32: ``|actual - expected| <= atol + rtol * |expected|`` with
  rtol 1e-4, atol 1e-5 (the defaults below);
* float16: rtol 1e-2, atol 1e-3 (one f16 ulp is ~1e-3 relative);
* float64: rtol 1e-10, atol 1e-12;
* integers and booleans: exact equality;
* for floats, NaN positions must match and infinities must match exactly.

Shapes and dtypes must match exactly: a reference returns arrays of the
function's result types (compute in float64, then ``.astype``).
"""

import numpy as np

DEFAULT_TOLERANCES = {
    np.dtype(np.float32): (1e-4, 1e-5),
    np.dtype(np.float16): (1e-2, 1e-3),
    np.dtype(np.float64): (1e-10, 1e-12),
}


class Case:
    """One end-to-end check of one model function.

    fn          function name in the model (passed as --entry).
    inputs      callable(rng) -> list of arrays (named arg0, arg1, ... in
                order) or dict {input name: array}; or a list/dict directly.
    ref         callable(*inputs) -> array or tuple of arrays (the expected
                outputs in result order); None for negative cases.
    seed        seed of the numpy Generator handed to `inputs`.
    rtol, atol  override the per-dtype tolerances (document why!).
    out_names   output file stems (default result0, result1, ...).
    expect_rc   expected kilnc exit code (default 0).
    expect_err  substring expected on kilnc's stderr (negative cases).
    name        label printed in PASS/FAIL lines (default: fn). Several cases
                may run the same function with different inputs.
    """

    def __init__(self, fn, inputs=None, ref=None, *, seed=0, rtol=None,
                 atol=None, out_names=None, expect_rc=0, expect_err=None,
                 name=None):
        self.fn = fn
        self.inputs = inputs if inputs is not None else []
        self.ref = ref
        self.seed = seed
        self.rtol = rtol
        self.atol = atol
        self.out_names = out_names
        self.expect_rc = expect_rc
        self.expect_err = expect_err
        self.name = name or fn

    def make_inputs(self):
        rng = np.random.default_rng(self.seed)
        data = self.inputs(rng) if callable(self.inputs) else self.inputs
        if isinstance(data, np.ndarray):
            data = [data]
        if isinstance(data, dict):
            return dict(data)
        return {"arg%d" % i: a for i, a in enumerate(data)}


# ----------------------------------------------------------------------------
# Input generators
# ----------------------------------------------------------------------------

def randn(rng, *shape, dtype=np.float32, scale=1.0):
    return (rng.standard_normal(shape) * scale).astype(dtype)


def uniform(rng, lo, hi, *shape, dtype=np.float32):
    return rng.uniform(lo, hi, size=shape).astype(dtype)


def randint(rng, lo, hi, *shape, dtype=np.int32):
    """Integers in [lo, hi)."""
    return rng.integers(lo, hi, size=shape).astype(dtype)


def randbool(rng, *shape):
    return rng.integers(0, 2, size=shape).astype(np.bool_)


def f32(x):
    return np.asarray(x, dtype=np.float32)


def f16(x):
    return np.asarray(x, dtype=np.float16)


def f64(x):
    return np.asarray(x, dtype=np.float64)


def as_f64(*arrays):
    """Inputs promoted to float64 for an accurate reference."""
    out = tuple(np.asarray(a).astype(np.float64) for a in arrays)
    return out if len(out) > 1 else out[0]
