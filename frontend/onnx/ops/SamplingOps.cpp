//===- SamplingOps.cpp - ONNX GridSample -> kiln --------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// GridSample reads the input at coordinates computed at run time. Each tap
// of the interpolation (1 nearest, 4 bilinear, 16 bicubic) is one
// kiln.gather of the input laid out as [N * H * W, C] at the linear index
// n * H * W + y * W + x, weighted and masked elementwise. The coordinate
// rules (unnormalisation, border clamping, reflection, the cubic
// coefficients with A = -0.75) are the ONNX specification's, which follows
// PyTorch's grid_sample.
//
//===----------------------------------------------------------------------===//

#include "frontend/onnx/ops/Common.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;

namespace kiln::onnx {

namespace {

enum class SampleMode { Nearest, Bilinear, Bicubic };
enum class SamplePadding { Zeros, Border, Reflection };

/// Elementwise expressions in one float type; every helper returns null
/// after a failure (already reported at the node) and propagates nulls.
class Sampler {
public:
  Sampler(ImportContext &ctx, Type element) : ctx_(ctx), element_(element) {}

  Value c(double value) { return scalarConstant(ctx_, element_, value); }
  template <typename OpTy> Value binary(Value a, Value b) {
    if (!a || !b)
      return {};
    FailureOr<Value> r = buildBroadcast<OpTy>(ctx_, a, b);
    return succeeded(r) ? *r : Value();
  }
  template <typename OpTy> Value unary(Value x) {
    if (!x)
      return {};
    return ctx_.finish(OpTy::create(ctx_.builder(), ctx_.loc(), x.getType(), x));
  }
  Value add(Value a, Value b) { return binary<AddOp>(a, b); }
  Value sub(Value a, Value b) { return binary<SubOp>(a, b); }
  Value mul(Value a, Value b) { return binary<MulOp>(a, b); }
  Value div(Value a, Value b) { return binary<DivOp>(a, b); }
  Value clamp(Value x, double low, double high) {
    return binary<MinOp>(binary<MaxOp>(x, c(low)), c(high));
  }
  Value cmp(ComparePredicate p, Value a, Value b) {
    if (!a || !b)
      return {};
    SmallVector<Type> types;
    if (failed(kiln::inferBroadcastElementwise(ctx_.loc(), ValueRange{a, b},
                                               ctx_.builder().getI1Type(),
                                               types)))
      return {};
    return ctx_.finish(
        CompareOp::create(ctx_.builder(), ctx_.loc(), types[0], p, a, b));
  }
  Value select(Value cond, Value a, Value b) {
    if (!cond || !a || !b)
      return {};
    SmallVector<Type> types;
    if (failed(kiln::inferSelect(ctx_.loc(), cond.getType(), a.getType(),
                                 b.getType(), types)))
      return {};
    return ctx_.finish(
        SelectOp::create(ctx_.builder(), ctx_.loc(), types[0], cond, a, b));
  }

  /// Round half to even (nearbyint), as the nearest mode does.
  Value roundEven(Value x) {
    Value r = unary<FloorOp>(add(x, c(0.5)));
    Value tie = cmp(ComparePredicate::eq, sub(r, x), c(0.5));
    Value odd = cmp(ComparePredicate::ne, binary<RemOp>(r, c(2.0)), c(0.0));
    return select(binary<AndOp>(tie, odd), sub(r, c(1.0)), r);
  }

  /// Reflects x into [twiceLow / 2, twiceHigh / 2] (PyTorch's
  /// reflect_coordinates).
  Value reflect(Value x, double twiceLow, double twiceHigh) {
    if (twiceLow == twiceHigh)
      return mul(x, c(0.0));
    double low = twiceLow / 2, span = (twiceHigh - twiceLow) / 2;
    Value distance = unary<AbsOp>(sub(x, c(low)));
    Value extra = binary<RemOp>(distance, c(span));
    Value flips = unary<FloorOp>(div(distance, c(span)));
    Value even = cmp(ComparePredicate::eq, binary<RemOp>(flips, c(2.0)), c(0.0));
    return select(even, add(extra, c(low)), add(sub(c(span), extra), c(low)));
  }

  /// A coordinate moved inside [0, size - 1] by the padding mode (zeros
  /// leaves it: out-of-range taps read 0).
  Value pad(Value x, int64_t size, SamplePadding padding, bool alignCorners) {
    if (padding == SamplePadding::Border)
      return clamp(x, 0, double(size - 1));
    if (padding == SamplePadding::Reflection) {
      Value reflected = alignCorners ? reflect(x, 0, 2.0 * (size - 1))
                                     : reflect(x, -1, 2.0 * size - 1);
      return clamp(reflected, 0, double(size - 1));
    }
    return x;
  }

private:
  ImportContext &ctx_;
  Type element_;
};

LogicalResult convertGridSample(ImportContext &ctx) {
  FailureOr<Value> x = ctx.requiredInput(0, "X");
  FailureOr<Value> grid = ctx.requiredInput(1, "grid");
  FailureOr<int64_t> alignCornersAttr = ctx.intAttr("align_corners", 0);
  FailureOr<std::string> modeAttr = ctx.stringAttr("mode", "bilinear");
  FailureOr<std::string> paddingAttr = ctx.stringAttr("padding_mode", "zeros");
  if (failed(x) || failed(grid) || failed(alignCornersAttr) ||
      failed(modeAttr) || failed(paddingAttr))
    return failure();
  SampleMode mode;
  if (*modeAttr == "nearest")
    mode = SampleMode::Nearest;
  else if (*modeAttr == "bilinear")
    mode = SampleMode::Bilinear;
  else if (*modeAttr == "bicubic")
    mode = SampleMode::Bicubic;
  else
    return ctx.error() << "unknown mode '" << *modeAttr << "'";
  SamplePadding padding;
  if (*paddingAttr == "zeros")
    padding = SamplePadding::Zeros;
  else if (*paddingAttr == "border")
    padding = SamplePadding::Border;
  else if (*paddingAttr == "reflection")
    padding = SamplePadding::Reflection;
  else
    return ctx.error() << "unknown padding_mode '" << *paddingAttr << "'";
  bool alignCorners = *alignCornersAttr != 0;
  ArrayRef<int64_t> xShape = shapeOf(*x), gShape = shapeOf(*grid);
  Type element = elementTypeOf(*x);
  if (!isa<FloatType>(element) || elementTypeOf(*grid) != element)
    return ctx.error() << "X and grid must be floating-point tensors of one "
                          "element type";
  if (xShape.size() != 4 || gShape.size() != 4 || gShape[0] != xShape[0] ||
      gShape[3] != 2) {
    if (xShape.size() > 4 && gShape.size() == xShape.size())
      ctx.markUnsupported();
    return ctx.error() << "only 2-D sampling is supported: X must be "
                          "[N, C, H, W] and grid [N, H_out, W_out, 2]";
  }
  int64_t n = xShape[0], channels = xShape[1], h = xShape[2], w = xShape[3];
  int64_t ho = gShape[1], wo = gShape[2];
  if (h * w * n > (int64_t(1) << 40) || h == 0 || w == 0)
    return ctx.error() << "X must have non-empty spatial dimensions";
  Sampler s(ctx, element);

  // grid[..., 0] is x (width), grid[..., 1] is y (height), in [-1, 1].
  auto component = [&](int64_t i) {
    SmallVector<Type> types;
    SmallVector<int64_t> starts = {0, 0, 0, i}, limits = {n, ho, wo, i + 1},
                         steps = {1, 1, 1, 1};
    (void)kiln::inferSlice(ctx.loc(), grid->getType(), starts, limits, steps,
                           types);
    Value slice = ctx.finish(SliceOp::create(ctx.builder(), ctx.loc(),
                                             types[0], *grid, starts, limits,
                                             steps));
    return reshapeTo(ctx, slice, {n, ho, wo, 1});
  };
  auto unnormalize = [&](Value g, int64_t size) {
    // align_corners: -1 and 1 are the centres of the corner pixels;
    // otherwise their outer edges.
    if (alignCorners)
      return s.mul(s.add(g, s.c(1)), s.c(double(size - 1) / 2));
    return s.div(s.sub(s.mul(s.add(g, s.c(1)), s.c(double(size))), s.c(1)),
                 s.c(2));
  };
  Value ix = unnormalize(component(0), w);
  Value iy = unnormalize(component(1), h);

  // X as a table of [N * H * W, C] rows; batch offsets [N, 1, 1, 1].
  SmallVector<Type> types;
  SmallVector<int64_t> perm = {0, 2, 3, 1};
  if (failed(kiln::inferTranspose(ctx.loc(), x->getType(), perm, types)))
    return failure();
  Value table = reshapeTo(
      ctx,
      ctx.finish(TransposeOp::create(ctx.builder(), ctx.loc(), types[0], *x,
                                     perm)),
      {n * h * w, channels});
  SmallVector<int64_t> offsets;
  for (int64_t i = 0; i < n; ++i)
    offsets.push_back(i * h * w);
  Type i64 = ctx.builder().getI64Type();
  Value batchOffset = ctx.constant(DenseElementsAttr::get(
      RankedTensorType::get({n, 1, 1, 1}, i64), ArrayRef<int64_t>(offsets)));

  // The input at integer-valued coordinates (xi, yi) [N, Ho, Wo, 1], times
  // `weight`, as [N, Ho, Wo, C]; taps outside the input read 0.
  auto tap = [&](Value xi, Value yi, Value weight) -> Value {
    Value inside = s.binary<AndOp>(
        s.binary<AndOp>(s.cmp(ComparePredicate::ge, xi, s.c(0)),
                        s.cmp(ComparePredicate::le, xi, s.c(double(w - 1)))),
        s.binary<AndOp>(s.cmp(ComparePredicate::ge, yi, s.c(0)),
                        s.cmp(ComparePredicate::le, yi, s.c(double(h - 1)))));
    Value xc = s.clamp(xi, 0, double(w - 1));
    Value yc = s.clamp(yi, 0, double(h - 1));
    if (!inside || !xc || !yc)
      return {};
    Value linear = s.binary<AddOp>(
        s.binary<AddOp>(batchOffset, s.binary<MulOp>(
                                         castTo(ctx, yc, i64),
                                         scalarConstant(ctx, i64, double(w)))),
        castTo(ctx, xc, i64));
    if (!linear)
      return {};
    Value index = reshapeTo(ctx, linear, {n, ho, wo});
    SmallVector<Type> gathered;
    if (failed(kiln::inferGather(ctx.loc(), table.getType(), index.getType(),
                                 0, gathered)))
      return {};
    Value values = ctx.finish(GatherOp::create(ctx.builder(), ctx.loc(),
                                               gathered[0], table, index, 0));
    return s.mul(values, s.select(inside, weight, s.c(0)));
  };

  Value sum;
  auto accumulate = [&](Value v) { sum = sum ? s.add(sum, v) : v; };
  if (mode == SampleMode::Nearest) {
    Value px = s.roundEven(s.pad(ix, w, padding, alignCorners));
    Value py = s.roundEven(s.pad(iy, h, padding, alignCorners));
    accumulate(tap(px, py, s.c(1)));
  } else if (mode == SampleMode::Bilinear) {
    Value px = s.pad(ix, w, padding, alignCorners);
    Value py = s.pad(iy, h, padding, alignCorners);
    Value x0 = s.unary<FloorOp>(px), y0 = s.unary<FloorOp>(py);
    Value fx = s.sub(px, x0), fy = s.sub(py, y0);
    Value x1 = s.add(x0, s.c(1)), y1 = s.add(y0, s.c(1));
    Value gx = s.sub(s.c(1), fx), gy = s.sub(s.c(1), fy);
    accumulate(tap(x0, y0, s.mul(gx, gy)));
    accumulate(tap(x1, y0, s.mul(fx, gy)));
    accumulate(tap(x0, y1, s.mul(gx, fy)));
    accumulate(tap(x1, y1, s.mul(fx, fy)));
  } else {
    // Bicubic: 4 x 4 taps around floor(coordinate); each tap's integer
    // coordinate is padded on its own.
    const double a = -0.75;
    auto coefficients = [&](Value t) {
      // Keys' cubic convolution kernel at distances t + 1, t, 1 - t, 2 - t.
      auto outer = [&](Value d) {
        return s.sub(s.mul(s.add(s.mul(s.sub(s.mul(s.c(a), d), s.c(5 * a)), d),
                                 s.c(8 * a)),
                           d),
                     s.c(4 * a));
      };
      auto inner = [&](Value d) {
        return s.add(s.mul(s.mul(s.sub(s.mul(s.c(a + 2), d), s.c(a + 3)), d),
                           d),
                     s.c(1));
      };
      Value oneMinus = s.sub(s.c(1), t);
      return std::array<Value, 4>{outer(s.add(t, s.c(1))), inner(t),
                                  inner(oneMinus),
                                  outer(s.add(oneMinus, s.c(1)))};
    };
    Value x0 = s.unary<FloorOp>(ix), y0 = s.unary<FloorOp>(iy);
    std::array<Value, 4> cx = coefficients(s.sub(ix, x0));
    std::array<Value, 4> cy = coefficients(s.sub(iy, y0));
    for (int64_t i = 0; i < 4; ++i) {
      Value yi = s.pad(s.add(y0, s.c(double(i - 1))), h, padding, alignCorners);
      for (int64_t j = 0; j < 4; ++j) {
        Value xj =
            s.pad(s.add(x0, s.c(double(j - 1))), w, padding, alignCorners);
        accumulate(tap(xj, yi, s.mul(cx[j], cy[i])));
      }
    }
  }
  if (!sum)
    return failure();
  // [N, Ho, Wo, C] -> [N, C, Ho, Wo].
  types.clear();
  SmallVector<int64_t> back = {0, 3, 1, 2};
  if (failed(kiln::inferTranspose(ctx.loc(), sum.getType(), back, types)))
    return failure();
  ctx.setOutput(0, ctx.finish(TransposeOp::create(ctx.builder(), ctx.loc(),
                                                  types[0], sum, back)));
  return success();
}

} // namespace

void registerSamplingConverters(ConverterRegistry &r) {
  r.add("GridSample", 16, convertGridSample);
}

} // namespace kiln::onnx
