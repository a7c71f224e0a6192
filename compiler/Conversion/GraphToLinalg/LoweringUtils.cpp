//===- LoweringUtils.cpp - Building blocks for kiln -> linalg -------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "compiler/Conversion/GraphToLinalg/LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/APSInt.h"
#include "llvm/ADT/STLExtras.h"

#include <cstring>

using namespace mlir;

namespace kiln::compiler::lowering {

Value scalarConstant(OpBuilder &b, Location loc, Type type, double value) {
  if (auto floatType = dyn_cast<FloatType>(type))
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(floatType, value));
  // Saturate rather than wrap (and never convert an out-of-range double to
  // int64_t, which is undefined); i1 is 0 or 1.
  unsigned width = type.getIntOrFloatBitWidth();
  llvm::APSInt result(width, /*isUnsigned=*/width == 1);
  bool exact = false;
  APFloat(value).convertToInteger(result, APFloat::rmTowardZero, &exact);
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, result));
}

Value lowestValue(OpBuilder &b, Location loc, Type type) {
  if (auto floatType = dyn_cast<FloatType>(type))
    return arith::ConstantOp::create(
        b, loc,
        b.getFloatAttr(floatType, APFloat::getInf(
                                      floatType.getFloatSemantics(), true)));
  unsigned width = type.getIntOrFloatBitWidth();
  APInt lowest = width == 1 ? APInt::getZero(1) : APInt::getSignedMinValue(width);
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, lowest));
}

Value highestValue(OpBuilder &b, Location loc, Type type) {
  if (auto floatType = dyn_cast<FloatType>(type))
    return arith::ConstantOp::create(
        b, loc,
        b.getFloatAttr(floatType, APFloat::getInf(
                                      floatType.getFloatSemantics(), false)));
  unsigned width = type.getIntOrFloatBitWidth();
  APInt highest =
      width == 1 ? APInt::getAllOnes(1) : APInt::getSignedMaxValue(width);
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, highest));
}

Value emptyTensor(OpBuilder &b, Location loc, RankedTensorType type) {
  return tensor::EmptyOp::create(b, loc, type.getShape(),
                                 type.getElementType());
}

Value filledTensor(OpBuilder &b, Location loc, RankedTensorType type,
                   Value scalar) {
  Value empty = emptyTensor(b, loc, type);
  return linalg::FillOp::create(b, loc, ValueRange{scalar}, ValueRange{empty})
      .getResult(0);
}

AffineMap broadcastMap(MLIRContext *context, ArrayRef<int64_t> operandShape,
                       ArrayRef<int64_t> resultShape) {
  size_t offset = resultShape.size() - operandShape.size();
  SmallVector<AffineExpr> exprs;
  for (auto [d, size] : llvm::enumerate(operandShape)) {
    bool broadcast = size == 1 && resultShape[offset + d] != 1;
    exprs.push_back(broadcast ? getAffineConstantExpr(0, context)
                              : getAffineDimExpr(offset + d, context));
  }
  return AffineMap::get(resultShape.size(), 0, exprs, context);
}

SmallVector<Value> buildGeneric(OpBuilder &b, Location loc,
                                TypeRange resultTypes, ValueRange inputs,
                                ValueRange outputs, ArrayRef<AffineMap> maps,
                                ArrayRef<utils::IteratorType> iterators,
                                BodyFn body) {
  auto generic = linalg::GenericOp::create(
      b, loc, resultTypes, inputs, outputs, maps, iterators,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        linalg::YieldOp::create(nested, nestedLoc,
                                body(nested, nestedLoc, args));
      });
  return SmallVector<Value>(generic.getResults().begin(),
                            generic.getResults().end());
}

Value buildElementwise(OpBuilder &b, Location loc, RankedTensorType resultType,
                       ValueRange inputs, ScalarFn body) {
  MLIRContext *context = b.getContext();
  SmallVector<AffineMap> maps;
  for (Value input : inputs)
    maps.push_back(broadcastMap(
        context, cast<RankedTensorType>(input.getType()).getShape(),
        resultType.getShape()));
  maps.push_back(AffineMap::getMultiDimIdentityMap(resultType.getRank(),
                                                   context));
  SmallVector<utils::IteratorType> iterators(resultType.getRank(),
                                             utils::IteratorType::parallel);
  return buildGeneric(b, loc, resultType, inputs,
                      emptyTensor(b, loc, resultType), maps, iterators,
                      [&](OpBuilder &nested, Location nestedLoc,
                          ValueRange args) -> SmallVector<Value> {
                        return {body(nested, nestedLoc, args.drop_back())};
                      })
      .front();
}

Value buildReduction(
    OpBuilder &b, Location loc, Value input, ArrayRef<int64_t> axes,
    RankedTensorType resultType, Value init,
    llvm::function_ref<Value(OpBuilder &, Location, Value, Value)> combine) {
  MLIRContext *context = b.getContext();
  auto inputType = cast<RankedTensorType>(input.getType());
  int64_t rank = inputType.getRank();
  bool keepDims = resultType.getRank() == rank;
  SmallVector<AffineExpr> outputExprs;
  SmallVector<utils::IteratorType> iterators;
  for (int64_t d = 0; d < rank; ++d) {
    bool reduced = llvm::is_contained(axes, d);
    iterators.push_back(reduced ? utils::IteratorType::reduction
                                : utils::IteratorType::parallel);
    if (!reduced)
      outputExprs.push_back(getAffineDimExpr(d, context));
    else if (keepDims)
      outputExprs.push_back(getAffineConstantExpr(0, context));
  }
  SmallVector<AffineMap> maps = {
      AffineMap::getMultiDimIdentityMap(rank, context),
      AffineMap::get(rank, 0, outputExprs, context)};
  Value accumulator = filledTensor(b, loc, resultType, init);
  return buildGeneric(b, loc, resultType, input, accumulator, maps, iterators,
                      [&](OpBuilder &nested, Location nestedLoc,
                          ValueRange args) -> SmallVector<Value> {
                        return {combine(nested, nestedLoc, args[1], args[0])};
                      })
      .front();
}

Value transposeTensor(OpBuilder &b, Location loc, Value input,
                      ArrayRef<int64_t> permutation) {
  MLIRContext *context = b.getContext();
  auto inputType = cast<RankedTensorType>(input.getType());
  int64_t rank = permutation.size();
  // result[i...] = input[j...] with j[permutation[k]] = i[k].
  SmallVector<AffineExpr> inputExprs(rank);
  SmallVector<int64_t> shape(rank);
  for (int64_t k = 0; k < rank; ++k) {
    inputExprs[permutation[k]] = getAffineDimExpr(k, context);
    shape[k] = inputType.getDimSize(permutation[k]);
  }
  auto resultType = RankedTensorType::get(shape, inputType.getElementType());
  SmallVector<AffineMap> maps = {
      AffineMap::get(rank, 0, inputExprs, context),
      AffineMap::getMultiDimIdentityMap(rank, context)};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  return buildGeneric(b, loc, resultType, input,
                      emptyTensor(b, loc, resultType), maps, iterators,
                      [](OpBuilder &, Location,
                         ValueRange args) -> SmallVector<Value> {
                        return {args[0]};
                      })[0];
}

Value reshapeTensor(OpBuilder &b, Location loc, Value input,
                    RankedTensorType resultType) {
  auto inputType = cast<RankedTensorType>(input.getType());
  if (inputType == resultType)
    return input;
  // Collapse everything into one dimension (or none for a scalar), then
  // expand into the result shape.
  auto flatType = RankedTensorType::get({inputType.getNumElements()},
                                        inputType.getElementType());
  Value flat = input;
  if (inputType.getRank() == 0) {
    flat = tensor::ExpandShapeOp::create(b, loc, flatType, input,
                                         ArrayRef<ReassociationIndices>{});
  } else if (inputType.getRank() > 1) {
    ReassociationIndices all =
        llvm::to_vector(llvm::seq<int64_t>(0, inputType.getRank()));
    flat = tensor::CollapseShapeOp::create(b, loc, flatType, input,
                                           ArrayRef<ReassociationIndices>{all});
  }
  if (resultType.getRank() == 1)
    return flat;
  SmallVector<ReassociationIndices> all;
  if (resultType.getRank() > 0)
    all.push_back(llvm::to_vector(llvm::seq<int64_t>(0, resultType.getRank())));
  if (resultType.getRank() == 0)
    return tensor::CollapseShapeOp::create(b, loc, resultType, flat, all);
  return tensor::ExpandShapeOp::create(b, loc, resultType, flat, all);
}

SmallVector<int64_t> normalizeAxes(ArrayRef<int64_t> axes, int64_t rank) {
  SmallVector<int64_t> normalized;
  for (int64_t axis : axes)
    normalized.push_back(axis < 0 ? axis + rank : axis);
  llvm::sort(normalized);
  return normalized;
}

namespace {
/// transposedBlocks for elements of `Bytes` bytes: the result is written in
/// order, each source element found by strides (no division per element:
/// a model's weights are millions of them).
/// (`bytes` a constant where the compiler can see it: a copy of 4 bytes is
/// one move, one of `bytes` bytes a call.)
template <size_t Bytes>
void transposeBlocks(const char *source, char *result, int64_t blocks,
                     int64_t rows, int64_t columns, size_t bytes = Bytes) {
  for (int64_t block = 0; block < blocks; ++block) {
    const char *matrix = source + block * rows * columns * bytes;
    for (int64_t c = 0; c < columns; ++c)
      for (int64_t r = 0; r < rows; ++r, result += bytes)
        std::memcpy(result, matrix + (r * columns + c) * bytes,
                    Bytes ? Bytes : bytes);
  }
}
} // namespace

DenseElementsAttr transposedBlocks(DenseElementsAttr attr,
                                   RankedTensorType type, int64_t blocks,
                                   int64_t rows, int64_t columns) {
  assert(blocks * rows * columns == type.getNumElements() &&
         "the blocks must cover the constant");
  if (attr.isSplat())
    return attr.reshape(type);
  Type element = type.getElementType();
  if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() % 8 != 0)
    return {};
  ArrayRef<char> raw = attr.getRawData();
  std::vector<char> result(raw.size());
  switch (element.getIntOrFloatBitWidth() / 8) {
  case 1:
    transposeBlocks<1>(raw.data(), result.data(), blocks, rows, columns);
    break;
  case 2:
    transposeBlocks<2>(raw.data(), result.data(), blocks, rows, columns);
    break;
  case 4:
    transposeBlocks<4>(raw.data(), result.data(), blocks, rows, columns);
    break;
  case 8:
    transposeBlocks<8>(raw.data(), result.data(), blocks, rows, columns);
    break;
  default:
    transposeBlocks<0>(raw.data(), result.data(), blocks, rows, columns,
                       element.getIntOrFloatBitWidth() / 8);
  }
  return DenseElementsAttr::getFromRawBuffer(type, result);
}

} // namespace kiln::compiler::lowering
