//===- CublasLt.h - cuBLASLt SGEMM timing, loaded at run time ----*- C++
//-*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The GEMM yardstick of the GPU check: cuBLASLt's fp32 GEMM on the same
// GPU, loaded with dlopen (absent libraries are reported, not fatal).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_KILN_GPU_CHECK_CUBLASLT_H
#define KILN_TOOLS_KILN_GPU_CHECK_CUBLASLT_H

#include "kiln/runtime/Status.h"

#include <cstdint>

namespace kiln::gpucheck {

/// Milliseconds per m x n x k fp32 GEMM (mean of `iterations`) through
/// cuBLASLt with its default heuristic, on the current CUDA context. With
/// `tf32`, cuBLASLt may round the inputs to TF32 (one tensor-core pass:
/// faster, about 2^-11 relative error, where Kiln's 3xTF32 keeps fp32
/// accuracy).
rt::StatusOr<double> timeCublasLtSgemm(int64_t m, int64_t n, int64_t k,
                                       int iterations, bool tf32 = false);

} // namespace kiln::gpucheck

#endif // KILN_TOOLS_KILN_GPU_CHECK_CUBLASLT_H
