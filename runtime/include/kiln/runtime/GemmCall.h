//===- GemmCall.h - Launches a BLAS library can run instead -------*- C++
//-*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// A compiler-generated contraction kernel is always in the artifact and
// always correct; when the contraction is a plain (batched) GEMM the
// compiler also records it as a GemmCall, so that the runtime can run it
// through a vendor library (cuBLASLt) instead, or time both on the device
// and keep the faster (docs/cuda-runtime.md, "GEMM paths"). Stored in an
// optional artifact section: readers that predate it run the kernels.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_GEMMCALL_H
#define KILN_RUNTIME_GEMMCALL_H

#include "kiln/runtime/DType.h"

#include <cstdint>
#include <optional>
#include <string>

namespace kiln::rt {

struct Program;

/// Per batch b: D[b] = epilogue(A[b] * B[b] (+ D[b] when `accumulate`)
/// (+ bias)), A m x k, B k x n, D m x n, accumulated in f32.
struct GemmCall {
  uint32_t device = 0;         ///< Index into Program::devices (a CUDA one).
  uint32_t step = 0;           ///< The kLaunchKernel step it may replace.
  DType element = DType::kF32; ///< Of A, B, D and the bias: f32, f16, bf16.
  int64_t batch = 1, m = 1, n = 1, k = 1;
  /// A matrix inside one of the step's arguments, in elements.
  struct Matrix {
    uint32_t arg = 0;   ///< Index into the step's args.
    int64_t offset = 0; ///< From the argument's first byte.
    int64_t rowStride = 0, colStride = 0, batchStride = 0;
  };
  Matrix a, b, d;
  /// D's previous contents are added (the kernel accumulates into an
  /// output an earlier step filled).
  bool accumulate = false;
  /// A bias broadcast along the rows of D (one value per column, n).
  std::optional<Matrix> bias; ///< colStride is its stride; rows unused.
  enum class Activation : uint32_t { kNone = 0, kRelu = 1, kGeluTanh = 2 };
  Activation activation = Activation::kNone;

  std::string describe() const;
};

/// Validates `call` against `program`: a CUDA launch step, arguments that
/// exist, every element it reaches inside its argument's bytes, a written
/// output. The message names what is wrong.
std::optional<std::string> checkGemmCall(const GemmCall &call,
                                         const Program &program);

} // namespace kiln::rt

#endif // KILN_RUNTIME_GEMMCALL_H
