//===- ConstantFolding.h - Evaluating kiln ops on constants -----*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Helpers that evaluate elementwise and data-movement ops on dense constants.
// Folding is capped at kMaxFoldedElements elements (splats are always
// cheap) so that folding never turns a small graph into a huge constant.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_GRAPH_IR_CONSTANTFOLDING_H
#define KILN_DIALECTS_GRAPH_IR_CONSTANTFOLDING_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APInt.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <optional>

namespace kiln::folding {

/// Largest non-splat constant a folder may read or create.
constexpr int64_t kMaxFoldedElements = int64_t(1) << 16;

/// Whether a constant of `type` would be too large to create by folding
/// (element counts are overflow-checked: a wrapped count is "too large").
bool exceedsFoldLimit(mlir::ShapedType type);

/// `attr` as a dense constant small enough to fold, or null.
mlir::DenseElementsAttr getFoldableConstant(mlir::Attribute attr);

using FloatUnaryFn = llvm::function_ref<std::optional<llvm::APInt>(
    const llvm::APFloat &)>;
using IntUnaryFn =
    llvm::function_ref<std::optional<llvm::APInt>(const llvm::APInt &)>;
using FloatBinaryFn = llvm::function_ref<std::optional<llvm::APInt>(
    const llvm::APFloat &, const llvm::APFloat &)>;
using IntBinaryFn = llvm::function_ref<std::optional<llvm::APInt>(
    const llvm::APInt &, const llvm::APInt &)>;

/// Applies a scalar function to every element of a constant. The functions
/// return the result element's bits, or nullopt to refuse folding. A null
/// function means the op does not fold for that element kind.
mlir::Attribute foldUnary(mlir::Attribute operand, mlir::ShapedType resultType,
                          FloatUnaryFn onFloat, IntUnaryFn onInt);

/// Applies a scalar function elementwise to two constants after NumPy
/// broadcasting to `resultType`'s shape.
mlir::Attribute foldBinary(mlir::Attribute lhs, mlir::Attribute rhs,
                           mlir::ShapedType resultType, FloatBinaryFn onFloat,
                           IntBinaryFn onInt);

/// A real-valued function evaluated in double precision and rounded to the
/// element's format: the shape of most float math folders.
std::optional<llvm::APInt> applyInDouble(const llvm::APFloat &value,
                                         double (*fn)(double));

/// Rounds `value` to `semantics` and returns its bits.
llvm::APInt roundTo(double value, const llvm::fltSemantics &semantics);

/// Builds a constant of `resultType` whose element at every result position
/// is `source`'s element at `sourceIndex(resultIndex)` (a linear index).
mlir::Attribute
remapElements(mlir::DenseElementsAttr source, mlir::ShapedType resultType,
              llvm::function_ref<int64_t(llvm::ArrayRef<int64_t>)> sourceIndex);

/// Calls `fn` with every multi-index of `shape` in row-major order.
void forEachIndex(llvm::ArrayRef<int64_t> shape,
                  llvm::function_ref<void(llvm::ArrayRef<int64_t>)> fn);

/// Row-major linear index of `index` in `shape`, where dimensions of size 1
/// in a (right-aligned) lower-rank `shape` broadcast.
int64_t broadcastLinearIndex(llvm::ArrayRef<int64_t> index,
                             llvm::ArrayRef<int64_t> shape);

} // namespace kiln::folding

#endif // KILN_DIALECTS_GRAPH_IR_CONSTANTFOLDING_H
