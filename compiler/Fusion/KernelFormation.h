//===- KernelFormation.h - Which loop nests run as one kernel ---*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// What kiln-form-kernels records and both backends read: ops of one kernel
// share a `kiln.kernel` number (and ops of one fusion group a `kiln.group`
// name). The predicates are the pass's rules, exported so that a backend's
// contract check agrees with them by construction.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_FUSION_KERNELFORMATION_H
#define KILN_COMPILER_FUSION_KERNELFORMATION_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <optional>

namespace kiln::compiler {

/// The fusion group of a lowered op (set by kiln-fuse-group-loops).
inline constexpr char kGroupAttr[] = "kiln.group";
/// The kernel of a lowered op on buffers (set by kiln-form-kernels).
inline constexpr char kKernelAttr[] = "kiln.kernel";

std::optional<int64_t> kernelOf(mlir::Operation *op);

/// The buffer a fill writes and the constant it writes, when `op` is a
/// linalg.fill or its generic form with a constant value.
struct FillInfo {
  mlir::Value target;
  mlir::Value value;
};
std::optional<FillInfo> asConstantFill(mlir::Operation *op);

/// A contraction with M, N and K loops, two inputs, one output and one
/// element type: what a tiled GEMM kernel computes, and so what may take
/// an epilogue.
bool isMatmulLike(mlir::linalg::LinalgOp op);

} // namespace kiln::compiler

#endif // KILN_COMPILER_FUSION_KERNELFORMATION_H
