"""Latency statistics and output comparison, shared by all engines."""
import numpy as np


def batch_median(times):
    """The median of one batch, chosen as kiln-run does (upper median)."""
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, len(ordered) // 2)]


def summarize(samples):
    """median, p10 and p90 over the repetitions' samples (ms)."""
    p10, median, p90 = np.percentile(samples, [10, 50, 90])
    return {"median_ms": float(median), "p10_ms": float(p10),
            "p90_ms": float(p90), "samples_ms": [float(s) for s in samples]}


def compare(actual, expected, tol):
    """Checks |actual - expected| <= tol * (max|expected| + |expected|).

    A relative bound scaled by the output's magnitude: deep models (ResNet,
    BERT) sum thousands of products, which engines order differently.
    """
    result = {"shape_ok": actual.shape == expected.shape and
              actual.dtype == expected.dtype}
    if not result["shape_ok"]:
        result.update(ok=False, detail=f"got {actual.dtype}{actual.shape}, "
                      f"expected {expected.dtype}{expected.shape}")
        return result
    if expected.size == 0:
        result.update(ok=True, max_abs_error=0.0, max_abs_reference=0.0)
        return result
    a, e = actual.astype(np.float64), expected.astype(np.float64)
    finite = np.isfinite(e)
    error = np.abs(a - e)
    scale = float(np.max(np.abs(e[finite]))) if finite.any() else 0.0
    within = error[finite] <= tol * (scale + np.abs(e[finite]))
    same_specials = bool(np.all(np.isfinite(a) == finite)) and bool(
        np.all(a[~finite] == e[~finite]))
    result.update(ok=bool(np.all(within)) and same_specials,
                  max_abs_error=float(np.max(error[finite]))
                  if finite.any() else 0.0,
                  max_abs_reference=scale)
    return result
