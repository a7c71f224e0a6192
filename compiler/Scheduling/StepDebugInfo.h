//===- StepDebugInfo.h - What a step computes and where it comes from -----===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The debug information both backends record on each dispatch: a location
// fused from its ops' (with their fusion group as metadata) and the
// arithmetic of its loop nests. Profiles divide the arithmetic by the time;
// numerics checks and profiles name the location's ops.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_SCHEDULING_STEPDEBUGINFO_H
#define KILN_COMPILER_SCHEDULING_STEPDEBUGINFO_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Location.h"

namespace kiln::compiler {

/// The ops' locations fused, with their fusion group (`kiln.group`) as
/// metadata when every loop nest among them has the same one.
mlir::Location stepSourceLoc(mlir::MLIRContext *context,
                             llvm::ArrayRef<mlir::Operation *> ops);

/// Points of `op`'s iteration space.
int64_t loopIterations(mlir::linalg::LinalgOp op);

/// Iterations times the arith/math operations of each loop nest's body
/// (a GEMM: 2 M N K); other ops count nothing.
int64_t loopNestFlops(llvm::ArrayRef<mlir::Operation *> ops);

} // namespace kiln::compiler

#endif // KILN_COMPILER_SCHEDULING_STEPDEBUGINFO_H
