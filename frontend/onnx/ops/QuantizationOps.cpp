//===- QuantizationOps.cpp - ONNX's quantized operators
//--------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear, MatMulInteger,
// ConvInteger, QLinearMatMul and QLinearConv, spelled out in kiln ops with
// ONNX's exact semantics (per tensor or per axis, int8 and uint8):
//   quantize:   saturate(round_half_even(x / scale) + zero_point)
//   dequantize: (x - zero_point) * scale
// Integer products are exact: MatMul in i32, Conv in f64 (every int8 sum of
// products of a real model is far below 2^53). The QLinear ops requantise
// the i32 accumulator as ONNX's reference does: acc * (a_scale * b_scale /
// y_scale), rounded half to even, plus y_zero_point, saturated.
//
//===----------------------------------------------------------------------===//

#include "frontend/onnx/ConverterRegistry.h"
#include "frontend/onnx/ops/Expr.h"

using namespace mlir;

namespace kiln::onnx {

namespace {

/// Builders for the quantisation formulas at one node.
class Quantizer : public Expr {
public:
  using Expr::Expr;

  /// `param` (a scale or zero point: a scalar, or one value per entry of
  /// `axis` of `like`) shaped to broadcast against `like`. The axis (ONNX's,
  /// may be negative) is only checked when it is used.
  FailureOr<Value> alongAxis(Value param, int64_t axis, Value like,
                             llvm::StringRef what) {
    ArrayRef<int64_t> shape = shapeOf(param);
    if (shape.empty() || (shape.size() == 1 && shape[0] == 1))
      return param;
    int64_t rank = shapeOf(like).size();
    FailureOr<int64_t> normalized = normalizeAxisAt(ctx_, axis, rank);
    if (failed(normalized))
      return failure();
    int64_t axisSize = shapeOf(like)[*normalized];
    if (shape.size() != 1 || shape[0] != axisSize)
      return ctx_.error() << what << " must be a scalar or have one value per "
                          << "entry of axis " << axis << " (" << axisSize
                          << "), got " << param.getType();
    SmallVector<int64_t> target(rank, 1);
    target[*normalized] = axisSize;
    return reshapeTo(ctx_, param, target);
  }

  /// Round half to even where the caller saturates to 8 bits after it, in
  /// two additions: adding 1.5 x 2^23 (2^52 for f64) leaves no fraction
  /// bits, so the addition itself rounds (IEEE nearest, ties to even) and
  /// subtracting it back is exact. That holds for |x| < 2^22 (2^51);
  /// beyond, the result stays beyond the range the caller saturates to,
  /// and NaN stays NaN. Other float types take Expr's general form.
  Value roundHalfEven(Value x) {
    Type element = x ? elementTypeOf(x) : Type();
    if (!element || (!element.isF32() && !element.isF64()))
      return Expr::roundHalfEven(x);
    Value shift = c(x, element.isF32() ? 12582912.0 : 6755399441055744.0);
    return sub(add(x, shift), shift);
  }

  Value toType(Value v, Type element) {
    return v && elementTypeOf(v) != element ? castTo(ctx_, v, element) : v;
  }

  /// saturate(round(x / scale) + zeroPoint) as `element` (x float).
  Value quantize(Value x, Value scale, Value zeroPoint, Type element) {
    Value q = roundHalfEven(div(x, toType(scale, elementTypeOf(x))));
    if (zeroPoint)
      q = add(q, toType(zeroPoint, elementTypeOf(q)));
    return toType(saturate(q, element), element);
  }
  /// (x - zeroPoint) * scale in `floatType`.
  Value dequantize(Value x, Value scale, Value zeroPoint, Type floatType) {
    Value v = toType(x, floatType);
    if (zeroPoint)
      v = sub(v, toType(zeroPoint, floatType));
    return mul(v, toType(scale, floatType));
  }
  /// `q` (float) clamped to `element`'s range.
  Value saturate(Value q, Type element) {
    if (!q)
      return q;
    auto integer = cast<IntegerType>(element);
    unsigned width = integer.getWidth();
    double lo = integer.isUnsigned() ? 0.0 : -std::ldexp(1.0, width - 1);
    double hi = integer.isUnsigned() ? std::ldexp(1.0, width) - 1
                                     : std::ldexp(1.0, width - 1) - 1;
    Builder b(ctx_.context());
    return ctx_.finish(ClipOp::create(ctx_.builder(), ctx_.loc(), q.getType(),
                                      q, b.getF64FloatAttr(lo),
                                      b.getF64FloatAttr(hi)));
  }
  /// x - zeroPoint, widened to `element` first.
  Value centred(Value x, Value zeroPoint, Type element) {
    Value v = toType(x, element);
    return zeroPoint ? sub(v, toType(zeroPoint, element)) : v;
  }
  Value matmul(Value a, Value b) {
    if (!a || !b)
      return {};
    SmallVector<Type> types;
    if (failed(kiln::inferMatmul(ctx_.loc(), a.getType(), b.getType(), types)))
      return {};
    return ctx_.finish(
        MatmulOp::create(ctx_.builder(), ctx_.loc(), types[0], a, b));
  }
};

/// int8 or uint8 (isInteger ignores the signedness).
bool isQuantizedType(Type element) { return element.isInteger(8); }

LogicalResult convertQuantizeLinear(ImportContext &ctx) {
  FailureOr<Value> x = ctx.requiredInput(0, "x");
  FailureOr<Value> scale = ctx.requiredInput(1, "y_scale");
  if (failed(x) || failed(scale))
    return failure();
  Value zeroPoint = ctx.input(2);
  if (!isa<FloatType>(elementTypeOf(*x)))
    return ctx.error() << "x must hold floating-point values";
  // Without a zero point the result is uint8 (the spec's default).
  Type element =
      zeroPoint ? elementTypeOf(zeroPoint)
                : IntegerType::get(ctx.context(), 8, IntegerType::Unsigned);
  if (!isQuantizedType(element))
    return ctx.error() << "y_zero_point must be int8 or uint8, got " << element;
  FailureOr<int64_t> axis = ctx.intAttr("axis", 1);
  if (failed(axis))
    return failure();
  Quantizer q(ctx);
  FailureOr<Value> s = q.alongAxis(*scale, *axis, *x, "y_scale");
  if (failed(s))
    return failure();
  Value zp;
  if (zeroPoint) {
    FailureOr<Value> z = q.alongAxis(zeroPoint, *axis, *x, "y_zero_point");
    if (failed(z))
      return failure();
    zp = *z;
  }
  return q.output(q.quantize(*x, *s, zp, element));
}

LogicalResult convertDequantizeLinear(ImportContext &ctx) {
  FailureOr<Value> x = ctx.requiredInput(0, "x");
  FailureOr<Value> scale = ctx.requiredInput(1, "x_scale");
  if (failed(x) || failed(scale))
    return failure();
  Value zeroPoint = ctx.input(2);
  Type element = elementTypeOf(*x);
  if (!isQuantizedType(element) && !element.isSignlessInteger(32))
    return ctx.error() << "x must be int8, uint8 or int32, got " << element;
  if (!isa<FloatType>(elementTypeOf(*scale)))
    return ctx.error() << "x_scale must hold floating-point values";
  FailureOr<int64_t> axis = ctx.intAttr("axis", 1);
  if (failed(axis))
    return failure();
  Quantizer q(ctx);
  FailureOr<Value> s = q.alongAxis(*scale, *axis, *x, "x_scale");
  if (failed(s))
    return failure();
  Value zp;
  if (zeroPoint) {
    FailureOr<Value> z = q.alongAxis(zeroPoint, *axis, *x, "x_zero_point");
    if (failed(z))
      return failure();
    zp = *z;
  }
  return q.output(q.dequantize(*x, *s, zp, elementTypeOf(*scale)));
}

/// Outputs y (uint8), y_scale (f32 scalar) and y_zero_point (uint8 scalar)
/// for a range that always holds 0.
LogicalResult convertDynamicQuantizeLinear(ImportContext &ctx) {
  FailureOr<Value> x = ctx.requiredInput(0, "x");
  if (failed(x))
    return failure();
  if (!elementTypeOf(*x).isF32())
    return ctx.error() << "x must be float32";
  Quantizer q(ctx);
  SmallVector<int64_t> axes;
  for (int64_t d = 0; d < int64_t(shapeOf(*x).size()); ++d)
    axes.push_back(d);
  auto reduce = [&](auto tag) -> Value {
    using OpTy = decltype(tag);
    SmallVector<Type> types;
    if (failed(kiln::inferReduce(ctx.loc(), x->getType(), axes, false, types)))
      return {};
    return ctx.finish(
        OpTy::create(ctx.builder(), ctx.loc(), types[0], *x, axes, false));
  };
  Value low = q.min(reduce(ReduceMinOp()), q.c(*x, 0));
  Value high = q.max(reduce(ReduceMaxOp()), q.c(*x, 0));
  Value scale = q.div(q.sub(high, low), q.c(*x, 255));
  Type u8 = IntegerType::get(ctx.context(), 8, IntegerType::Unsigned);
  Value zeroPointFloat =
      q.saturate(q.roundHalfEven(q.sub(q.c(*x, 0), q.div(low, scale))), u8);
  Value y = q.quantize(*x, scale, zeroPointFloat, u8);
  if (!y || !scale || !zeroPointFloat)
    return failure();
  ctx.setOutput(0, y);
  ctx.setOutput(1, scale);
  ctx.setOutput(2, q.toType(zeroPointFloat, u8));
  return success();
}

/// The zero point of an integer op's input, checked against its type.
FailureOr<Value> zeroPointOf(ImportContext &ctx, int index, Value input,
                             llvm::StringRef what) {
  Value zeroPoint = ctx.input(index);
  if (zeroPoint && elementTypeOf(zeroPoint) != elementTypeOf(input))
    return ctx.error() << what << " must have the type of its input ("
                       << elementTypeOf(input) << "), got "
                       << elementTypeOf(zeroPoint);
  return zeroPoint;
}

/// (A - a_zp) @ (B - b_zp) in i32: a_zp per row of A or scalar, b_zp per
/// column of B or scalar.
FailureOr<Value> integerMatmul(Quantizer &q, ImportContext &ctx, Value a,
                               Value aZero, Value b, Value bZero) {
  if (!isQuantizedType(elementTypeOf(a)) || !isQuantizedType(elementTypeOf(b)))
    return ctx.error() << "A and B must be int8 or uint8";
  if (shapeOf(a).size() < 2 || shapeOf(b).size() < 2)
    return ctx.error() << "A and B must have rank 2 or more";
  Type i32 = IntegerType::get(ctx.context(), 32);
  if (aZero && shapeOf(aZero).size() == 1 && shapeOf(aZero)[0] != 1) {
    // One zero point per row of A.
    if (shapeOf(aZero)[0] != shapeOf(a)[shapeOf(a).size() - 2])
      return ctx.error() << "a_zero_point must be a scalar or have one value "
                            "per row of A";
    aZero = reshapeTo(ctx, aZero, {shapeOf(aZero)[0], 1});
  }
  if (bZero && shapeOf(bZero).size() == 1 && shapeOf(bZero)[0] != 1 &&
      shapeOf(bZero)[0] != shapeOf(b).back())
    return ctx.error() << "b_zero_point must be a scalar or have one value "
                          "per column of B";
  Value product = q.matmul(q.centred(a, aZero, i32), q.centred(b, bZero, i32));
  if (!product)
    return failure();
  return product;
}

LogicalResult convertMatMulInteger(ImportContext &ctx) {
  FailureOr<Value> a = ctx.requiredInput(0, "A");
  FailureOr<Value> b = ctx.requiredInput(1, "B");
  if (failed(a) || failed(b))
    return failure();
  FailureOr<Value> aZero = zeroPointOf(ctx, 2, *a, "a_zero_point");
  FailureOr<Value> bZero = zeroPointOf(ctx, 3, *b, "b_zero_point");
  if (failed(aZero) || failed(bZero))
    return failure();
  Quantizer q(ctx);
  FailureOr<Value> product = integerMatmul(q, ctx, *a, *aZero, *b, *bZero);
  if (failed(product))
    return failure();
  ctx.setOutput(0, *product);
  return success();
}

/// (x - x_zp) conv (w - w_zp), exact in f64; w_zp per output channel or
/// scalar.
FailureOr<Value> integerConv(Quantizer &q, ImportContext &ctx, Value x,
                             Value xZero, Value w, Value wZero) {
  if (!isQuantizedType(elementTypeOf(x)) || !isQuantizedType(elementTypeOf(w)))
    return ctx.error() << "x and w must be int8 or uint8";
  Type f64 = Float64Type::get(ctx.context());
  if (wZero && shapeOf(wZero).size() == 1 && shapeOf(wZero)[0] != 1) {
    FailureOr<Value> perChannel = q.alongAxis(wZero, 0, w, "w_zero_point");
    if (failed(perChannel))
      return failure();
    wZero = *perChannel;
  }
  return buildConvolution(ctx, q.centred(x, xZero, f64),
                          q.centred(w, wZero, f64), Value());
}

LogicalResult convertConvInteger(ImportContext &ctx) {
  FailureOr<Value> x = ctx.requiredInput(0, "x");
  FailureOr<Value> w = ctx.requiredInput(1, "w");
  if (failed(x) || failed(w))
    return failure();
  FailureOr<Value> xZero = zeroPointOf(ctx, 2, *x, "x_zero_point");
  FailureOr<Value> wZero = zeroPointOf(ctx, 3, *w, "w_zero_point");
  if (failed(xZero) || failed(wZero))
    return failure();
  Quantizer q(ctx);
  FailureOr<Value> sums = integerConv(q, ctx, *x, *xZero, *w, *wZero);
  if (failed(sums))
    return failure();
  return q.output(q.toType(*sums, IntegerType::get(ctx.context(), 32)));
}

/// acc * (aScale * bScale / yScale), rounded, plus yZero, saturated to
/// yZero's type (per-channel scales already shaped to broadcast).
Value requantize(Quantizer &q, Value acc, Value aScale, Value bScale,
                 Value yScale, Value yZero) {
  Value multiplier = q.div(q.mul(aScale, bScale), yScale);
  Value scaled = q.mul(q.toType(acc, elementTypeOf(multiplier)), multiplier);
  Type element = elementTypeOf(yZero);
  Value r =
      q.add(q.roundHalfEven(scaled), q.toType(yZero, elementTypeOf(scaled)));
  return q.toType(q.saturate(r, element), element);
}

/// Inputs 0.. of the node, all required, named as in the ONNX spec.
FailureOr<SmallVector<Value>> requiredInputs(ImportContext &ctx,
                                             ArrayRef<const char *> names) {
  SmallVector<Value> inputs;
  for (auto [index, name] : llvm::enumerate(names)) {
    FailureOr<Value> value = ctx.requiredInput(index, name);
    if (failed(value))
      return failure();
    inputs.push_back(*value);
  }
  return inputs;
}

LogicalResult convertQLinearMatMul(ImportContext &ctx) {
  FailureOr<SmallVector<Value>> inputs = requiredInputs(
      ctx, {"a",       "a_scale",     "a_zero_point",
            "b",       "b_scale",     "b_zero_point",
            "y_scale", "y_zero_point"});
  if (failed(inputs))
    return failure();
  ArrayRef<Value> in = *inputs;
  Quantizer q(ctx);
  FailureOr<Value> acc = integerMatmul(q, ctx, in[0], in[2], in[3], in[5]);
  if (failed(acc))
    return failure();
  // b_scale may be per column (the last dimension broadcasts as it is).
  return q.output(requantize(q, *acc, in[1], in[4], in[6], in[7]));
}

LogicalResult convertQLinearConv(ImportContext &ctx) {
  FailureOr<SmallVector<Value>> inputs = requiredInputs(
      ctx, {"x",       "x_scale",     "x_zero_point",
            "w",       "w_scale",     "w_zero_point",
            "y_scale", "y_zero_point"});
  if (failed(inputs))
    return failure();
  ArrayRef<Value> in = *inputs;
  Quantizer q(ctx);
  FailureOr<Value> acc = integerConv(q, ctx, in[0], in[2], in[3], in[5]);
  if (failed(acc))
    return failure();
  // The bias is int32 in the accumulator's scale (x_scale * w_scale).
  Value sums = *acc;
  if (Value bias = ctx.input(8)) {
    FailureOr<Value> b = q.alongAxis(bias, 1, sums, "B");
    if (failed(b))
      return failure();
    sums = q.add(sums, q.toType(*b, elementTypeOf(sums)));
  }
  FailureOr<Value> wScale = q.alongAxis(in[4], 1, sums, "w_scale");
  if (failed(wScale))
    return failure();
  return q.output(requantize(q, sums, in[1], *wScale, in[6], in[7]));
}

} // namespace

void registerQuantizationConverters(ConverterRegistry &r) {
  r.add("QuantizeLinear", 10, convertQuantizeLinear);
  r.add("DequantizeLinear", 10, convertDequantizeLinear);
  r.add("DynamicQuantizeLinear", 11, convertDynamicQuantizeLinear);
  r.add("MatMulInteger", 10, convertMatMulInteger);
  r.add("ConvInteger", 10, convertConvInteger);
  r.add("QLinearMatMul", 10, convertQLinearMatMul);
  r.add("QLinearConv", 10, convertQLinearConv);
}

} // namespace kiln::onnx
