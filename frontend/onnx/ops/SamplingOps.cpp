//===- SamplingOps.cpp - ONNX GridSample, Resize, Upsample -> kiln --------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Resize and Upsample resample one axis at a time (the interpolations are
// separable): a kiln.gather per tap of the window along the axis, weighted
// by coefficients computed, like the source coordinates, with kiln ops (so
// scales known only at run time work too).
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
#include "frontend/onnx/ops/Expr.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"

#include <cmath>

using namespace mlir;

namespace kiln::onnx {

namespace {

/// Most output elements along one resized axis (see convertResize).
constexpr int64_t kMaxResizedAxis = int64_t(1) << 24;

enum class SampleMode { Nearest, Bilinear, Bicubic };
enum class SamplePadding { Zeros, Border, Reflection };

/// Elementwise expressions in one float type; every helper returns null
/// after a failure (already reported at the node) and propagates nulls.
class Sampler : public Expr {
public:
  Sampler(ImportContext &ctx, Type element) : Expr(ctx), element_(element) {}

  using Expr::c;
  Value c(double value) { return scalarConstant(ctx_, element_, value); }
  Value clamp(Value x, double low, double high) {
    return min(max(x, c(low)), c(high));
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
    Value even =
        cmp(ComparePredicate::eq, binary<RemOp>(flips, c(2.0)), c(0.0));
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
    Value slice = ctx.finish(SliceOp::create(ctx.builder(), ctx.loc(), types[0],
                                             *grid, starts, limits, steps));
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
  Value table = reshapeTo(ctx,
                          ctx.finish(TransposeOp::create(
                              ctx.builder(), ctx.loc(), types[0], *x, perm)),
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
        s.binary<AddOp>(batchOffset,
                        s.binary<MulOp>(castTo(ctx, yc, i64),
                                        scalarConstant(ctx, i64, double(w)))),
        castTo(ctx, xc, i64));
    if (!linear)
      return {};
    Value index = reshapeTo(ctx, linear, {n, ho, wo});
    SmallVector<Type> gathered;
    if (failed(kiln::inferGather(ctx.loc(), table.getType(), index.getType(), 0,
                                 gathered)))
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
        return s.add(
            s.mul(s.mul(s.sub(s.mul(s.c(a + 2), d), s.c(a + 3)), d), d),
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

//===----------------------------------------------------------------------===//
// Resize, Upsample
//===----------------------------------------------------------------------===//

enum class CoordinateMode {
  HalfPixel,
  PytorchHalfPixel,
  AlignCorners,
  Asymmetric,
  TfHalfPixelForNN,
  TfCropAndResize
};
enum class NearestMode { RoundPreferFloor, RoundPreferCeil, Floor, Ceil };

struct ResizeOptions {
  SampleMode mode = SampleMode::Nearest;
  CoordinateMode coordinates = CoordinateMode::HalfPixel;
  NearestMode nearest = NearestMode::RoundPreferFloor;
  double cubicA = -0.75;
  bool excludeOutside = false;
  double extrapolation = 0.0;
};

/// `value` resized along `axis` to `out` elements, separably, as the ONNX
/// reference does it per axis: `scale` (f64, rank 0, possibly a run-time
/// value) and, for tf_crop_and_resize, the roi bounds `roiStart`/`roiEnd`
/// map each output index to a source coordinate; nearest picks one
/// element, linear and cubic weigh a window of 2 or 4 (edge-padded: the
/// window never leaves the padded range, as the reference's neighbour
/// search). Coordinates and weights are computed in f64.
Value resizeAxis(ImportContext &ctx, Value value, int64_t axis, int64_t out,
                 Value scale, Value roiStart, Value roiEnd,
                 const ResizeOptions &o) {
  Type f64 = ctx.builder().getF64Type(), i64 = ctx.builder().getI64Type();
  Type element = elementTypeOf(value);
  ArrayRef<int64_t> shape = shapeOf(value);
  int64_t rank = shape.size(), in = shape[axis];
  Sampler s(ctx, f64);
  SmallVector<double> ramp;
  for (int64_t i = 0; i < out; ++i)
    ramp.push_back(double(i));
  Value x = ctx.constant(DenseElementsAttr::get(
      RankedTensorType::get({out}, f64), ArrayRef<double>(ramp)));
  Value width = s.mul(scale, s.c(double(in)));
  Value widthIsOne = s.cmp(ComparePredicate::eq, width, s.c(1));
  Value halfPixel = s.sub(s.div(s.add(x, s.c(0.5)), scale), s.c(0.5));
  Value source;
  switch (o.coordinates) {
  case CoordinateMode::HalfPixel:
    source = halfPixel;
    break;
  case CoordinateMode::PytorchHalfPixel:
    source = s.select(widthIsOne, s.c(-0.5), halfPixel);
    break;
  case CoordinateMode::AlignCorners:
    source =
        s.select(widthIsOne, s.c(0),
                 s.div(s.mul(x, s.c(double(in - 1))), s.sub(width, s.c(1))));
    break;
  case CoordinateMode::Asymmetric:
    source = s.div(x, scale);
    break;
  case CoordinateMode::TfHalfPixelForNN:
    source = s.div(s.add(x, s.c(0.5)), scale);
    break;
  case CoordinateMode::TfCropAndResize: {
    Value extent = s.mul(s.sub(roiEnd, roiStart), s.c(double(in - 1)));
    source = s.add(s.select(widthIsOne, s.div(extent, s.c(2)),
                            s.div(s.mul(x, extent), s.sub(width, s.c(1)))),
                   s.mul(roiStart, s.c(double(in - 1))));
    break;
  }
  }
  if (!source)
    return {};

  // Gathers the elements at `index` (f64 [out], clamped into the input)
  // along the axis; `weight` [out] multiplies them when given.
  SmallVector<int64_t> along(rank, 1);
  along[axis] = out;
  auto tap = [&](Value index, Value weight) -> Value {
    Value clamped = s.clamp(index, 0, double(in - 1));
    if (!clamped)
      return {};
    Value indices = castTo(ctx, clamped, i64);
    SmallVector<Type> types;
    if (failed(kiln::inferGather(ctx.loc(), value.getType(), indices.getType(),
                                 axis, types)))
      return {};
    Value picked = ctx.finish(GatherOp::create(ctx.builder(), ctx.loc(),
                                               types[0], value, indices, axis));
    if (!weight)
      return picked;
    FailureOr<Value> weighted = buildBroadcast<MulOp>(
        ctx, picked, reshapeTo(ctx, castTo(ctx, weight, element), along));
    return succeeded(weighted) ? *weighted : Value();
  };

  Value floor = s.unary<FloorOp>(source);
  Value ratio = s.sub(source, floor);
  Value result;
  if (o.mode == SampleMode::Nearest) {
    Value index;
    switch (o.nearest) {
    case NearestMode::RoundPreferFloor:
      index = s.select(s.cmp(ComparePredicate::le, ratio, s.c(0.5)), floor,
                       s.add(floor, s.c(1)));
      break;
    case NearestMode::RoundPreferCeil:
      index = s.select(s.cmp(ComparePredicate::lt, ratio, s.c(0.5)), floor,
                       s.add(floor, s.c(1)));
      break;
    case NearestMode::Floor:
      index = floor;
      break;
    case NearestMode::Ceil:
      index = s.unary<CeilOp>(source);
      break;
    }
    result = tap(index, Value());
  } else {
    int64_t n = o.mode == SampleMode::Bilinear ? 2 : 4, pad = n / 2;
    SmallVector<Value> weights;
    if (n == 2) {
      weights = {s.sub(s.c(1), ratio), ratio};
    } else {
      double a = o.cubicA;
      auto outer = [&](Value d) {
        return s.sub(s.mul(s.add(s.mul(s.sub(s.mul(s.c(a), d), s.c(5 * a)), d),
                                 s.c(8 * a)),
                           d),
                     s.c(4 * a));
      };
      auto inner = [&](Value d) {
        return s.add(
            s.mul(s.mul(s.sub(s.mul(s.c(a + 2), d), s.c(a + 3)), d), d),
            s.c(1));
      };
      Value oneMinus = s.sub(s.c(1), ratio);
      weights = {outer(s.add(ratio, s.c(1))), inner(ratio), inner(oneMinus),
                 outer(s.add(oneMinus, s.c(1)))};
    }
    // The window starts at floor - (n/2 - 1), kept inside the edge padding.
    Value start = s.clamp(s.sub(floor, s.c(double(pad - 1))), double(-pad),
                          double(in + pad - n));
    SmallVector<Value> positions;
    for (int64_t i = 0; i < n; ++i)
      positions.push_back(s.add(start, s.c(double(i))));
    if (o.excludeOutside) {
      Value total;
      for (int64_t i = 0; i < n; ++i) {
        Value inside = s.binary<AndOp>(
            s.cmp(ComparePredicate::ge, positions[i], s.c(0)),
            s.cmp(ComparePredicate::le, positions[i], s.c(double(in - 1))));
        weights[i] = s.select(inside, weights[i], s.c(0));
        total = total ? s.add(total, weights[i]) : weights[i];
      }
      for (Value &weight : weights)
        weight = s.div(weight, total);
    }
    for (int64_t i = 0; i < n; ++i) {
      Value term = tap(positions[i], weights[i]);
      if (!term)
        return {};
      if (!result) {
        result = term;
        continue;
      }
      FailureOr<Value> sum = buildBroadcast<AddOp>(ctx, result, term);
      if (failed(sum))
        return {};
      result = *sum;
    }
  }
  if (!result || o.coordinates != CoordinateMode::TfCropAndResize)
    return result;
  // tf_crop_and_resize: sources outside the input give extrapolation_value.
  Value outside =
      s.binary<OrOp>(s.cmp(ComparePredicate::lt, source, s.c(0)),
                     s.cmp(ComparePredicate::gt, source, s.c(double(in - 1))));
  if (!outside)
    return {};
  SmallVector<Type> types;
  Value fill = scalarConstant(ctx, element, o.extrapolation);
  Value mask = reshapeTo(ctx, outside, along);
  if (failed(kiln::inferSelect(ctx.loc(), mask.getType(), result.getType(),
                               fill.getType(), types)))
    return {};
  return ctx.finish(
      SelectOp::create(ctx.builder(), ctx.loc(), types[0], mask, fill, result));
}

FailureOr<ResizeOptions> readResizeOptions(ImportContext &ctx, bool legacy) {
  ResizeOptions o;
  FailureOr<std::string> mode = ctx.stringAttr("mode", "nearest");
  if (failed(mode))
    return failure();
  if (*mode == "nearest")
    o.mode = SampleMode::Nearest;
  else if (*mode == "linear" || (legacy && *mode == "bilinear"))
    o.mode = SampleMode::Bilinear;
  else if (*mode == "cubic" && !legacy)
    o.mode = SampleMode::Bicubic;
  else
    return ctx.error() << "unknown mode '" << *mode << "'";
  if (legacy) {
    // Upsample and Resize-10: asymmetric coordinates, nearest rounds down.
    o.coordinates = CoordinateMode::Asymmetric;
    o.nearest = NearestMode::Floor;
    return o;
  }
  FailureOr<std::string> coordinates =
      ctx.stringAttr("coordinate_transformation_mode", "half_pixel");
  FailureOr<std::string> nearest =
      ctx.stringAttr("nearest_mode", "round_prefer_floor");
  FailureOr<float> cubicA = ctx.floatAttr("cubic_coeff_a", -0.75f);
  FailureOr<int64_t> exclude = ctx.intAttr("exclude_outside", 0);
  FailureOr<float> extrapolation = ctx.floatAttr("extrapolation_value", 0.0f);
  if (failed(coordinates) || failed(nearest) || failed(cubicA) ||
      failed(exclude) || failed(extrapolation))
    return failure();
  static const std::pair<const char *, CoordinateMode> coordinateModes[] = {
      {"half_pixel", CoordinateMode::HalfPixel},
      {"pytorch_half_pixel", CoordinateMode::PytorchHalfPixel},
      {"align_corners", CoordinateMode::AlignCorners},
      {"asymmetric", CoordinateMode::Asymmetric},
      {"tf_half_pixel_for_nn", CoordinateMode::TfHalfPixelForNN},
      {"tf_crop_and_resize", CoordinateMode::TfCropAndResize}};
  auto coordinateIt = llvm::find_if(coordinateModes, [&](auto &entry) {
    return *coordinates == entry.first;
  });
  if (coordinateIt == std::end(coordinateModes))
    return ctx.error() << "unknown coordinate_transformation_mode '"
                       << *coordinates << "'";
  o.coordinates = coordinateIt->second;
  static const std::pair<const char *, NearestMode> nearestModes[] = {
      {"round_prefer_floor", NearestMode::RoundPreferFloor},
      {"round_prefer_ceil", NearestMode::RoundPreferCeil},
      {"floor", NearestMode::Floor},
      {"ceil", NearestMode::Ceil}};
  auto nearestIt = llvm::find_if(
      nearestModes, [&](auto &entry) { return *nearest == entry.first; });
  if (nearestIt == std::end(nearestModes))
    return ctx.error() << "unknown nearest_mode '" << *nearest << "'";
  o.nearest = nearestIt->second;
  o.cubicA = *cubicA;
  o.excludeOutside = *exclude != 0;
  o.extrapolation = *extrapolation;
  return o;
}

/// Element `i` of a rank-1 float tensor as an f64 scalar (rank 0).
Value elementAt(ImportContext &ctx, Value vector, int64_t i) {
  SmallVector<Type> types;
  SmallVector<int64_t> starts = {i}, limits = {i + 1}, steps = {1};
  (void)kiln::inferSlice(ctx.loc(), vector.getType(), starts, limits, steps,
                         types);
  Value one = ctx.finish(SliceOp::create(ctx.builder(), ctx.loc(), types[0],
                                         vector, starts, limits, steps));
  return castTo(ctx, reshapeTo(ctx, one, {}), ctx.builder().getF64Type());
}

/// Resize (opset 11+: X, roi, scales, sizes) and, with `Legacy`, Upsample-9
/// and Resize-10 (X, scales). The output shape comes from constant sizes or
/// scales (floor(in * scale)); when they are run-time values, from the
/// shape the model declares for the output (which the importer checks),
/// with run-time scales still driving the coordinate mapping.
template <bool Legacy> LogicalResult convertResize(ImportContext &ctx) {
  FailureOr<Value> x = ctx.requiredInput(0, "X");
  FailureOr<ResizeOptions> options = readResizeOptions(ctx, Legacy);
  if (failed(x) || failed(options))
    return failure();
  ArrayRef<int64_t> shape = shapeOf(*x);
  int64_t rank = shape.size();
  Type element = elementTypeOf(*x);
  if (rank == 0)
    return ctx.error() << "X must have rank >= 1";
  if (options->mode != SampleMode::Nearest && !isa<FloatType>(element)) {
    ctx.markUnsupported();
    return ctx.error() << "linear and cubic resizing of integers is not "
                          "supported";
  }
  int scalesIndex = Legacy ? 1 : 2, sizesIndex = 3;
  Value scalesInput = ctx.input(scalesIndex);
  Value sizesInput = Legacy ? Value() : ctx.input(sizesIndex);
  // Opset 11-12 models pass an empty scales tensor next to sizes.
  if (scalesInput && shapeOf(scalesInput) == ArrayRef<int64_t>{0} && sizesInput)
    scalesInput = {};
  if (!scalesInput == !sizesInput)
    return ctx.error() << "exactly one of scales and sizes must be given";
  Value given = scalesInput ? scalesInput : sizesInput;
  if (shapeOf(given) != ArrayRef<int64_t>{rank})
    return ctx.error() << (scalesInput ? "scales" : "sizes")
                       << " must hold one value per dimension of X (" << rank
                       << ")";
  if (scalesInput ? !isa<FloatType>(elementTypeOf(given))
                  : !elementTypeOf(given).isInteger(64))
    return ctx.error() << (scalesInput ? "scales must be floats"
                                       : "sizes must be int64");

  SmallVector<int64_t> outShape;
  SmallVector<std::optional<double>> constantScales(rank);
  Value runtimeScales;
  DenseElementsAttr constant;
  if (matchPattern(given, m_Constant(&constant))) {
    int64_t d = 0;
    if (sizesInput) {
      for (const APInt &v : constant.getValues<APInt>()) {
        outShape.push_back(v.getSExtValue());
        constantScales[d] = double(outShape.back()) / double(shape[d]);
        ++d;
      }
    } else {
      for (const APFloat &v : constant.getValues<APFloat>()) {
        double scale = v.convertToDouble();
        if (!(scale > 0) || !std::isfinite(scale))
          return ctx.error() << "scales must be positive";
        double size = std::floor(scale * double(shape[d]));
        if (size > double(int64_t(1) << 40))
          return ctx.error() << "the output is implausibly large";
        outShape.push_back(int64_t(size));
        constantScales[d] = scale;
        ++d;
      }
    }
  } else {
    std::optional<ArrayRef<int64_t>> declared;
    if (ctx.node().output_size() > 0)
      declared = ctx.declaredShape(ctx.node().output(0));
    if (!declared) {
      // Without a declared output shape the result's shape is unknown: the
      // usual "must be a constant" error (exit 3, --bind fixes it).
      (void)ctx.constantInput(scalesInput ? scalesIndex : sizesIndex,
                              scalesInput ? "scales" : "sizes");
      return failure();
    }
    if (int64_t(declared->size()) != rank)
      return ctx.error() << "the declared output shape has rank "
                         << declared->size() << ", X has rank " << rank;
    outShape.assign(declared->begin(), declared->end());
    if (sizesInput) {
      for (int64_t d = 0; d < rank; ++d)
        constantScales[d] = double(outShape[d]) / double(shape[d]);
    } else {
      runtimeScales = scalesInput;
    }
  }
  for (int64_t d = 0; d < rank; ++d) {
    if (outShape[d] < 0 || (shape[d] == 0 && outShape[d] != 0))
      return ctx.error() << "cannot resize dimension " << d << " from "
                         << shape[d] << " to " << outShape[d] << " elements";
    // Each resized axis becomes a constant of its output coordinates: a
    // declared 2^31 would be a 16 GiB constant (found by the importer
    // fuzzer), so such an output is refused, as a scale that large is.
    if (outShape[d] > kMaxResizedAxis)
      return ctx.error() << "cannot resize dimension " << d << " to "
                         << outShape[d] << " elements (at most "
                         << kMaxResizedAxis << "): implausibly large";
  }

  Value roi;
  if (options->coordinates == CoordinateMode::TfCropAndResize) {
    roi = ctx.input(1);
    if (!roi || shapeOf(roi) != ArrayRef<int64_t>{2 * rank} ||
        !isa<FloatType>(elementTypeOf(roi)))
      return ctx.error() << "tf_crop_and_resize needs roi, " << 2 * rank
                         << " floats";
  }
  bool plainCoordinates =
      options->coordinates != CoordinateMode::TfHalfPixelForNN &&
      options->coordinates != CoordinateMode::TfCropAndResize;
  Value result = *x;
  for (int64_t d = 0; d < rank; ++d) {
    // An axis kept at its size with scale 1 maps every index to itself
    // under the plain coordinate modes; with a run-time scale only a unit
    // axis is certainly unchanged.
    bool unchanged =
        plainCoordinates && outShape[d] == shape[d] &&
        (constantScales[d] ? *constantScales[d] == 1.0 : shape[d] == 1);
    if (unchanged || outShape[d] == 0 || shape[d] == 0)
      continue;
    Value scale = runtimeScales
                      ? elementAt(ctx, runtimeScales, d)
                      : scalarConstant(ctx, ctx.builder().getF64Type(),
                                       *constantScales[d]);
    Value roiStart, roiEnd;
    if (roi) {
      roiStart = elementAt(ctx, roi, d);
      roiEnd = elementAt(ctx, roi, rank + d);
    }
    result = resizeAxis(ctx, result, d, outShape[d], scale, roiStart, roiEnd,
                        *options);
    if (!result)
      return failure();
  }
  if (llvm::is_contained(outShape, 0) || llvm::is_contained(shape, 0))
    result = ctx.constant(DenseElementsAttr::get(
        RankedTensorType::get(outShape, element),
        isa<FloatType>(element) ? Attribute(FloatAttr::get(element, 0.0))
                                : Attribute(IntegerAttr::get(element, 0))));
  ctx.setOutput(0, result);
  return success();
}

} // namespace

void registerSamplingConverters(ConverterRegistry &r) {
  r.add("GridSample", 16, convertGridSample);
  r.add("Upsample", 9, convertResize<true>);
  r.add("Resize", 10, convertResize<true>);
  r.add("Resize", 11, convertResize<false>);
}

} // namespace kiln::onnx
