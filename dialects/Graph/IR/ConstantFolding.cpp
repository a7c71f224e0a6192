//===- ConstantFolding.cpp - Evaluating kiln ops on constants -------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dialects/Graph/IR/ConstantFolding.h"
#include "dialects/Graph/IR/TypeInference.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using llvm::APFloat;
using llvm::APInt;

namespace kiln::folding {

bool exceedsFoldLimit(ShapedType type) {
  int64_t count = 1;
  for (int64_t dim : type.getShape())
    if (dim < 0 || llvm::MulOverflow(count, dim, count))
      return true;
  return count > kMaxFoldedElements;
}

DenseElementsAttr getFoldableConstant(Attribute attr) {
  auto dense = dyn_cast_or_null<DenseElementsAttr>(attr);
  if (!dense || (!dense.isSplat() && dense.getNumElements() > kMaxFoldedElements))
    return {};
  return dense;
}

APInt roundTo(double value, const llvm::fltSemantics &semantics) {
  APFloat result(value);
  bool losesInfo = false;
  result.convert(semantics, APFloat::rmNearestTiesToEven, &losesInfo);
  return result.bitcastToAPInt();
}

std::optional<APInt> applyInDouble(const APFloat &value, double (*fn)(double)) {
  APFloat wide = value;
  bool losesInfo = false;
  wide.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &losesInfo);
  return roundTo(fn(wide.convertToDouble()), value.getSemantics());
}

void forEachIndex(ArrayRef<int64_t> shape,
                  llvm::function_ref<void(ArrayRef<int64_t>)> fn) {
  for (int64_t dim : shape)
    if (dim == 0)
      return;
  SmallVector<int64_t> index(shape.size(), 0);
  while (true) {
    fn(index);
    int64_t d = static_cast<int64_t>(shape.size()) - 1;
    for (; d >= 0; --d) {
      if (++index[d] < shape[d])
        break;
      index[d] = 0;
    }
    if (d < 0)
      return;
  }
}

int64_t broadcastLinearIndex(ArrayRef<int64_t> index, ArrayRef<int64_t> shape) {
  size_t offset = index.size() - shape.size();
  int64_t linear = 0;
  for (size_t d = 0; d < shape.size(); ++d)
    linear = linear * shape[d] + (shape[d] == 1 ? 0 : index[offset + d]);
  return linear;
}

namespace {
/// Elements of a constant as APFloat or APInt values (a splat gives one).
template <typename T> SmallVector<T> valuesOf(DenseElementsAttr attr) {
  if (attr.isSplat())
    return {attr.getSplatValue<T>()};
  return llvm::to_vector(attr.getValues<T>());
}


/// A constant from element bits; one value makes a splat.
Attribute makeDense(ShapedType type, ArrayRef<APInt> bits) {
  auto floatType = dyn_cast<FloatType>(type.getElementType());
  if (!floatType)
    return DenseElementsAttr::get(type, bits);
  SmallVector<APFloat> values;
  values.reserve(bits.size());
  for (const APInt &value : bits)
    values.emplace_back(floatType.getFloatSemantics(), value);
  return DenseElementsAttr::get(type, values);
}
} // namespace

Attribute foldUnary(Attribute operand, ShapedType resultType,
                    FloatUnaryFn onFloat, IntUnaryFn onInt) {
  DenseElementsAttr input = getFoldableConstant(operand);
  if (!input)
    return {};
  bool isFloat = isa<FloatType>(input.getElementType());
  if ((isFloat && !onFloat) || (!isFloat && !onInt))
    return {};
  SmallVector<APInt> results;
  auto apply = [&](auto values, auto fn) {
    for (const auto &value : values) {
      std::optional<APInt> result = fn(value);
      if (!result)
        return false;
      results.push_back(*result);
    }
    return true;
  };
  bool ok = isFloat ? apply(valuesOf<APFloat>(input), onFloat)
                    : apply(valuesOf<APInt>(input), onInt);
  if (!ok)
    return {};
  return makeDense(resultType, results);
}

Attribute foldBinary(Attribute lhsAttr, Attribute rhsAttr,
                     ShapedType resultType, FloatBinaryFn onFloat,
                     IntBinaryFn onInt) {
  DenseElementsAttr lhs = getFoldableConstant(lhsAttr);
  DenseElementsAttr rhs = getFoldableConstant(rhsAttr);
  if (!lhs || !rhs)
    return {};
  bool isFloat = isa<FloatType>(lhs.getElementType());
  if ((isFloat && !onFloat) || (!isFloat && !onInt))
    return {};
  bool splat = lhs.isSplat() && rhs.isSplat();
  if (!splat && exceedsFoldLimit(resultType))
    return {};

  auto compute = [&](auto lhsValues, auto rhsValues,
                     auto fn) -> std::optional<SmallVector<APInt>> {
    SmallVector<APInt> results;
    if (splat) {
      std::optional<APInt> r = fn(lhsValues.front(), rhsValues.front());
      if (!r)
        return std::nullopt;
      results.push_back(*r);
      return results;
    }
    // Splat operands index with an all-ones shape: always element 0.
    SmallVector<int64_t> lhsShape(lhs.getType().getShape());
    SmallVector<int64_t> rhsShape(rhs.getType().getShape());
    if (lhs.isSplat())
      lhsShape.assign(lhsShape.size(), 1);
    if (rhs.isSplat())
      rhsShape.assign(rhsShape.size(), 1);
    bool failedElement = false;
    forEachIndex(resultType.getShape(), [&](ArrayRef<int64_t> index) {
      if (failedElement)
        return;
      std::optional<APInt> r =
          fn(lhsValues[broadcastLinearIndex(index, lhsShape)],
             rhsValues[broadcastLinearIndex(index, rhsShape)]);
      if (!r)
        failedElement = true;
      else
        results.push_back(*r);
    });
    if (failedElement)
      return std::nullopt;
    return results;
  };

  std::optional<SmallVector<APInt>> results =
      isFloat ? compute(valuesOf<APFloat>(lhs), valuesOf<APFloat>(rhs), onFloat)
              : compute(valuesOf<APInt>(lhs), valuesOf<APInt>(rhs), onInt);
  if (!results)
    return {};
  return makeDense(resultType, *results);
}

Attribute remapElements(DenseElementsAttr source, ShapedType resultType,
                        llvm::function_ref<int64_t(ArrayRef<int64_t>)> sourceIndex) {
  // A splat stays one value however large its shape, as long as the shape
  // itself is sound.
  if (source.isSplat() && checkedElementCount(resultType.getShape()))
    return source.resizeSplat(resultType);
  if (exceedsFoldLimit(resultType))
    return {};
  SmallVector<Attribute> values(source.getValues<Attribute>());
  SmallVector<Attribute> results;
  results.reserve(resultType.getNumElements());
  forEachIndex(resultType.getShape(), [&](ArrayRef<int64_t> index) {
    results.push_back(values[sourceIndex(index)]);
  });
  return DenseElementsAttr::get(resultType, results);
}

} // namespace kiln::folding
