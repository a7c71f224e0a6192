//===- TypeInference.h - Shape and type rules of kiln ops -------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The one place where the shape rules of the kiln ops are written down. The
// op verifiers (through InferTypeOpInterface), the builders and the ONNX
// importer all call these functions, so a rule cannot drift between them.
//
// Each `infer*` function reports problems through `emitOptionalError`: with a
// location it emits a diagnostic there, without one it fails silently (the
// caller is probing).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_GRAPH_IR_TYPEINFERENCE_H
#define KILN_DIALECTS_GRAPH_IR_TYPEINFERENCE_H

#include "dialects/Graph/IR/GraphEnums.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/TypeRange.h"
#include "mlir/IR/ValueRange.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <optional>

namespace kiln {

using OptionalLoc = std::optional<mlir::Location>;
using InferredTypes = llvm::SmallVectorImpl<mlir::Type>;

//===----------------------------------------------------------------------===//
// Pure shape arithmetic (no IR), shared with the importer and unit tests.
//===----------------------------------------------------------------------===//

/// NumPy broadcast of two shapes; nullopt when they are incompatible.
std::optional<llvm::SmallVector<int64_t>>
broadcastShapes(llvm::ArrayRef<int64_t> lhs, llvm::ArrayRef<int64_t> rhs);

/// Whether `from` broadcasts to exactly `to` (NumPy rules, one direction).
bool isBroadcastableTo(llvm::ArrayRef<int64_t> from, llvm::ArrayRef<int64_t> to);

/// Maps `axis` in `[-rank, rank)` to `[0, rank)`; nullopt when out of range.
std::optional<int64_t> normalizeAxis(int64_t axis, int64_t rank);

/// Product of the dimensions; nullopt on a negative dimension or overflow.
std::optional<int64_t> checkedElementCount(llvm::ArrayRef<int64_t> shape);

/// Output length of a sliding window (convolution and pooling). Returns a
/// value <= 0 when the window does not fit.
int64_t windowOutputSize(int64_t inputSize, int64_t kernelSize, int64_t stride,
                         int64_t padBegin, int64_t padEnd, int64_t dilation,
                         bool ceilMode);

/// Number of elements selected by `start:limit:step` (step != 0).
int64_t sliceLength(int64_t start, int64_t limit, int64_t step);

//===----------------------------------------------------------------------===//
// Result types of ops
//===----------------------------------------------------------------------===//

/// The result has the operand's type.
llvm::LogicalResult inferSameAsOperand(mlir::Value input,
                                       InferredTypes &inferred);

/// The result has the input's type; `axis` must be a valid axis of it.
llvm::LogicalResult inferSameAsOperandWithAxis(OptionalLoc loc,
                                               mlir::Type input, int64_t axis,
                                               InferredTypes &inferred);

/// Broadcasting elementwise op: operands share an element type; the result
/// has the broadcast shape and `resultElement` (or the operands' element
/// type when null).
llvm::LogicalResult inferBroadcastElementwise(OptionalLoc loc,
                                              mlir::ValueRange operands,
                                              mlir::Type resultElement,
                                              InferredTypes &inferred);

llvm::LogicalResult inferSelect(OptionalLoc loc, mlir::Type condition,
                                mlir::Type onTrue, mlir::Type onFalse,
                                InferredTypes &inferred);

llvm::LogicalResult inferMatmul(OptionalLoc loc, mlir::Type lhs,
                                mlir::Type rhs, InferredTypes &inferred);

/// f32 [B..., M, K] x (i8 [K, N] weights, f32 [ceil(K/group), N] scales).
llvm::LogicalResult inferWeightOnlyMatmul(OptionalLoc loc, mlir::Type lhs,
                                          mlir::Type weights, mlir::Type scales,
                                          int64_t bits, int64_t group,
                                          InferredTypes &inferred);

/// `c` may be null (no bias).
llvm::LogicalResult inferGemm(OptionalLoc loc, mlir::Type a, mlir::Type b,
                              mlir::Type c, bool transA, bool transB,
                              InferredTypes &inferred);

/// `bias` may be null.
llvm::LogicalResult inferConv2d(OptionalLoc loc, mlir::Type input,
                                mlir::Type weight, mlir::Type bias,
                                llvm::ArrayRef<int64_t> strides,
                                llvm::ArrayRef<int64_t> pads,
                                llvm::ArrayRef<int64_t> dilations,
                                int64_t groups, InferredTypes &inferred);

llvm::LogicalResult inferPool2d(OptionalLoc loc, mlir::Type input,
                                llvm::ArrayRef<int64_t> kernelShape,
                                llvm::ArrayRef<int64_t> strides,
                                llvm::ArrayRef<int64_t> pads,
                                llvm::ArrayRef<int64_t> dilations,
                                bool ceilMode, InferredTypes &inferred);

llvm::LogicalResult inferGlobalPool(OptionalLoc loc, mlir::Type input,
                                    InferredTypes &inferred);

/// `bias` may be null.
llvm::LogicalResult inferLayerNorm(OptionalLoc loc, mlir::Type input,
                                   mlir::Type scale, mlir::Type bias,
                                   int64_t axis, InferredTypes &inferred);

/// Operands: input, scale, bias, mean, variance.
llvm::LogicalResult inferBatchNorm(OptionalLoc loc, mlir::ValueRange operands,
                                   InferredTypes &inferred);

llvm::LogicalResult inferReduce(OptionalLoc loc, mlir::Type input,
                                llvm::ArrayRef<int64_t> axes, bool keepDims,
                                InferredTypes &inferred);

llvm::LogicalResult inferArgReduce(OptionalLoc loc, mlir::Type input,
                                   int64_t axis, bool keepDims,
                                   InferredTypes &inferred);

llvm::LogicalResult inferTranspose(OptionalLoc loc, mlir::Type input,
                                   llvm::ArrayRef<int64_t> permutation,
                                   InferredTypes &inferred);

llvm::LogicalResult inferConcat(OptionalLoc loc, mlir::TypeRange inputs,
                                int64_t axis, InferredTypes &inferred);

llvm::LogicalResult inferSlice(OptionalLoc loc, mlir::Type input,
                               llvm::ArrayRef<int64_t> starts,
                               llvm::ArrayRef<int64_t> limits,
                               llvm::ArrayRef<int64_t> steps,
                               InferredTypes &inferred);

llvm::LogicalResult inferGather(OptionalLoc loc, mlir::Type input,
                                mlir::Type indices, int64_t axis,
                                InferredTypes &inferred);

llvm::LogicalResult inferPad(OptionalLoc loc, mlir::Type input,
                             llvm::ArrayRef<int64_t> low,
                             llvm::ArrayRef<int64_t> high, PadMode mode,
                             InferredTypes &inferred);

} // namespace kiln

#endif // KILN_DIALECTS_GRAPH_IR_TYPEINFERENCE_H
