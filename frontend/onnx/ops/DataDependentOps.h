//===- DataDependentOps.h - Shared by the data-dependent converters -*- C++
//-*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Helpers of the converters whose output length depends on the data
// (DataDependentOps.cpp, NonMaxSuppressionOps.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_FRONTEND_ONNX_OPS_DATADEPENDENTOPS_H
#define KILN_FRONTEND_ONNX_OPS_DATADEPENDENTOPS_H

#include "frontend/onnx/ops/Common.h"

namespace kiln::onnx {

int64_t numElementsOf(mlir::Value value);

/// kiln.gather of `indices` along `axis` of `table` (null on failure or a
/// null operand).
mlir::Value gatherRows(ImportContext &ctx, mlir::Value table,
                       mlir::Value indices, int64_t axis);

/// Sums `x` (i1 or i64) over `axis` as i64, dropping the axis.
mlir::Value countOver(ImportContext &ctx, mlir::Value x, int64_t axis);

/// The kept positions of a 1-D i64 0/1 mask.
struct Compaction {
  mlir::Value positions; ///< [n] i64: slot k holds the k-th kept position
                         ///< (k < count); later slots hold 0.
  mlir::Value inRange;   ///< [n] i1: slot k < count.
  mlir::Value count;     ///< i64 scalar.
};
mlir::FailureOr<Compaction> compact(ImportContext &ctx, mlir::Value mask);

mlir::LogicalResult convertNonMaxSuppression(ImportContext &ctx);

} // namespace kiln::onnx

#endif // KILN_FRONTEND_ONNX_OPS_DATADEPENDENTOPS_H
