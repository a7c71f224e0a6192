"""Cases of emulated_kernels.mlir (run by kiln-cuda-emulate)."""

import numpy as np

from e2e import Case, as_f64, randint, randn


def F32(*arrays):
    out = tuple(np.asarray(a).astype(np.float32) for a in arrays)
    return out if len(out) > 1 else out[0]


CASES = [
    # Sums of thousands of float32 values in a tree: a larger atol than
    # the default (the reference sums in float64).
    Case("block_reduce",
         lambda rng: [randn(rng, 3, 5000), randn(rng, 2, 4100, dtype=np.float64)],
         lambda x, y: (F32(np.sum(as_f64(x), axis=1)),
                       x.max(axis=1, keepdims=True),
                       np.sum(y, axis=1)),
         atol=1e-3, rtol=1e-6),
    Case("warp_reduce",
         lambda rng: [randn(rng, 37, 100), randn(rng, 64, 33),
                      randint(rng, -1000, 1000, 9, 40)],
         lambda x, y, z: (F32(np.sum(as_f64(x), axis=1)), x.min(axis=1),
                          F32(np.mean(as_f64(y), axis=0)),
                          z.sum(axis=1, dtype=np.int32))),
    Case("warp_reduce_f16",
         lambda rng: [randn(rng, 5, 300, dtype=np.float16)],
         lambda x: x.max(axis=1)),
    Case("softmax_rows", lambda rng: [randn(rng, 37, 100, scale=3.0)],
         lambda x: F32(np.exp(as_f64(x) - as_f64(x).max(axis=-1, keepdims=True))
                       / np.exp(as_f64(x) - as_f64(x).max(axis=-1, keepdims=True))
                       .sum(axis=-1, keepdims=True))),
    Case("matmul_tiles", lambda rng: [randn(rng, 70, 130), randn(rng, 130, 90)],
         lambda a, b: F32(as_f64(a) @ as_f64(b)), atol=1e-4),
    Case("matmul_batched_tiles",
         lambda rng: [randn(rng, 3, 65, 20), randn(rng, 3, 20, 66)],
         lambda a, b: F32(as_f64(a) @ as_f64(b)), atol=1e-4),
]
