//===- CompositeOps.cpp - ONNX ops expressed with several kiln ops --------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Activations and math that the kiln dialect does not need as ops of their
// own: each is a short expression of kiln ops (which fusion will put back
// into one kernel). The Expr helper keeps those expressions readable.
//
//===----------------------------------------------------------------------===//

#include "frontend/onnx/ops/Common.h"
#include "frontend/onnx/ops/Expr.h"

#include <cmath>

using namespace mlir;

namespace kiln::onnx {

namespace {


/// A float attribute, or `fallback`; null Value-style failure is reported.
double attr(ImportContext &ctx, llvm::StringRef name, double fallback,
            bool &ok) {
  FailureOr<float> value = ctx.floatAttr(name, float(fallback));
  ok &= succeeded(value);
  return succeeded(value) ? double(*value) : fallback;
}

LogicalResult convertElu(ImportContext &ctx) {
  bool ok = true;
  double alpha = attr(ctx, "alpha", 1.0, ok);
  FailureOr<Value> x = ctx.requiredInput(0, "X");
  if (!ok || failed(x))
    return failure();
  Expr e(ctx);
  // x > 0 ? x : alpha * (exp(x) - 1)
  Value negative = e.mul(e.c(*x, alpha), e.sub(e.unary<ExpOp>(*x), e.c(*x, 1)));
  return e.output(e.select(e.cmp(ComparePredicate::gt, *x, e.c(*x, 0)), *x,
                           negative));
}

LogicalResult convertCelu(ImportContext &ctx) {
  bool ok = true;
  double alpha = attr(ctx, "alpha", 1.0, ok);
  FailureOr<Value> x = ctx.requiredInput(0, "X");
  if (!ok || failed(x))
    return failure();
  Expr e(ctx);
  // max(0, x) + min(0, alpha * (exp(x / alpha) - 1))
  Value scaled = e.mul(
      e.c(*x, alpha),
      e.sub(e.unary<ExpOp>(e.div(*x, e.c(*x, alpha))), e.c(*x, 1)));
  return e.output(
      e.add(e.max(*x, e.c(*x, 0)), e.min(e.c(*x, 0), scaled)));
}

LogicalResult convertSelu(ImportContext &ctx) {
  bool ok = true;
  double alpha = attr(ctx, "alpha", 1.67326319217681884765625, ok);
  double gamma = attr(ctx, "gamma", 1.05070102214813232421875, ok);
  FailureOr<Value> x = ctx.requiredInput(0, "X");
  if (!ok || failed(x))
    return failure();
  Expr e(ctx);
  Value negative =
      e.mul(e.c(*x, alpha), e.sub(e.unary<ExpOp>(*x), e.c(*x, 1)));
  return e.output(e.mul(
      e.c(*x, gamma),
      e.select(e.cmp(ComparePredicate::gt, *x, e.c(*x, 0)), *x, negative)));
}

LogicalResult convertThresholdedRelu(ImportContext &ctx) {
  bool ok = true;
  double alpha = attr(ctx, "alpha", 1.0, ok);
  FailureOr<Value> x = ctx.requiredInput(0, "X");
  if (!ok || failed(x))
    return failure();
  Expr e(ctx);
  return e.output(e.select(e.cmp(ComparePredicate::gt, *x, e.c(*x, alpha)),
                           *x, e.c(*x, 0)));
}

LogicalResult convertPRelu(ImportContext &ctx) {
  FailureOr<Value> x = ctx.requiredInput(0, "X");
  FailureOr<Value> slope = ctx.requiredInput(1, "slope");
  if (failed(x) || failed(slope))
    return failure();
  // Before opset 7 a 1-D slope is per channel (axis 1), not per last axis.
  ArrayRef<int64_t> shape = shapeOf(*x);
  if (ctx.opset() < 7 && shapeOf(*slope).size() == 1 && shape.size() > 2 &&
      shapeOf(*slope)[0] == shape[1] && shape[1] != 1) {
    SmallVector<int64_t> perChannel(shape.size() - 1, 1);
    perChannel[0] = shape[1];
    *slope = reshapeTo(ctx, *slope, perChannel);
  }
  Expr e(ctx);
  return e.output(e.select(e.cmp(ComparePredicate::lt, *x, e.c(*x, 0)),
                           e.mul(*x, *slope), *x));
}

/// softplus(x) = log(1 + exp(x)), computed as max(x, 0) + log(1 + exp(-|x|))
/// so that large inputs do not overflow.
Value softplus(Expr &e, Value x) {
  Value negAbs = e.unary<NegOp>(e.unary<AbsOp>(x));
  return e.add(e.max(x, e.c(x, 0)),
               e.unary<LogOp>(e.add(e.c(x, 1), e.unary<ExpOp>(negAbs))));
}

LogicalResult convertSoftplus(ImportContext &ctx) {
  FailureOr<Value> x = ctx.requiredInput(0, "X");
  if (failed(x))
    return failure();
  Expr e(ctx);
  return e.output(softplus(e, *x));
}

LogicalResult convertSoftsign(ImportContext &ctx) {
  FailureOr<Value> x = ctx.requiredInput(0, "X");
  if (failed(x))
    return failure();
  Expr e(ctx);
  return e.output(e.div(*x, e.add(e.c(*x, 1), e.unary<AbsOp>(*x))));
}

LogicalResult convertShrink(ImportContext &ctx) {
  bool ok = true;
  double bias = attr(ctx, "bias", 0.0, ok);
  double lambd = attr(ctx, "lambd", 0.5, ok);
  FailureOr<Value> x = ctx.requiredInput(0, "input");
  if (!ok || failed(x))
    return failure();
  Expr e(ctx);
  Value low = e.cmp(ComparePredicate::lt, *x, e.c(*x, -lambd));
  Value high = e.cmp(ComparePredicate::gt, *x, e.c(*x, lambd));
  return e.output(e.select(
      low, e.add(*x, e.c(*x, bias)),
      e.select(high, e.sub(*x, e.c(*x, bias)), e.c(*x, 0))));
}

LogicalResult convertTan(ImportContext &ctx) {
  FailureOr<Value> x = ctx.requiredInput(0, "input");
  if (failed(x))
    return failure();
  Expr e(ctx);
  return e.output(e.div(e.unary<SinOp>(*x), e.unary<CosOp>(*x)));
}

/// sinh and cosh from exp.
template <bool IsSinh> LogicalResult convertHyperbolic(ImportContext &ctx) {
  FailureOr<Value> x = ctx.requiredInput(0, "input");
  if (failed(x))
    return failure();
  Expr e(ctx);
  Value up = e.unary<ExpOp>(*x), down = e.unary<ExpOp>(e.unary<NegOp>(*x));
  Value sum = IsSinh ? e.sub(up, down) : e.add(up, down);
  return e.output(e.mul(sum, e.c(*x, 0.5)));
}

LogicalResult convertIsNaN(ImportContext &ctx) {
  FailureOr<Value> x = ctx.requiredInput(0, "X");
  if (failed(x))
    return failure();
  Expr e(ctx);
  // Only NaN is unequal to itself.
  return e.output(e.cmp(ComparePredicate::ne, *x, *x));
}

LogicalResult convertIsInf(ImportContext &ctx) {
  FailureOr<Value> x = ctx.requiredInput(0, "X");
  FailureOr<int64_t> negative = ctx.intAttr("detect_negative", 1);
  FailureOr<int64_t> positive = ctx.intAttr("detect_positive", 1);
  if (failed(x) || failed(negative) || failed(positive))
    return failure();
  if (!isa<FloatType>(elementTypeOf(*x)))
    return ctx.error() << "X must be a floating-point tensor";
  Expr e(ctx);
  Value plus = e.cmp(ComparePredicate::eq, *x, e.c(*x, INFINITY));
  Value minus = e.cmp(ComparePredicate::eq, *x, e.c(*x, -INFINITY));
  Value result = *positive && *negative ? e.orOf(plus, minus)
                 : *positive             ? plus
                 : *negative             ? minus
                                         // Neither: false everywhere.
                                         : e.cmp(ComparePredicate::ne,
                                                 e.c(*x, 0), e.c(*x, 0));
  return e.output(result);
}

LogicalResult convertRound(ImportContext &ctx) {
  FailureOr<Value> x = ctx.requiredInput(0, "X");
  if (failed(x))
    return failure();
  Expr e(ctx);
  return e.output(e.roundHalfEven(*x));
}

/// InstanceNormalization: per sample and channel over the spatial
/// dimensions, then per-channel scale and bias.
LogicalResult convertInstanceNorm(ImportContext &ctx) {
  FailureOr<Value> x = ctx.requiredInput(0, "input");
  FailureOr<Value> scale = ctx.requiredInput(1, "scale");
  FailureOr<Value> bias = ctx.requiredInput(2, "B");
  bool ok = true;
  double epsilon = attr(ctx, "epsilon", 1e-5, ok);
  if (failed(x) || failed(scale) || failed(bias) || !ok)
    return failure();
  ArrayRef<int64_t> shape = shapeOf(*x);
  if (shape.size() < 3)
    return ctx.error() << "input must have rank >= 3 ([N, C, ...])";
  for (Value parameter : {*scale, *bias})
    if (shapeOf(parameter) != ArrayRef<int64_t>{shape[1]})
      return ctx.error() << "scale and B must have one value per channel ("
                         << shape[1] << ")";
  SmallVector<int64_t> axes = llvm::to_vector(llvm::seq<int64_t>(2, shape.size()));
  Expr e(ctx);
  auto mean = [&](Value v) -> Value {
    if (!v)
      return {};
    SmallVector<Type> types;
    if (failed(kiln::inferReduce(ctx.loc(), v.getType(), axes, true, types)))
      return {};
    return ctx.finish(ReduceMeanOp::create(ctx.builder(), ctx.loc(), types[0],
                                           v, axes, true));
  };
  Value centered = e.sub(*x, mean(*x));
  Value variance = mean(e.mul(centered, centered));
  Value normalized = e.div(
      centered, e.unary<SqrtOp>(e.add(variance, e.c(*x, epsilon))));
  // [C] -> [C, 1, ...] to broadcast along channels.
  SmallVector<int64_t> channel(shape.size() - 1, 1);
  channel[0] = shape[1];
  return e.output(e.add(e.mul(normalized, reshapeTo(ctx, *scale, channel)),
                        reshapeTo(ctx, *bias, channel)));
}

/// MeanVarianceNormalization, as ONNX's function body spells it:
/// (x - E[x]) / (sqrt(E[x^2] - E[x]^2) + 1e-9) over `axes`.
LogicalResult convertMeanVarianceNorm(ImportContext &ctx) {
  FailureOr<Value> x = ctx.requiredInput(0, "X");
  FailureOr<std::optional<SmallVector<int64_t>>> axesAttr =
      ctx.intsAttr("axes");
  if (failed(x) || failed(axesAttr))
    return failure();
  if (!isa<FloatType>(elementTypeOf(*x)))
    return ctx.error() << "X must be a floating-point tensor";
  int64_t rank = shapeOf(*x).size();
  SmallVector<int64_t> axes;
  for (int64_t axis : axesAttr->value_or(SmallVector<int64_t>{0, 2, 3})) {
    FailureOr<int64_t> normalized = normalizeAxisAt(ctx, axis, rank);
    if (failed(normalized))
      return failure();
    axes.push_back(*normalized);
  }
  llvm::sort(axes);
  if (std::adjacent_find(axes.begin(), axes.end()) != axes.end())
    return ctx.error() << "axes must not repeat";
  Expr e(ctx);
  auto mean = [&](Value v) -> Value {
    if (!v)
      return {};
    SmallVector<Type> types;
    if (failed(kiln::inferReduce(ctx.loc(), v.getType(), axes, true, types)))
      return {};
    return ctx.finish(ReduceMeanOp::create(ctx.builder(), ctx.loc(), types[0],
                                           v, axes, true));
  };
  Value average = mean(*x);
  Value variance = e.sub(mean(e.mul(*x, *x)), e.mul(average, average));
  Value deviation = e.add(e.unary<SqrtOp>(variance), e.c(*x, 1e-9));
  return e.output(e.div(e.sub(*x, average), deviation));
}

/// LRN: x / (bias + alpha / size * s)^beta, where s sums x^2 over the
/// `size` neighbouring channels (zero-padded at the ends): a pad of the
/// squares along the channels and `size` shifted slices added up.
LogicalResult convertLrn(ImportContext &ctx) {
  FailureOr<Value> x = ctx.requiredInput(0, "X");
  FailureOr<int64_t> size = ctx.intAttr("size", 0);
  bool ok = true;
  double alpha = attr(ctx, "alpha", 0.0001, ok);
  double beta = attr(ctx, "beta", 0.75, ok);
  double bias = attr(ctx, "bias", 1.0, ok);
  if (failed(x) || failed(size) || !ok)
    return failure();
  ArrayRef<int64_t> shape = shapeOf(*x);
  int64_t rank = shape.size();
  if (rank < 3 || !isa<FloatType>(elementTypeOf(*x)))
    return ctx.error() << "X must be a floating-point [N, C, ...] tensor";
  if (*size <= 0 || *size > 1024)
    return ctx.error() << "size must be in [1, 1024], not " << *size;
  Expr e(ctx);
  Value squares = e.mul(*x, *x);
  if (!squares)
    return failure();
  SmallVector<int64_t> low(rank, 0), high(rank, 0);
  low[1] = (*size - 1) / 2;
  high[1] = *size - 1 - low[1];
  SmallVector<Type> types;
  if (failed(kiln::inferPad(ctx.loc(), squares.getType(), low, high,
                            PadMode::constant, types)))
    return failure();
  Value padded =
      ctx.finish(PadOp::create(ctx.builder(), ctx.loc(), types[0], squares, low,
                               high, PadMode::constant, APFloat(0.0)));
  Value sum;
  for (int64_t j = 0; j < *size; ++j) {
    SmallVector<int64_t> starts(rank, 0), limits(shape), steps(rank, 1);
    starts[1] = j;
    limits[1] = j + shape[1];
    types.clear();
    if (failed(kiln::inferSlice(ctx.loc(), padded.getType(), starts, limits,
                                steps, types)))
      return failure();
    Value window = ctx.finish(SliceOp::create(
        ctx.builder(), ctx.loc(), types[0], padded, starts, limits, steps));
    sum = sum ? e.add(sum, window) : window;
  }
  Value base = e.add(e.c(*x, bias), e.mul(e.c(*x, alpha / double(*size)), sum));
  Value scale = e.binary<PowOp>(base, e.c(*x, beta));
  return e.output(e.div(*x, scale));
}

/// DepthToSpace / SpaceToDepth are a reshape, a transpose and a reshape.
template <bool ToSpace> LogicalResult convertDepthSpace(ImportContext &ctx) {
  FailureOr<Value> x = ctx.requiredInput(0, "input");
  FailureOr<int64_t> block = ctx.intAttr("blocksize", 0);
  FailureOr<std::string> mode = ctx.stringAttr("mode", "DCR");
  if (failed(x) || failed(block) || failed(mode))
    return failure();
  ArrayRef<int64_t> s = shapeOf(*x);
  int64_t b = *block;
  // b * b must not overflow: no real blocksize is anywhere near this.
  if (s.size() != 4 || b <= 0 || b > (1 << 16))
    return ctx.error() << "expects a 4-D input and a blocksize in [1, 65536]";
  if (*mode != "DCR" && *mode != "CRD")
    return ctx.error() << "unknown mode '" << *mode << "' (DCR or CRD)";
  if (!ToSpace && *mode != "DCR")
    return ctx.error() << "SpaceToDepth has no mode";
  int64_t n = s[0], c = s[1], h = s[2], w = s[3];
  SmallVector<int64_t> split, perm, result;
  if (ToSpace) {
    if (c % (b * b) != 0)
      return ctx.error() << "channels must be divisible by blocksize^2";
    if (*mode == "CRD") {
      split = {n, c / (b * b), b, b, h, w};
      perm = {0, 1, 4, 2, 5, 3};
    } else {
      split = {n, b, b, c / (b * b), h, w};
      perm = {0, 3, 4, 1, 5, 2};
    }
    result = {n, c / (b * b), h * b, w * b};
  } else {
    if (h % b != 0 || w % b != 0)
      return ctx.error() << "height and width must be divisible by blocksize";
    split = {n, c, h / b, b, w / b, b};
    perm = {0, 3, 5, 1, 2, 4};
    result = {n, c * b * b, h / b, w / b};
  }
  Value spread = reshapeTo(ctx, *x, split);
  SmallVector<Type> types;
  if (failed(kiln::inferTranspose(ctx.loc(), spread.getType(), perm, types)))
    return failure();
  Value moved = ctx.finish(
      TransposeOp::create(ctx.builder(), ctx.loc(), types[0], spread, perm));
  ctx.setOutput(0, reshapeTo(ctx, moved, result));
  return success();
}

} // namespace

void registerCompositeConverters(ConverterRegistry &r) {
  r.add("Elu", 6, convertElu);
  r.add("Celu", 12, convertCelu);
  r.add("Selu", 6, convertSelu);
  r.add("ThresholdedRelu", 10, convertThresholdedRelu);
  r.add("PRelu", 1, convertPRelu);
  r.add("Softplus", 1, convertSoftplus);
  r.add("Softsign", 1, convertSoftsign);
  r.add("Shrink", 9, convertShrink);
  r.add("Tan", 7, convertTan);
  r.add("Sinh", 9, convertHyperbolic<true>);
  r.add("Cosh", 9, convertHyperbolic<false>);
  r.add("IsNaN", 9, convertIsNaN);
  r.add("IsInf", 10, convertIsInf);
  r.add("Round", 11, convertRound);
  r.add("InstanceNormalization", 6, convertInstanceNorm);
  r.add("MeanVarianceNormalization", 9, convertMeanVarianceNorm);
  r.add("LRN", 1, convertLrn);
  r.add("DepthToSpace", 1, convertDepthSpace<true>);
  r.add("SpaceToDepth", 1, convertDepthSpace<false>);
}

} // namespace kiln::onnx
