//===- ElementwiseOps.cpp - ONNX elementwise ops -> kiln ------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Unary math, broadcasting arithmetic (including the variadic Sum, Mean,
// Min, Max), comparisons, Where, Cast, Clip and the activations. Helpers
// shared by all families live here too.
//
//===----------------------------------------------------------------------===//

#include "frontend/onnx/ops/Common.h"
#include "frontend/onnx/TensorImport.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"

#include <cmath>

using namespace mlir;

namespace kiln::onnx {

//===----------------------------------------------------------------------===//
// Shared helpers
//===----------------------------------------------------------------------===//

Value reshapeTo(ImportContext &ctx, Value value, ArrayRef<int64_t> shape) {
  auto type = RankedTensorType::get(shape, elementTypeOf(value));
  if (type == value.getType())
    return value;
  return ctx.finish(ReshapeOp::create(ctx.builder(), ctx.loc(), type, value));
}

Value castTo(ImportContext &ctx, Value value, Type element) {
  if (elementTypeOf(value) == element)
    return value;
  auto type = RankedTensorType::get(shapeOf(value), element);
  return ctx.finish(CastOp::create(ctx.builder(), ctx.loc(), type, value));
}

FailureOr<int64_t> normalizeAxisAt(ImportContext &ctx, int64_t axis,
                                   int64_t rank) {
  if (std::optional<int64_t> normalized = kiln::normalizeAxis(axis, rank))
    return *normalized;
  return ctx.error() << "axis " << axis << " is out of range for rank "
                     << rank;
}

Value flattenAt(ImportContext &ctx, Value value, int64_t axis) {
  ArrayRef<int64_t> shape = shapeOf(value);
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < int64_t(shape.size()); ++d)
    (d < axis ? outer : inner) *= shape[d];
  return reshapeTo(ctx, value, {outer, inner});
}

/// `value` as an integer of `width` bits: rounded toward zero and clamped to
/// the signed range (NaN as 0, i1 as 0 or 1). Float attributes of any value
/// (inf, 1e30) reach scalarConstant for integer tensors, and converting an
/// out-of-range double to an integer is undefined behaviour.
static int64_t toInteger(double value, unsigned width) {
  if (std::isnan(value))
    return 0;
  if (width == 1)
    return value != 0;
  double bound = std::ldexp(1.0, int(width) - 1);
  if (value >= bound)
    return int64_t((uint64_t(1) << (width - 1)) - 1);
  if (value < -bound)
    return -int64_t(uint64_t(1) << (width - 1));
  return static_cast<int64_t>(value);
}

Value scalarConstant(ImportContext &ctx, Type element, double value) {
  auto type = RankedTensorType::get({}, element);
  Attribute scalar =
      isa<FloatType>(element)
          ? Attribute(FloatAttr::get(element, value))
          : Attribute(IntegerAttr::get(
                element, toInteger(value, element.getIntOrFloatBitWidth())));
  return ctx.constant(DenseElementsAttr::get(type, scalar));
}

Value i64Constant(ImportContext &ctx, ArrayRef<int64_t> shape,
                  ArrayRef<int64_t> values) {
  auto type = RankedTensorType::get(shape, ctx.builder().getI64Type());
  return ctx.constant(DenseElementsAttr::get(type, values));
}

Value i64Iota(ImportContext &ctx, ArrayRef<int64_t> shape) {
  SmallVector<int64_t> positions(ShapedType::getNumElements(shape));
  for (auto [i, position] : llvm::enumerate(positions))
    position = int64_t(i);
  return i64Constant(ctx, shape, positions);
}

LogicalResult forwardInput(ImportContext &ctx) {
  FailureOr<Value> input = ctx.requiredInput(0, "input");
  if (failed(input))
    return failure();
  ctx.setOutput(0, *input);
  return success();
}

namespace {

//===----------------------------------------------------------------------===//
// Unary
//===----------------------------------------------------------------------===//

template <typename OpTy> LogicalResult convertUnary(ImportContext &ctx) {
  FailureOr<Value> x = ctx.requiredInput(0, "X");
  if (failed(x))
    return failure();
  ctx.setOutput(0, ctx.finish(OpTy::create(ctx.builder(), ctx.loc(),
                                           x->getType(), *x)));
  return success();
}

LogicalResult convertLeakyRelu(ImportContext &ctx) {
  FailureOr<Value> x = ctx.requiredInput(0, "X");
  FailureOr<float> alpha = ctx.floatAttr("alpha", 0.01f);
  if (failed(x) || failed(alpha))
    return failure();
  ctx.setOutput(0, ctx.finish(LeakyReluOp::create(ctx.builder(), ctx.loc(),
                                                  x->getType(), *x,
                                                  APFloat(double(*alpha)))));
  return success();
}

LogicalResult convertHardSigmoid(ImportContext &ctx) {
  FailureOr<Value> x = ctx.requiredInput(0, "X");
  FailureOr<float> alpha = ctx.floatAttr("alpha", 0.2f);
  FailureOr<float> beta = ctx.floatAttr("beta", 0.5f);
  if (failed(x) || failed(alpha) || failed(beta))
    return failure();
  ctx.setOutput(0, ctx.finish(HardSigmoidOp::create(
                       ctx.builder(), ctx.loc(), x->getType(), *x,
                       APFloat(double(*alpha)), APFloat(double(*beta)))));
  return success();
}

/// Clip before opset 11: bounds are attributes (default: unbounded).
LogicalResult convertClip6(ImportContext &ctx) {
  FailureOr<Value> x = ctx.requiredInput(0, "input");
  if (failed(x))
    return failure();
  std::optional<APFloat> low, high;
  if (ctx.attribute("min")) {
    FailureOr<float> v = ctx.floatAttr("min", 0);
    if (failed(v))
      return failure();
    low = APFloat(double(*v));
  }
  if (ctx.attribute("max")) {
    FailureOr<float> v = ctx.floatAttr("max", 0);
    if (failed(v))
      return failure();
    high = APFloat(double(*v));
  }
  auto op = ClipOp::create(ctx.builder(), ctx.loc(), x->getType(), *x,
                           low ? FloatAttr::get(ctx.builder().getF64Type(), *low)
                               : FloatAttr(),
                           high ? FloatAttr::get(ctx.builder().getF64Type(), *high)
                                : FloatAttr());
  ctx.setOutput(0, ctx.finish(op));
  return success();
}

/// Clip from opset 11: optional scalar inputs min and max. Constant bounds
/// become the clip op's attributes; a bound computed at run time (or given
/// as a graph input) becomes a broadcasting max / min against it. Clip is
/// min(max(x, low), high), so the low bound is applied first.
LogicalResult convertClip11(ImportContext &ctx) {
  FailureOr<Value> x = ctx.requiredInput(0, "input");
  if (failed(x))
    return failure();
  // With both bounds constant (the usual case) one clip op does it all.
  bool allConstant = true;
  for (int i = 1; i <= 2; ++i)
    if (Value input = ctx.input(i))
      allConstant &= matchPattern(input, m_Constant());
  Value result = *x;
  FloatAttr constantBounds[2];
  for (int i = 1; i <= 2; ++i) {
    Value input = ctx.input(i);
    if (!input)
      continue;
    StringRef what = i == 1 ? "min" : "max";
    if (cast<RankedTensorType>(input.getType()).getNumElements() != 1)
      return ctx.error() << what << " must be a scalar";
    DenseElementsAttr bound;
    if (!matchPattern(input, m_Constant(&bound))) {
      if (elementTypeOf(input) != elementTypeOf(*x))
        return ctx.error() << what << " must have the input's element type";
      Value scalar = reshapeTo(ctx, input, {});
      FailureOr<Value> clipped =
          i == 1 ? buildBroadcast<MaxOp>(ctx, result, scalar)
                 : buildBroadcast<MinOp>(ctx, result, scalar);
      if (failed(clipped))
        return failure();
      result = *clipped;
      continue;
    }
    double value =
        isa<FloatType>(bound.getElementType())
            ? (*bound.getValues<APFloat>().begin()).convertToDouble()
            : double((*bound.getValues<APInt>().begin()).getSExtValue());
    FloatAttr attr = FloatAttr::get(ctx.builder().getF64Type(), value);
    if (allConstant) {
      constantBounds[i - 1] = attr;
      continue;
    }
    result = ctx.finish(ClipOp::create(
        ctx.builder(), ctx.loc(), result.getType(), result,
        i == 1 ? attr : FloatAttr(), i == 2 ? attr : FloatAttr()));
  }
  if (allConstant)
    result =
        ctx.finish(ClipOp::create(ctx.builder(), ctx.loc(), x->getType(), *x,
                                  constantBounds[0], constantBounds[1]));
  ctx.setOutput(0, result);
  return success();
}

//===----------------------------------------------------------------------===//
// Binary and variadic
//===----------------------------------------------------------------------===//

/// BitShift (unsigned integers only, by the spec): a logical shift; counts
/// of the width or more give 0.
LogicalResult convertBitShift(ImportContext &ctx) {
  FailureOr<Value> x = ctx.requiredInput(0, "X");
  FailureOr<Value> y = ctx.requiredInput(1, "Y");
  FailureOr<std::string> direction = ctx.stringAttr("direction", "");
  if (failed(x) || failed(y) || failed(direction))
    return failure();
  if (!elementTypeOf(*x).isUnsignedInteger())
    return ctx.error() << "BitShift takes unsigned integers, got "
                       << elementTypeOf(*x);
  FailureOr<Value> result;
  if (*direction == "LEFT")
    result = buildBroadcast<ShiftLeftOp>(ctx, *x, *y);
  else if (*direction == "RIGHT")
    result = buildBroadcast<ShiftRightOp>(ctx, *x, *y);
  else
    return ctx.error() << "'direction' must be LEFT or RIGHT, got '"
                       << *direction << "'";
  if (failed(result))
    return failure();
  ctx.setOutput(0, *result);
  return success();
}

template <typename OpTy> LogicalResult convertBinary(ImportContext &ctx) {
  FailureOr<Value> a = ctx.requiredInput(0, "A");
  FailureOr<Value> b = ctx.requiredInput(1, "B");
  if (failed(a) || failed(b))
    return failure();
  FailureOr<Value> result = buildBroadcast<OpTy>(ctx, *a, *b);
  if (failed(result))
    return failure();
  ctx.setOutput(0, *result);
  return success();
}

/// Before opset 7, B broadcasts only with `broadcast` set, its dimensions
/// matching A's from `axis` on (by default its trailing ones): B reshaped to
/// A's rank, with 1s around, broadcasts the NumPy way.
FailureOr<Value> legacyBroadcastOperand(ImportContext &ctx, Value a, Value b) {
  FailureOr<int64_t> broadcast = ctx.intAttr("broadcast", 0);
  if (failed(broadcast))
    return failure();
  if (!*broadcast || !ctx.attribute("axis"))
    return b;
  int64_t rankA = shapeOf(a).size(), rankB = shapeOf(b).size();
  FailureOr<int64_t> axis = ctx.intAttr("axis", 0);
  if (failed(axis))
    return failure();
  FailureOr<int64_t> start = normalizeAxisAt(ctx, *axis, rankA);
  if (failed(start))
    return failure();
  if (*start + rankB > rankA)
    return ctx.error() << "B (rank " << rankB << ") does not fit A (rank "
                       << rankA << ") from axis " << *axis;
  SmallVector<int64_t> shape(*start, 1);
  shape.append(shapeOf(b).begin(), shapeOf(b).end());
  shape.resize(rankA, 1);
  return reshapeTo(ctx, b, shape);
}

/// Add, Sub, Mul, Div and Pow before opset 7 (legacy broadcasting).
template <typename OpTy>
LogicalResult convertLegacyBinary(ImportContext &ctx) {
  FailureOr<Value> a = ctx.requiredInput(0, "A");
  FailureOr<Value> b = ctx.requiredInput(1, "B");
  if (failed(a) || failed(b))
    return failure();
  FailureOr<Value> aligned = legacyBroadcastOperand(ctx, *a, *b);
  if (failed(aligned))
    return failure();
  FailureOr<Value> result = buildBroadcast<OpTy>(ctx, *a, *aligned);
  if (failed(result))
    return failure();
  ctx.setOutput(0, *result);
  return success();
}

LogicalResult convertPow(ImportContext &ctx) {
  FailureOr<Value> a = ctx.requiredInput(0, "X");
  FailureOr<Value> b = ctx.requiredInput(1, "Y");
  if (failed(a) || failed(b))
    return failure();
  // Opset 12+ allows an exponent of another type. Float bases compute in
  // their own type; integer bases in f64, converted back (exact for the
  // integer powers that fit).
  Type base = elementTypeOf(*a);
  Type compute = isa<FloatType>(base) ? base : ctx.builder().getF64Type();
  FailureOr<Value> result = buildBroadcast<PowOp>(
      ctx, castTo(ctx, *a, compute), castTo(ctx, *b, compute));
  if (succeeded(result))
    result = castTo(ctx, *result, base);
  if (failed(result))
    return failure();
  ctx.setOutput(0, *result);
  return success();
}

/// Mod: fmod=1 is C fmod (the sign of the dividend), kiln.rem itself;
/// fmod=0 takes the sign of the divisor (Python's %), which is the
/// truncated remainder plus the divisor when the two signs differ. Both are
/// exact for integers and floats.
LogicalResult convertMod(ImportContext &ctx) {
  FailureOr<Value> a = ctx.requiredInput(0, "A");
  FailureOr<Value> b = ctx.requiredInput(1, "B");
  FailureOr<int64_t> fmod = ctx.intAttr("fmod", 0);
  if (failed(a) || failed(b) || failed(fmod))
    return failure();
  if (*fmod != 0 && *fmod != 1)
    return ctx.error() << "fmod must be 0 or 1, not " << *fmod;
  Type element = elementTypeOf(*a);
  if (element.isInteger(1))
    return ctx.error() << "Mod is not defined on booleans";
  FailureOr<Value> rem = buildBroadcast<RemOp>(ctx, *a, *b);
  if (failed(rem))
    return failure();
  if (*fmod == 1) {
    ctx.setOutput(0, *rem);
    return success();
  }
  Type i1 = ctx.builder().getI1Type();
  Value zero = scalarConstant(ctx, element, 0.0);
  auto compare = [&](ComparePredicate predicate, Value lhs,
                     Value rhs) -> FailureOr<Value> {
    SmallVector<Type> types;
    if (failed(kiln::inferBroadcastElementwise(ctx.loc(), ValueRange{lhs, rhs},
                                               i1, types)))
      return failure();
    return ctx.finish(CompareOp::create(ctx.builder(), ctx.loc(), types[0],
                                        predicate, lhs, rhs));
  };
  FailureOr<Value> nonZero = compare(ComparePredicate::ne, *rem, zero);
  FailureOr<Value> remNegative = compare(ComparePredicate::lt, *rem, zero);
  FailureOr<Value> divisorNegative = compare(ComparePredicate::lt, *b, zero);
  if (failed(nonZero) || failed(remNegative) || failed(divisorNegative))
    return failure();
  FailureOr<Value> signsDiffer =
      buildBroadcast<XorOp>(ctx, *remNegative, *divisorNegative);
  if (failed(signsDiffer))
    return failure();
  FailureOr<Value> adjust = buildBroadcast<AndOp>(ctx, *nonZero, *signsDiffer);
  FailureOr<Value> shifted = buildBroadcast<AddOp>(ctx, *rem, *b);
  if (failed(adjust) || failed(shifted))
    return failure();
  SmallVector<Type> types;
  if (failed(kiln::inferSelect(ctx.loc(), adjust->getType(), shifted->getType(),
                               rem->getType(), types)))
    return failure();
  ctx.setOutput(0,
                ctx.finish(SelectOp::create(ctx.builder(), ctx.loc(), types[0],
                                            *adjust, *shifted, *rem)));
  return success();
}

/// Sum, Min, Max, Mean: fold the inputs left to right.
template <typename OpTy, bool IsMean>
LogicalResult convertVariadic(ImportContext &ctx) {
  FailureOr<Value> accumulated = ctx.requiredInput(0, "data_0");
  if (failed(accumulated))
    return failure();
  int count = ctx.numInputs();
  for (int i = 1; i < count; ++i) {
    FailureOr<Value> next = ctx.requiredInput(i, "data");
    if (failed(next))
      return failure();
    accumulated = buildBroadcast<OpTy>(ctx, *accumulated, *next);
    if (failed(accumulated))
      return failure();
  }
  Value result = *accumulated;
  if (IsMean && count > 1) {
    FailureOr<Value> mean = buildBroadcast<DivOp>(
        ctx, result, scalarConstant(ctx, elementTypeOf(result), count));
    if (failed(mean))
      return failure();
    result = *mean;
  }
  ctx.setOutput(0, result);
  return success();
}

template <ComparePredicate Predicate>
LogicalResult convertCompare(ImportContext &ctx) {
  FailureOr<Value> a = ctx.requiredInput(0, "A");
  FailureOr<Value> b = ctx.requiredInput(1, "B");
  if (failed(a) || failed(b))
    return failure();
  SmallVector<Type> types;
  if (failed(kiln::inferBroadcastElementwise(
          ctx.loc(), ValueRange{*a, *b}, ctx.builder().getI1Type(), types)))
    return failure();
  ctx.setOutput(0, ctx.finish(CompareOp::create(ctx.builder(), ctx.loc(),
                                                types[0], Predicate, *a, *b)));
  return success();
}

LogicalResult convertWhere(ImportContext &ctx) {
  FailureOr<Value> c = ctx.requiredInput(0, "condition");
  FailureOr<Value> x = ctx.requiredInput(1, "X");
  FailureOr<Value> y = ctx.requiredInput(2, "Y");
  if (failed(c) || failed(x) || failed(y))
    return failure();
  SmallVector<Type> types;
  if (failed(kiln::inferSelect(ctx.loc(), c->getType(), x->getType(),
                               y->getType(), types)))
    return failure();
  ctx.setOutput(0, ctx.finish(SelectOp::create(ctx.builder(), ctx.loc(),
                                               types[0], *c, *x, *y)));
  return success();
}

LogicalResult convertCastLike(ImportContext &ctx) {
  FailureOr<Value> x = ctx.requiredInput(0, "input");
  FailureOr<Value> like = ctx.requiredInput(1, "target_type");
  if (failed(x) || failed(like))
    return failure();
  ctx.setOutput(0, castTo(ctx, *x, elementTypeOf(*like)));
  return success();
}

LogicalResult convertCast(ImportContext &ctx) {
  FailureOr<Value> x = ctx.requiredInput(0, "input");
  FailureOr<int64_t> to = ctx.intAttr("to", 0);
  if (failed(x) || failed(to))
    return failure();
  if (*to <= 0 || *to > 1000)
    return ctx.error() << "invalid target type " << *to;
  Type element = importElementType(ctx.context(), int32_t(*to), ctx.loc());
  if (!element) {
    if (isUnsupportedOnnxType(int32_t(*to)))
      ctx.markUnsupported();
    return failure();
  }
  ctx.setOutput(0, castTo(ctx, *x, element));
  return success();
}

} // namespace

void registerElementwiseConverters(ConverterRegistry &r) {
  r.add("Neg", 6, convertUnary<NegOp>);
  r.add("Abs", 6, convertUnary<AbsOp>);
  r.add("Sign", 9, convertUnary<SignOp>);
  r.add("Relu", 6, convertUnary<ReluOp>);
  r.add("Exp", 6, convertUnary<ExpOp>);
  r.add("Log", 6, convertUnary<LogOp>);
  r.add("Sqrt", 6, convertUnary<SqrtOp>);
  r.add("Reciprocal", 6, convertUnary<ReciprocalOp>);
  r.add("Tanh", 6, convertUnary<TanhOp>);
  r.add("Sigmoid", 6, convertUnary<SigmoidOp>);
  r.add("Erf", 9, convertUnary<ErfOp>);
  r.add("Floor", 6, convertUnary<FloorOp>);
  r.add("Ceil", 6, convertUnary<CeilOp>);
  r.add("Sin", 7, convertUnary<SinOp>);
  r.add("Cos", 7, convertUnary<CosOp>);
  r.add("Acos", 7, convertUnary<AcosOp>);
  r.add("Asin", 7, convertUnary<AsinOp>);
  r.add("Atan", 7, convertUnary<AtanOp>);
  r.add("Acosh", 9, convertUnary<AcoshOp>);
  r.add("Asinh", 9, convertUnary<AsinhOp>);
  r.add("Atanh", 9, convertUnary<AtanhOp>);
  r.add("HardSwish", 14, convertUnary<HardSwishOp>);
  r.add("Not", 1, convertUnary<NotOp>);
  r.add("LeakyRelu", 6, convertLeakyRelu);
  r.add("HardSigmoid", 6, convertHardSigmoid);
  r.add("Clip", 6, convertClip6);
  r.add("Clip", 11, convertClip11);

  r.add("Add", 1, convertLegacyBinary<AddOp>);
  r.add("Sub", 1, convertLegacyBinary<SubOp>);
  r.add("Mul", 1, convertLegacyBinary<MulOp>);
  r.add("Div", 1, convertLegacyBinary<DivOp>);
  r.add("Pow", 1, convertLegacyBinary<PowOp>);
  r.add("Add", 7, convertBinary<AddOp>);
  r.add("BitShift", 11, convertBitShift);
  r.add("Sub", 7, convertBinary<SubOp>);
  r.add("Mul", 7, convertBinary<MulOp>);
  r.add("Div", 7, convertBinary<DivOp>);
  r.add("Pow", 7, convertPow);
  r.add("Mod", 10, convertMod);
  r.add("And", 7, convertBinary<AndOp>);
  r.add("Or", 7, convertBinary<OrOp>);
  r.add("Xor", 7, convertBinary<XorOp>);
  r.add("Sum", 6, convertVariadic<AddOp, false>);
  r.add("Mean", 6, convertVariadic<AddOp, true>);
  r.add("Max", 6, convertVariadic<MaxOp, false>);
  r.add("Min", 6, convertVariadic<MinOp, false>);

  r.add("Equal", 7, convertCompare<ComparePredicate::eq>);
  r.add("Less", 7, convertCompare<ComparePredicate::lt>);
  r.add("LessOrEqual", 12, convertCompare<ComparePredicate::le>);
  r.add("Greater", 7, convertCompare<ComparePredicate::gt>);
  r.add("GreaterOrEqual", 12, convertCompare<ComparePredicate::ge>);
  r.add("Where", 9, convertWhere);
  r.add("Cast", 6, convertCast);
  r.add("CastLike", 15, convertCastLike);
  r.add("Identity", 1, forwardInput);
}

} // namespace kiln::onnx
