//===- LoweringUtils.h - Building blocks for kiln -> linalg ----*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Every kiln op lowers to one or a few linalg.generic ops on tensors. These
// helpers build the recurring pieces (broadcast indexing maps, initialised
// outputs, elementwise and reduction generics, reshapes) so that each
// pattern reads as the op's definition.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_CONVERSION_GRAPHTOLINALG_LOWERINGUTILS_H
#define KILN_COMPILER_CONVERSION_GRAPHTOLINALG_LOWERINGUTILS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

namespace kiln::compiler::lowering {

/// Body of a generic: gets the block arguments (inputs then outputs) and
/// returns the values to yield.
using BodyFn = llvm::function_ref<llvm::SmallVector<mlir::Value>(
    mlir::OpBuilder &, mlir::Location, mlir::ValueRange)>;

/// Body computing one value from the scalar inputs.
using ScalarFn = llvm::function_ref<mlir::Value(mlir::OpBuilder &,
                                                mlir::Location,
                                                mlir::ValueRange)>;

/// A scalar constant of `type` (float or integer) with `value`; integers
/// truncate toward zero and saturate to the type's range.
mlir::Value scalarConstant(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Type type, double value);

/// The lowest (for max) or highest (for min) value of `type`; infinities for
/// floats.
mlir::Value lowestValue(mlir::OpBuilder &b, mlir::Location loc, mlir::Type type);
mlir::Value highestValue(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::Type type);

/// An uninitialised tensor of `type`.
mlir::Value emptyTensor(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::RankedTensorType type);

/// A tensor of `type` with every element `scalar`.
mlir::Value filledTensor(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::RankedTensorType type, mlir::Value scalar);

/// Indexing map of an operand of `operandShape` read inside loops over
/// `resultShape`, with NumPy broadcasting (size-1 and missing leading
/// dimensions read index 0).
mlir::AffineMap broadcastMap(mlir::MLIRContext *context,
                             llvm::ArrayRef<int64_t> operandShape,
                             llvm::ArrayRef<int64_t> resultShape);

/// A linalg.generic; returns its results.
llvm::SmallVector<mlir::Value>
buildGeneric(mlir::OpBuilder &b, mlir::Location loc, mlir::TypeRange resultTypes,
             mlir::ValueRange inputs, mlir::ValueRange outputs,
             llvm::ArrayRef<mlir::AffineMap> maps,
             llvm::ArrayRef<mlir::utils::IteratorType> iterators, BodyFn body);

/// An elementwise generic over `inputs` broadcast to `resultType`.
mlir::Value buildElementwise(mlir::OpBuilder &b, mlir::Location loc,
                             mlir::RankedTensorType resultType,
                             mlir::ValueRange inputs, ScalarFn body);

/// Reduces `input` over the (normalised) `axes` into `resultType`, which
/// either keeps reduced dimensions as 1 or drops them. The accumulator
/// starts at `init`; `combine(acc, x)` gives the next one.
mlir::Value buildReduction(
    mlir::OpBuilder &b, mlir::Location loc, mlir::Value input,
    llvm::ArrayRef<int64_t> axes, mlir::RankedTensorType resultType,
    mlir::Value init,
    llvm::function_ref<mlir::Value(mlir::OpBuilder &, mlir::Location,
                                   mlir::Value acc, mlir::Value x)>
        combine);

/// `input` with its dimensions permuted: result dimension k is input
/// dimension `permutation[k]` (kiln.transpose's convention), as a copying
/// linalg.generic.
mlir::Value transposeTensor(mlir::OpBuilder &b, mlir::Location loc,
                            mlir::Value input,
                            llvm::ArrayRef<int64_t> permutation);

/// Reshapes a static tensor into `resultType` (same element count) through
/// a collapse to 1-D and an expand, which is always legal for static shapes.
mlir::Value reshapeTensor(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Value input, mlir::RankedTensorType resultType);

/// Normalised, sorted axes.
llvm::SmallVector<int64_t> normalizeAxes(llvm::ArrayRef<int64_t> axes,
                                         int64_t rank);

/// The constant `attr`, read as `blocks` matrices [rows, columns], with
/// each matrix transposed, as a constant of `type` (as many elements):
/// result element (block, c, r) is source element (block, r, c). Null for
/// element types without a byte size.
mlir::DenseElementsAttr transposedBlocks(mlir::DenseElementsAttr attr,
                                         mlir::RankedTensorType type,
                                         int64_t blocks, int64_t rows,
                                         int64_t columns);

} // namespace kiln::compiler::lowering

#endif // KILN_COMPILER_CONVERSION_GRAPHTOLINALG_LOWERINGUTILS_H
