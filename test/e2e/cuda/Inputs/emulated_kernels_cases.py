"""Cases of emulated_kernels.mlir (run by kiln-cuda-emulate)."""

import numpy as np

from e2e import Case, as_f64, randint, randn


def to_bf16_f32(x):
    """Round float32 to bfloat16 (nearest, ties to even), back as float32."""
    bits = np.asarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    return rounded.astype(np.uint32).view(np.float32)


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
    # Exact products of bf16 inputs summed in f32, then one bf16 rounding:
    # within a bf16 ulp (2^-8 relative) of the f64 reference.
    Case("matmul_bf16_tiles",
         lambda rng: [randn(rng, 33, 40), randn(rng, 40, 70)],
         lambda a, b: to_bf16_f32(as_f64(to_bf16_f32(a)) @ as_f64(to_bf16_f32(b))),
         rtol=8e-3, atol=1e-2),
    Case("matmul_f64_tiles",
         lambda rng: [randn(rng, 70, 33, dtype=np.float64),
                      randn(rng, 33, 65, dtype=np.float64)],
         lambda a, b: a @ b),
]
