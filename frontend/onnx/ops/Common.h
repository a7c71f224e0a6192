//===- Common.h - Helpers shared by the ONNX converters ---------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Converters build kiln ops with result types computed first by the shared
// shape rules (dialects/Graph/IR/TypeInference.h), which report a mismatch
// at the node. (The inferring builders would abort on a bad model instead.)
//
//===----------------------------------------------------------------------===//

#ifndef KILN_FRONTEND_ONNX_OPS_COMMON_H
#define KILN_FRONTEND_ONNX_OPS_COMMON_H

#include "dialects/Graph/IR/GraphOps.h"
#include "frontend/onnx/ConverterRegistry.h"
#include "frontend/onnx/ImportContext.h"

namespace kiln::onnx {

/// A broadcasting elementwise op on `lhs` and `rhs` (result element type
/// `resultElement`, or the operands').
template <typename OpTy>
mlir::FailureOr<mlir::Value> buildBroadcast(ImportContext &ctx, mlir::Value lhs,
                                            mlir::Value rhs,
                                            mlir::Type resultElement = {}) {
  llvm::SmallVector<mlir::Type> types;
  if (mlir::failed(kiln::inferBroadcastElementwise(
          ctx.loc(), mlir::ValueRange{lhs, rhs}, resultElement, types)))
    return mlir::failure();
  return ctx.finish(OpTy::create(ctx.builder(), ctx.loc(), types[0], lhs, rhs));
}

/// `value` reshaped to `shape` (same element count, checked by the caller
/// or by the verifier).
mlir::Value reshapeTo(ImportContext &ctx, mlir::Value value,
                      llvm::ArrayRef<int64_t> shape);

/// `value` converted to `element`.
mlir::Value castTo(ImportContext &ctx, mlir::Value value, mlir::Type element);

/// `axis` in [0, rank), or an error at the node.
mlir::FailureOr<int64_t> normalizeAxisAt(ImportContext &ctx, int64_t axis,
                                         int64_t rank);

/// `value` flattened into [prod(dims before axis), prod(dims from axis)]:
/// how opset-1..12 Softmax, LogSoftmax and Hardmax see their input.
mlir::Value flattenAt(ImportContext &ctx, mlir::Value value, int64_t axis);

/// kiln.slice of `value` with kiln's bounds (negative steps walk backwards).
mlir::FailureOr<mlir::Value> sliceOf(ImportContext &ctx, mlir::Value value,
                                     llvm::ArrayRef<int64_t> starts,
                                     llvm::ArrayRef<int64_t> limits,
                                     llvm::ArrayRef<int64_t> steps);

/// kiln.transpose of `value` by `perm`.
mlir::FailureOr<mlir::Value> transposeOf(ImportContext &ctx, mlir::Value value,
                                         llvm::ArrayRef<int64_t> perm);

/// `value` padded with the constant `fill` (`value` itself when every pad
/// is zero).
mlir::FailureOr<mlir::Value> padOf(ImportContext &ctx, mlir::Value value,
                                   llvm::ArrayRef<int64_t> low,
                                   llvm::ArrayRef<int64_t> high, double fill);

/// `values` joined along `axis` (the value itself when there is one).
mlir::FailureOr<mlir::Value> concatOf(ImportContext &ctx,
                                      mlir::ValueRange values, int64_t axis);

/// `values` (of one type) stacked along a new dimension at `axis`.
mlir::FailureOr<mlir::Value> stackOf(ImportContext &ctx,
                                     mlir::ValueRange values, int64_t axis);

/// Entry `index` of `value` along `axis`, that dimension dropped.
mlir::FailureOr<mlir::Value> takeAlong(ImportContext &ctx, mlir::Value value,
                                       int64_t axis, int64_t index);

/// kiln.matmul of `lhs` and `rhs`.
mlir::FailureOr<mlir::Value> matmulOf(ImportContext &ctx, mlir::Value lhs,
                                      mlir::Value rhs);

/// A kiln reduction (ReduceSumOp, ReduceMeanOp, ...) of `value` over
/// `axes`.
template <typename OpTy>
mlir::FailureOr<mlir::Value> reduceOf(ImportContext &ctx, mlir::Value value,
                                      llvm::ArrayRef<int64_t> axes,
                                      bool keepDims) {
  llvm::SmallVector<mlir::Type> types;
  if (mlir::failed(
          kiln::inferReduce(ctx.loc(), value.getType(), axes, keepDims, types)))
    return mlir::failure();
  return ctx.finish(
      OpTy::create(ctx.builder(), ctx.loc(), types[0], value, axes, keepDims));
}

/// A scalar constant of `element` type (rank 0).
mlir::Value scalarConstant(ImportContext &ctx, mlir::Type element,
                           double value);

/// An i64 constant of `shape` holding `values` (row-major).
mlir::Value i64Constant(ImportContext &ctx, llvm::ArrayRef<int64_t> shape,
                        llvm::ArrayRef<int64_t> values);

/// 0, 1, ..., n - 1 as an i64 constant of `shape` (n elements), e.g.
/// [1, n, 1] to broadcast the positions along one axis.
mlir::Value i64Iota(ImportContext &ctx, llvm::ArrayRef<int64_t> shape);

/// kiln.conv2d of `x` and `w` (+ `bias`, may be null) with the current
/// node's Conv attributes (group, strides, pads or auto_pad, dilations,
/// kernel_shape); 1-D convolutions go through 2-D ones, 3-D ones through a
/// 2-D one over depth-stacked channels (ops/Volumetric.h).
mlir::FailureOr<mlir::Value> buildConvolution(ImportContext &ctx, mlir::Value x,
                                              mlir::Value w, mlir::Value bias);

/// Converter for ops whose only job is to forward input 0 (Identity,
/// inference-mode Dropout).
mlir::LogicalResult forwardInput(ImportContext &ctx);

} // namespace kiln::onnx

#endif // KILN_FRONTEND_ONNX_OPS_COMMON_H
