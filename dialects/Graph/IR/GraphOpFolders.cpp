//===- GraphOpFolders.cpp - Folders of kiln ops ---------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Two kinds of folds: identities (x + -0.0, transpose by the identity
// permutation, reshape to the same type...) and constant evaluation, which
// matters most for the shape computations ONNX exporters emit. Float math is
// evaluated in double precision and rounded to the element type.
//
//===----------------------------------------------------------------------===//

#include "dialects/Graph/IR/ConstantFolding.h"
#include "dialects/Graph/IR/GraphOps.h"

#include "mlir/IR/Matchers.h"
#include "llvm/ADT/APSInt.h"
#include <cmath>

using namespace mlir;
using namespace kiln;
using namespace kiln::folding;
using llvm::APFloat;
using llvm::APInt;

namespace {
/// Shorthand for float folders that only need a `double -> double` function.
template <double (*Fn)(double)>
std::optional<APInt> inDouble(const APFloat &value) {
  return applyInDouble(value, Fn);
}

double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }
double rsqrt(double x) { return 1.0 / std::sqrt(x); }
double reciprocal(double x) { return 1.0 / x; }
double hardswish(double x) {
  return x * std::max(0.0, std::min(1.0, x / 6.0 + 0.5));
}
double geluExact(double x) { return 0.5 * x * (1.0 + std::erf(x / M_SQRT2)); }
double geluTanh(double x) {
  return 0.5 * x *
         (1.0 + std::tanh(std::sqrt(2.0 / M_PI) * (x + 0.044715 * x * x * x)));
}
double fabsDouble(double x) { return std::fabs(x); }
double negDouble(double x) { return -x; }
// NaN stays NaN, as with kiln.max and the lowering's arith.maximumf.
double reluDouble(double x) { return std::isnan(x) || x > 0 ? x : 0.0; }
/// Whether `type`'s elements are unsigned integers (the importer's uiN,
/// until kiln-lower-unsigned): their folds compare and divide unsigned.
bool isUnsignedElement(Type type) {
  return cast<ShapedType>(type).getElementType().isUnsignedInteger();
}

double signDouble(double x) {
  return std::isnan(x) ? x : (x > 0 ? 1.0 : (x < 0 ? -1.0 : 0.0));
}

/// Whether `attr` is a splat constant whose float value is exactly `value`
/// (bitwise, so -0.0 and 0.0 differ) or whose integer value is `value`.
bool isSplatOf(Attribute attr, double value) {
  auto dense = dyn_cast_or_null<SplatElementsAttr>(attr);
  if (!dense)
    return false;
  if (isa<FloatType>(dense.getElementType())) {
    APFloat splat = dense.getSplatValue<APFloat>();
    bool losesInfo = false;
    APFloat expected(value);
    expected.convert(splat.getSemantics(), APFloat::rmNearestTiesToEven,
                     &losesInfo);
    return splat.bitwiseIsEqual(expected);
  }
  if (isa<IntegerType>(dense.getElementType()))
    return dense.getSplatValue<APInt>().getSExtValue() ==
           static_cast<int64_t>(value);
  return false;
}

/// `x` when an identity fold applies and `x` already has the result type.
OpFoldResult foldToOperand(Value x, Type resultType, bool applies) {
  if (applies && x.getType() == resultType)
    return x;
  return {};
}

std::optional<APInt> boolBits(bool value) { return APInt(1, value ? 1 : 0); }

/// `value` (integral) as a signed `width`-bit integer, saturated to its range.
APInt saturatingInteger(double value, unsigned width) {
  llvm::APSInt result(width, /*isUnsigned=*/false);
  bool exact = false;
  APFloat(value).convertToInteger(result, APFloat::rmTowardZero, &exact);
  return result; // convertToInteger saturates out-of-range values.
}
} // namespace

//===----------------------------------------------------------------------===//
// Unary
//===----------------------------------------------------------------------===//

#define KILN_FOLD_FLOAT_UNARY(OP, FN)                                          \
  OpFoldResult OP::fold(FoldAdaptor adaptor) {                                 \
    return foldUnary(adaptor.getInput(), getType(), inDouble<FN>, nullptr);    \
  }
KILN_FOLD_FLOAT_UNARY(ExpOp, std::exp)
KILN_FOLD_FLOAT_UNARY(LogOp, std::log)
KILN_FOLD_FLOAT_UNARY(SqrtOp, std::sqrt)
KILN_FOLD_FLOAT_UNARY(RsqrtOp, rsqrt)
KILN_FOLD_FLOAT_UNARY(ReciprocalOp, reciprocal)
KILN_FOLD_FLOAT_UNARY(TanhOp, std::tanh)
KILN_FOLD_FLOAT_UNARY(SigmoidOp, sigmoid)
KILN_FOLD_FLOAT_UNARY(ErfOp, std::erf)
KILN_FOLD_FLOAT_UNARY(FloorOp, std::floor)
KILN_FOLD_FLOAT_UNARY(CeilOp, std::ceil)
KILN_FOLD_FLOAT_UNARY(SinOp, std::sin)
KILN_FOLD_FLOAT_UNARY(CosOp, std::cos)
KILN_FOLD_FLOAT_UNARY(AcosOp, std::acos)
KILN_FOLD_FLOAT_UNARY(AsinOp, std::asin)
KILN_FOLD_FLOAT_UNARY(AtanOp, std::atan)
KILN_FOLD_FLOAT_UNARY(AcoshOp, std::acosh)
KILN_FOLD_FLOAT_UNARY(AsinhOp, std::asinh)
KILN_FOLD_FLOAT_UNARY(AtanhOp, std::atanh)
KILN_FOLD_FLOAT_UNARY(HardSwishOp, hardswish)
#undef KILN_FOLD_FLOAT_UNARY

OpFoldResult NegOp::fold(FoldAdaptor adaptor) {
  // neg(neg(x)) -> x
  if (auto inner = getInput().getDefiningOp<NegOp>())
    return inner.getInput();
  return foldUnary(adaptor.getInput(), getType(), inDouble<negDouble>,
                   [](const APInt &v) -> std::optional<APInt> { return -v; });
}

OpFoldResult AbsOp::fold(FoldAdaptor adaptor) {
  if (getInput().getDefiningOp<AbsOp>() || isUnsignedElement(getType()))
    return getInput();
  return foldUnary(adaptor.getInput(), getType(), inDouble<fabsDouble>,
                   [](const APInt &v) -> std::optional<APInt> { return v.abs(); });
}

OpFoldResult SignOp::fold(FoldAdaptor adaptor) {
  bool isUnsigned = isUnsignedElement(getType());
  return foldUnary(adaptor.getInput(), getType(), inDouble<signDouble>,
                   [&](const APInt &v) -> std::optional<APInt> {
                     int64_t s = v.isNegative() && !isUnsigned
                                     ? -1
                                     : (v.isZero() ? 0 : 1);
                     return APInt(v.getBitWidth(), s, /*isSigned=*/true);
                   });
}

OpFoldResult ReluOp::fold(FoldAdaptor adaptor) {
  // relu is idempotent, and the identity on unsigned integers.
  if (getInput().getDefiningOp<ReluOp>() || isUnsignedElement(getType()))
    return getInput();
  return foldUnary(adaptor.getInput(), getType(), inDouble<reluDouble>,
                   [](const APInt &v) -> std::optional<APInt> {
                     return v.isNegative() ? APInt::getZero(v.getBitWidth())
                                           : v;
                   });
}

OpFoldResult NotOp::fold(FoldAdaptor adaptor) {
  if (auto inner = getInput().getDefiningOp<NotOp>())
    return inner.getInput();
  return foldUnary(adaptor.getInput(), getType(), nullptr,
                   [](const APInt &v) -> std::optional<APInt> { return ~v; });
}

OpFoldResult GeluOp::fold(FoldAdaptor adaptor) {
  bool tanh = getApproximate() == GeluApproximation::tanh;
  return foldUnary(adaptor.getInput(), getType(),
                   tanh ? inDouble<geluTanh> : inDouble<geluExact>, nullptr);
}

OpFoldResult HardSigmoidOp::fold(FoldAdaptor adaptor) {
  double alpha = getAlpha().convertToDouble(), beta = getBeta().convertToDouble();
  return foldUnary(adaptor.getInput(), getType(),
                   [&](const APFloat &v) -> std::optional<APInt> {
                     double y = alpha * v.convertToDouble() + beta;
                     return roundTo(std::isnan(y) ? y
                                                  : std::max(0.0, std::min(1.0, y)),
                                    v.getSemantics());
                   },
                   nullptr);
}

OpFoldResult LeakyReluOp::fold(FoldAdaptor adaptor) {
  double alpha = getAlpha().convertToDouble();
  return foldUnary(adaptor.getInput(), getType(),
                   [&](const APFloat &v) -> std::optional<APInt> {
                     double x = v.convertToDouble();
                     return roundTo(x >= 0 ? x : alpha * x, v.getSemantics());
                   },
                   nullptr);
}

OpFoldResult ClipOp::fold(FoldAdaptor adaptor) {
  double lo = getMin() ? getMin()->convertToDouble() : -INFINITY;
  double hi = getMax() ? getMax()->convertToDouble() : INFINITY;
  // No bounds: nothing to clip.
  if (!getMin() && !getMax())
    return getInput();
  // Unsigned bounds saturate differently; kiln-lower-unsigned rewrites it.
  if (isUnsignedElement(getType()))
    return {};
  return foldUnary(
      adaptor.getInput(), getType(),
      [&](const APFloat &v) -> std::optional<APInt> {
        APFloat wide = v;
        bool losesInfo = false;
        wide.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven,
                     &losesInfo);
        double x = wide.convertToDouble();
        return roundTo(std::isnan(x) ? x : std::min(hi, std::max(lo, x)),
                       v.getSemantics());
      },
      [&](const APInt &v) -> std::optional<APInt> {
        // Integers compare exactly: the bounds are rounded inwards to
        // integers and saturated to the element type's range, never the
        // elements converted to double.
        unsigned width = v.getBitWidth();
        APInt result = v;
        if (getMin()) {
          APInt low = saturatingInteger(std::ceil(lo), width);
          if (result.slt(low))
            result = low;
        }
        if (getMax()) {
          APInt high = saturatingInteger(std::floor(hi), width);
          if (result.sgt(high))
            result = high;
        }
        return result;
      });
}

//===----------------------------------------------------------------------===//
// Binary
//===----------------------------------------------------------------------===//

namespace {
/// Float arithmetic in the element's own format, like the hardware does.
template <APFloat::opStatus (APFloat::*Op)(const APFloat &,
                                           APFloat::roundingMode)>
std::optional<APInt> floatArith(const APFloat &lhs, const APFloat &rhs) {
  APFloat result = lhs;
  (result.*Op)(rhs, APFloat::rmNearestTiesToEven);
  return result.bitcastToAPInt();
}
} // namespace

OpFoldResult AddOp::fold(FoldAdaptor adaptor) {
  // x + -0.0 == x for every float x (x + 0.0 is not: -0.0 + 0.0 is 0.0).
  bool isFloat = isa<FloatType>(getType().getElementType());
  if (OpFoldResult r = foldToOperand(getLhs(), getType(),
                                     isSplatOf(adaptor.getRhs(), isFloat ? -0.0 : 0)))
    return r;
  return foldBinary(adaptor.getLhs(), adaptor.getRhs(), getType(),
                    floatArith<&APFloat::add>,
                    [](const APInt &a, const APInt &b) -> std::optional<APInt> {
                      return a + b;
                    });
}

OpFoldResult SubOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult r = foldToOperand(getLhs(), getType(),
                                     isSplatOf(adaptor.getRhs(), 0.0)))
    return r;
  return foldBinary(adaptor.getLhs(), adaptor.getRhs(), getType(),
                    floatArith<&APFloat::subtract>,
                    [](const APInt &a, const APInt &b) -> std::optional<APInt> {
                      return a - b;
                    });
}

OpFoldResult MulOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult r = foldToOperand(getLhs(), getType(),
                                     isSplatOf(adaptor.getRhs(), 1.0)))
    return r;
  return foldBinary(adaptor.getLhs(), adaptor.getRhs(), getType(),
                    floatArith<&APFloat::multiply>,
                    [](const APInt &a, const APInt &b) -> std::optional<APInt> {
                      return a * b;
                    });
}

OpFoldResult DivOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult r = foldToOperand(getLhs(), getType(),
                                     isSplatOf(adaptor.getRhs(), 1.0)))
    return r;
  return foldBinary(
      adaptor.getLhs(), adaptor.getRhs(), getType(),
      floatArith<&APFloat::divide>,
      [&](const APInt &a, const APInt &b) -> std::optional<APInt> {
        if (b.isZero()) // Left for run time.
          return std::nullopt;
        if (isUnsignedElement(getType()))
          return a.udiv(b);
        // INT_MIN / -1 overflows: left for run time too.
        if (a.isMinSignedValue() && b.isAllOnes())
          return std::nullopt;
        return a.sdiv(b);
      });
}

OpFoldResult RemOp::fold(FoldAdaptor adaptor) {
  return foldBinary(
      adaptor.getLhs(), adaptor.getRhs(), getType(),
      [](const APFloat &a, const APFloat &b) -> std::optional<APInt> {
        APFloat result = a;
        result.mod(b); // C fmod: exact, sign of a
        return result.bitcastToAPInt();
      },
      [&](const APInt &a, const APInt &b) -> std::optional<APInt> {
        if (b.isZero()) // Left for run time.
          return std::nullopt;
        if (isUnsignedElement(getType()))
          return a.urem(b);
        // INT_MIN rem -1 overflows: left for run time too.
        if (a.isMinSignedValue() && b.isAllOnes())
          return std::nullopt;
        return a.srem(b);
      });
}

OpFoldResult PowOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult r = foldToOperand(getLhs(), getType(),
                                     isSplatOf(adaptor.getRhs(), 1.0)))
    return r;
  return foldBinary(adaptor.getLhs(), adaptor.getRhs(), getType(),
                    [](const APFloat &a, const APFloat &b) -> std::optional<APInt> {
                      return roundTo(std::pow(a.convertToDouble(),
                                              b.convertToDouble()),
                                     a.getSemantics());
                    },
                    nullptr);
}

OpFoldResult ShiftLeftOp::fold(FoldAdaptor adaptor) {
  return foldBinary(adaptor.getLhs(), adaptor.getRhs(), getType(), nullptr,
                    [](const APInt &a, const APInt &b) -> std::optional<APInt> {
                      if (b.uge(a.getBitWidth()))
                        return APInt::getZero(a.getBitWidth());
                      return a.shl(b);
                    });
}

OpFoldResult ShiftRightOp::fold(FoldAdaptor adaptor) {
  return foldBinary(adaptor.getLhs(), adaptor.getRhs(), getType(), nullptr,
                    [](const APInt &a, const APInt &b) -> std::optional<APInt> {
                      if (b.uge(a.getBitWidth()))
                        return APInt::getZero(a.getBitWidth());
                      return a.lshr(b);
                    });
}

OpFoldResult MinOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult r = foldToOperand(getLhs(), getType(), getLhs() == getRhs()))
    return r;
  return foldBinary(adaptor.getLhs(), adaptor.getRhs(), getType(),
                    [](const APFloat &a, const APFloat &b) -> std::optional<APInt> {
                      return llvm::minimum(a, b).bitcastToAPInt();
                    },
                    [&](const APInt &a, const APInt &b) -> std::optional<APInt> {
                      bool less = isUnsignedElement(getType()) ? a.ult(b)
                                                               : a.slt(b);
                      return less ? a : b;
                    });
}

OpFoldResult MaxOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult r = foldToOperand(getLhs(), getType(), getLhs() == getRhs()))
    return r;
  return foldBinary(adaptor.getLhs(), adaptor.getRhs(), getType(),
                    [](const APFloat &a, const APFloat &b) -> std::optional<APInt> {
                      return llvm::maximum(a, b).bitcastToAPInt();
                    },
                    [&](const APInt &a, const APInt &b) -> std::optional<APInt> {
                      bool greater = isUnsignedElement(getType()) ? a.ugt(b)
                                                                  : a.sgt(b);
                      return greater ? a : b;
                    });
}

#define KILN_FOLD_BOOL_BINARY(OP, EXPR)                                        \
  OpFoldResult OP::fold(FoldAdaptor adaptor) {                                 \
    return foldBinary(adaptor.getLhs(), adaptor.getRhs(), getType(), nullptr, \
                      [](const APInt &a, const APInt &b)                       \
                          -> std::optional<APInt> { return EXPR; });           \
  }
KILN_FOLD_BOOL_BINARY(AndOp, a & b)
KILN_FOLD_BOOL_BINARY(OrOp, a | b)
KILN_FOLD_BOOL_BINARY(XorOp, a ^ b)
#undef KILN_FOLD_BOOL_BINARY

OpFoldResult CompareOp::fold(FoldAdaptor adaptor) {
  ComparePredicate predicate = getPredicate();
  auto decide = [predicate](int order, bool unordered) {
    // `order` is -1, 0 or 1; unordered means a NaN took part.
    if (unordered)
      return predicate == ComparePredicate::ne;
    switch (predicate) {
    case ComparePredicate::eq:
      return order == 0;
    case ComparePredicate::ne:
      return order != 0;
    case ComparePredicate::lt:
      return order < 0;
    case ComparePredicate::le:
      return order <= 0;
    case ComparePredicate::gt:
      return order > 0;
    case ComparePredicate::ge:
      return order >= 0;
    }
    return false;
  };
  return foldBinary(
      adaptor.getLhs(), adaptor.getRhs(), getType(),
      [&](const APFloat &a, const APFloat &b) {
        APFloat::cmpResult c = a.compare(b);
        int order = c == APFloat::cmpLessThan      ? -1
                    : c == APFloat::cmpGreaterThan ? 1
                                                   : 0;
        return boolBits(decide(order, c == APFloat::cmpUnordered));
      },
      [&](const APInt &a, const APInt &b) {
        // i1 and uiN compare as unsigned (false < true), wider signless
        // integers as signed.
        bool isUnsigned = a.getBitWidth() == 1 || isUnsignedElement(getLhs().getType());
        int order = a == b ? 0 : ((isUnsigned ? a.ult(b) : a.slt(b)) ? -1 : 1);
        return boolBits(decide(order, false));
      });
}

OpFoldResult SelectOp::fold(FoldAdaptor adaptor) {
  if (getOnTrue() == getOnFalse() && getOnTrue().getType() == getType())
    return getOnTrue();
  if (auto condition =
          dyn_cast_or_null<SplatElementsAttr>(adaptor.getCondition()))
    return foldToOperand(condition.getSplatValue<bool>() ? getOnTrue()
                                                         : getOnFalse(),
                         getType(), true);
  // All three constant (ONNX shape computations: Where on Equal): pick
  // element by element, broadcasting each operand to the result.
  DenseElementsAttr condition = getFoldableConstant(adaptor.getCondition());
  DenseElementsAttr onTrue = getFoldableConstant(adaptor.getOnTrue());
  DenseElementsAttr onFalse = getFoldableConstant(adaptor.getOnFalse());
  auto type = cast<ShapedType>(getType());
  if (!condition || !onTrue || !onFalse || exceedsFoldLimit(type))
    return {};
  auto shapeOf = [](DenseElementsAttr attr) {
    // A splat reads element 0 whatever the index.
    SmallVector<int64_t> shape(attr.getType().getShape());
    if (attr.isSplat())
      shape.assign(shape.size(), 1);
    return shape;
  };
  SmallVector<int64_t> conditionShape = shapeOf(condition),
                       trueShape = shapeOf(onTrue),
                       falseShape = shapeOf(onFalse);
  SmallVector<bool> conditions(condition.getValues<bool>());
  SmallVector<Attribute> trueValues(onTrue.getValues<Attribute>());
  SmallVector<Attribute> falseValues(onFalse.getValues<Attribute>());
  SmallVector<Attribute> results;
  forEachIndex(type.getShape(), [&](ArrayRef<int64_t> index) {
    results.push_back(
        conditions[broadcastLinearIndex(index, conditionShape)]
            ? trueValues[broadcastLinearIndex(index, trueShape)]
            : falseValues[broadcastLinearIndex(index, falseShape)]);
  });
  return DenseElementsAttr::get(type, results);
}

OpFoldResult CastOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getType())
    return getInput();
  Type to = getType().getElementType();
  auto toFloat = dyn_cast<FloatType>(to);
  unsigned toWidth = to.getIntOrFloatBitWidth();
  bool fromUnsigned = isUnsignedElement(getInput().getType());
  bool toUnsigned = to.isUnsignedInteger();
  return foldUnary(
      adaptor.getInput(), getType(),
      [&](const APFloat &v) -> std::optional<APInt> {
        if (toFloat) {
          APFloat result = v;
          bool losesInfo = false;
          result.convert(toFloat.getFloatSemantics(),
                         APFloat::rmNearestTiesToEven, &losesInfo);
          return result.bitcastToAPInt();
        }
        if (toWidth == 1)
          return boolBits(!v.isZero());
        // NaN, infinite and out-of-range conversions are undefined: they
        // stay for run time rather than being folded to an arbitrary value.
        if (!v.isFinite())
          return std::nullopt;
        llvm::APSInt result(toWidth, /*isUnsigned=*/toUnsigned);
        bool exact = false;
        if (v.convertToInteger(result, APFloat::rmTowardZero, &exact) &
            APFloat::opInvalidOp)
          return std::nullopt;
        return APInt(result);
      },
      [&](const APInt &v) -> std::optional<APInt> {
        bool zeroExtends = v.getBitWidth() == 1 || fromUnsigned;
        if (toFloat) {
          APFloat result(toFloat.getFloatSemantics());
          result.convertFromAPInt(v, /*IsSigned=*/!zeroExtends,
                                  APFloat::rmNearestTiesToEven);
          return result.bitcastToAPInt();
        }
        if (toWidth == 1)
          return boolBits(!v.isZero());
        return zeroExtends ? v.zextOrTrunc(toWidth) : v.sextOrTrunc(toWidth);
      });
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

namespace {
/// Reducing only size-1 dimensions while keeping them is the identity.
template <typename ReduceOp> OpFoldResult foldTrivialReduce(ReduceOp op) {
  auto input = op.getInput().getType();
  for (int64_t axis : op.getAxes())
    if (input.getDimSize(*normalizeAxis(axis, input.getRank())) != 1)
      return {};
  return foldToOperand(op.getInput(), op.getType(), true);
}
} // namespace

OpFoldResult ReduceSumOp::fold(FoldAdaptor) { return foldTrivialReduce(*this); }
OpFoldResult ReduceMeanOp::fold(FoldAdaptor) { return foldTrivialReduce(*this); }
OpFoldResult ReduceMaxOp::fold(FoldAdaptor) { return foldTrivialReduce(*this); }
OpFoldResult ReduceMinOp::fold(FoldAdaptor) { return foldTrivialReduce(*this); }
OpFoldResult ReduceProdOp::fold(FoldAdaptor) { return foldTrivialReduce(*this); }

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getType())
    return getInput();
  if (auto dense = getFoldableConstant(adaptor.getInput()))
    return dense.reshape(getType());
  return {};
}

OpFoldResult TransposeOp::fold(FoldAdaptor adaptor) {
  ArrayRef<int64_t> permutation = getPermutation();
  if (llvm::equal(permutation, llvm::seq<int64_t>(0, permutation.size())))
    return getInput();
  auto dense = getFoldableConstant(adaptor.getInput());
  if (!dense)
    return {};
  ArrayRef<int64_t> inputShape = getInput().getType().getShape();
  SmallVector<int64_t> sourceIndex(permutation.size());
  return remapElements(dense, getType(), [&](ArrayRef<int64_t> index) {
    for (size_t d = 0; d < permutation.size(); ++d)
      sourceIndex[permutation[d]] = index[d];
    return broadcastLinearIndex(sourceIndex, inputShape);
  });
}

OpFoldResult BroadcastOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getType())
    return getInput();
  auto dense = getFoldableConstant(adaptor.getInput());
  if (!dense)
    return {};
  ArrayRef<int64_t> inputShape = getInput().getType().getShape();
  return remapElements(dense, getType(), [&](ArrayRef<int64_t> index) {
    return broadcastLinearIndex(index, inputShape);
  });
}

OpFoldResult ConcatOp::fold(FoldAdaptor adaptor) {
  if (getInputs().size() == 1)
    return foldToOperand(getInputs().front(), getType(), true);
  SmallVector<DenseElementsAttr> pieces;
  for (Attribute attr : adaptor.getInputs()) {
    auto dense = getFoldableConstant(attr);
    if (!dense)
      return {};
    pieces.push_back(dense);
  }
  if (exceedsFoldLimit(getType()))
    return {};
  int64_t axis = *normalizeAxis(getAxis(), getType().getRank());
  SmallVector<SmallVector<Attribute>> values;
  for (DenseElementsAttr piece : pieces)
    values.emplace_back(piece.getValues<Attribute>());
  SmallVector<Attribute> results;
  SmallVector<int64_t> local;
  forEachIndex(getType().getShape(), [&](ArrayRef<int64_t> index) {
    local.assign(index.begin(), index.end());
    size_t which = 0;
    while (local[axis] >= pieces[which].getType().getDimSize(axis))
      local[axis] -= pieces[which++].getType().getDimSize(axis);
    ArrayRef<int64_t> shape = pieces[which].getType().getShape();
    results.push_back(pieces[which].isSplat()
                          ? values[which].front()
                          : values[which][broadcastLinearIndex(local, shape)]);
  });
  return DenseElementsAttr::get(getType(), results);
}

OpFoldResult SliceOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getType() &&
      llvm::all_of(getSteps(), [](int64_t s) { return s == 1; }))
    return getInput();
  auto dense = getFoldableConstant(adaptor.getInput());
  if (!dense)
    return {};
  ArrayRef<int64_t> inputShape = getInput().getType().getShape();
  ArrayRef<int64_t> starts = getStarts(), steps = getSteps();
  SmallVector<int64_t> sourceIndex(inputShape.size());
  return remapElements(dense, getType(), [&](ArrayRef<int64_t> index) {
    for (size_t d = 0; d < inputShape.size(); ++d)
      sourceIndex[d] = starts[d] + index[d] * steps[d];
    return broadcastLinearIndex(sourceIndex, inputShape);
  });
}

OpFoldResult GatherOp::fold(FoldAdaptor adaptor) {
  auto data = getFoldableConstant(adaptor.getInput());
  auto indices = getFoldableConstant(adaptor.getIndices());
  if (!data || !indices)
    return {};
  auto inputType = getInput().getType();
  int64_t axis = *normalizeAxis(getAxis(), inputType.getRank());
  int64_t axisSize = inputType.getDimSize(axis);
  SmallVector<int64_t> positions;
  for (const APInt &value : indices.getValues<APInt>()) {
    int64_t position = value.getSExtValue();
    if (position < -axisSize || position >= axisSize)
      return {}; // Out of range: left for the importer's checks.
    positions.push_back(position < 0 ? position + axisSize : position);
  }
  ArrayRef<int64_t> indicesShape = getIndices().getType().getShape();
  int64_t indexRank = indicesShape.size();
  SmallVector<int64_t> sourceIndex(inputType.getRank());
  return remapElements(data, getType(), [&](ArrayRef<int64_t> index) {
    // Result index = prefix (axis dims) + indices index + suffix.
    for (int64_t d = 0; d < axis; ++d)
      sourceIndex[d] = index[d];
    int64_t which = indices.isSplat()
                        ? 0
                        : broadcastLinearIndex(
                              index.slice(axis, indexRank), indicesShape);
    sourceIndex[axis] = positions[which];
    for (int64_t d = axis + 1; d < inputType.getRank(); ++d)
      sourceIndex[d] = index[d - 1 + indexRank];
    return broadcastLinearIndex(sourceIndex, inputType.getShape());
  });
}

OpFoldResult PadOp::fold(FoldAdaptor adaptor) {
  auto isZero = [](int64_t v) { return v == 0; };
  if (llvm::all_of(getLow(), isZero) && llvm::all_of(getHigh(), isZero))
    return foldToOperand(getInput(), getType(), true);
  auto dense = getFoldableConstant(adaptor.getInput());
  auto resultType = getType();
  if (!dense || exceedsFoldLimit(resultType))
    return {};
  auto inputType = getInput().getType();
  Type element = resultType.getElementType();
  double padValue = getValue().convertToDouble();
  Attribute fill = isa<FloatType>(element)
                       ? Attribute(FloatAttr::get(element, padValue))
                       : Attribute(IntegerAttr::get(
                             element, static_cast<int64_t>(padValue)));
  SmallVector<Attribute> values(dense.getValues<Attribute>());
  ArrayRef<int64_t> low = getLow(), inputShape = inputType.getShape();
  PadMode mode = getMode();
  SmallVector<Attribute> results;
  SmallVector<int64_t> source(inputShape.size());
  forEachIndex(resultType.getShape(), [&](ArrayRef<int64_t> index) {
    bool inside = true;
    for (size_t d = 0; d < inputShape.size(); ++d) {
      int64_t i = index[d] - low[d], size = inputShape[d];
      if (i < 0 || i >= size) {
        inside = false;
        if (mode == PadMode::reflect)
          i = i < 0 ? -i : 2 * (size - 1) - i;
        else
          i = std::clamp<int64_t>(i, 0, std::max<int64_t>(size - 1, 0));
      }
      source[d] = i;
    }
    if (!inside && mode == PadMode::constant)
      results.push_back(fill);
    else
      results.push_back(values[broadcastLinearIndex(source, inputShape)]);
  });
  return DenseElementsAttr::get(resultType, results);
}

LogicalResult SplitOp::fold(FoldAdaptor adaptor,
                            SmallVectorImpl<OpFoldResult> &results) {
  auto dense = getFoldableConstant(adaptor.getInput());
  if (!dense)
    return failure();
  auto inputType = getInput().getType();
  int64_t axis = *normalizeAxis(getAxis(), inputType.getRank());
  int64_t offset = 0;
  SmallVector<OpFoldResult> pieces;
  for (Value result : getResults()) {
    auto pieceType = cast<RankedTensorType>(result.getType());
    SmallVector<int64_t> source;
    Attribute piece =
        remapElements(dense, pieceType, [&](ArrayRef<int64_t> index) {
          source.assign(index.begin(), index.end());
          source[axis] += offset;
          return broadcastLinearIndex(source, inputType.getShape());
        });
    if (!piece)
      return failure();
    pieces.push_back(piece);
    offset += pieceType.getDimSize(axis);
  }
  results.append(pieces.begin(), pieces.end());
  return success();
}
