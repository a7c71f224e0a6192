//===- CublasLt.h - cuBLASLt SGEMM, loaded at run time ------------*- C++
//-*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The GEMM yardstick of the GPU check: cuBLASLt's fp32 GEMM on the same
// GPU, loaded with dlopen (absent libraries are reported, not fatal). It is
// timed the way Kiln is: CUDA events around replays of a captured graph.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_KILN_GPU_CHECK_CUBLASLT_H
#define KILN_TOOLS_KILN_GPU_CHECK_CUBLASLT_H

#include "kiln/runtime/Status.h"

#include <cstdint>
#include <vector>

namespace kiln::gpucheck {

struct CublasLtGemm {
  /// Device milliseconds per GEMM, mean over the timed graph replays.
  double ms = 0;
  /// C = A * B, row-major [m, n], from the first (untimed) call: an
  /// independent result to compare Kiln's GEMM with.
  std::vector<float> c;
};

/// Runs C[m,n] = A[m,k] * B[k,n] (row-major fp32 on the host) through
/// cuBLASLt with its default heuristic on the current CUDA context, then
/// times `iterations` calls captured in one CUDA graph. With `tf32`,
/// cuBLASLt may round the inputs to TF32 (one tensor-core pass: faster,
/// about 2^-11 relative error, where Kiln's 3xTF32 keeps fp32 accuracy).
/// Every CUDA and cuBLASLt call is checked; the error names the call.
rt::StatusOr<CublasLtGemm> runCublasLtSgemm(int64_t m, int64_t n, int64_t k,
                                            const std::vector<float> &a,
                                            const std::vector<float> &b,
                                            int iterations, bool tf32 = false);

} // namespace kiln::gpucheck

#endif // KILN_TOOLS_KILN_GPU_CHECK_CUBLASLT_H
