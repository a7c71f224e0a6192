//===- RoiAlignOps.cpp - ONNX RoiAlign ------------------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// RoiAlign: for every region, an output_height x output_width grid of
// bins, each the mean of sampling_ratio^2 bilinear samples of X (avg
// mode) or, in max mode, the largest of its samples' largest weighted
// corner (what ONNX Runtime and ONNX's reference compute: not the maximum
// of the interpolated values). The regions are run-time data, so the sample
// coordinates are computed by elementwise ops from them; the four neighbours of
// every sample come from one gather each on X laid out as [N * H * W, C]. With
// sampling_ratio 0 the number of samples depends on each region's size:
// the regions must then be known at compile time (the JIT binds them), and
// each region is built on its own.
//
//===----------------------------------------------------------------------===//

#include "frontend/onnx/ConverterRegistry.h"
#include "frontend/onnx/ops/Expr.h"

#include "mlir/IR/BuiltinTypes.h"

#include <cmath>

using namespace mlir;

namespace kiln::onnx {

namespace {

struct RoiAlignParams {
  int64_t outH, outW;
  double scale;
  bool halfPixel;
  bool max;
};

/// One axis of the samples: for a [R, 1] start and bin size, the
/// [R, out * ratio] sample positions, their low and high neighbours (i64)
/// and weights, and whether they fall inside [-1, size].
struct AxisSamples {
  Value low, high, lowWeight, highWeight, valid;
};

AxisSamples samplesAlong(ImportContext &ctx, Value start, Value bin,
                         int64_t out, int64_t ratio, int64_t size) {
  Expr e(ctx);
  Type element = elementTypeOf(start);
  SmallVector<Attribute> steps;
  for (int64_t p = 0; p < out; ++p)
    for (int64_t i = 0; i < ratio; ++i)
      steps.push_back(
          FloatAttr::get(element, double(p) + (double(i) + 0.5) / ratio));
  Value step = ctx.constant(DenseElementsAttr::get(
      RankedTensorType::get({1, out * ratio}, element), steps));
  Value at = e.add(start, e.mul(bin, step));
  Value valid =
      e.binary<AndOp>(e.cmp(ComparePredicate::ge, at, e.c(at, -1.0)),
                      e.cmp(ComparePredicate::le, at, e.c(at, double(size))));
  Value clamped = e.max(at, e.c(at, 0.0));
  Value low = e.unary<FloorOp>(clamped);
  Value last = e.c(at, double(size - 1));
  Value edge = e.cmp(ComparePredicate::ge, low, last);
  low = e.select(edge, last, low);
  Value high = e.select(edge, last, e.add(low, e.c(at, 1.0)));
  clamped = e.select(edge, last, clamped);
  Value highWeight = e.sub(clamped, low);
  Value lowWeight = e.sub(e.c(at, 1.0), highWeight);
  Type i64 = ctx.builder().getI64Type();
  return {low ? castTo(ctx, low, i64) : Value(),
          high ? castTo(ctx, high, i64) : Value(), lowWeight, highWeight,
          valid};
}

/// The aligned regions [R, C, outH, outW] of `table` (X as [N * H * W, C])
/// for `rois` [R, 4] and `batch` [R] (i64), with `ratioH` x `ratioW`
/// samples per bin.
Value alignRegions(ImportContext &ctx, Value table, ArrayRef<int64_t> xShape,
                   Value rois, Value batch, const RoiAlignParams &p,
                   int64_t ratioH, int64_t ratioW) {
  Expr e(ctx);
  int64_t n = xShape[0], c = xShape[1], h = xShape[2], w = xShape[3];
  int64_t r = shapeOf(rois)[0];
  auto coordinate = [&](int64_t k) -> Value {
    FailureOr<Value> column = sliceOf(ctx, rois, {0, k}, {r, k + 1}, {1, 1});
    if (failed(column))
      return {};
    Value scaled = e.mul(*column, e.c(*column, p.scale));
    return p.halfPixel ? e.sub(scaled, e.c(scaled, 0.5)) : scaled;
  };
  Value x1 = coordinate(0), y1 = coordinate(1), x2 = coordinate(2),
        y2 = coordinate(3);
  Value roiW = e.sub(x2, x1), roiH = e.sub(y2, y1);
  if (!p.halfPixel) {
    // output_half_pixel (opset 10's behaviour): regions at least 1 wide.
    roiW = e.max(roiW, e.c(roiW, 1.0));
    roiH = e.max(roiH, e.c(roiH, 1.0));
  }
  AxisSamples ys = samplesAlong(ctx, y1, e.div(roiH, e.c(roiH, double(p.outH))),
                                p.outH, ratioH, h);
  AxisSamples xs = samplesAlong(ctx, x1, e.div(roiW, e.c(roiW, double(p.outW))),
                                p.outW, ratioW, w);
  int64_t sy = p.outH * ratioH, sx = p.outW * ratioW;
  // Rows of the table: b * H * W + y * W + x, as [R, Sy, Sx].
  Value b = reshapeTo(ctx, batch, {r, 1, 1});
  b = e.min(e.max(b, e.c(b, 0)), e.c(b, double(n - 1)));
  Value planeBase = e.mul(b, e.c(b, double(h * w)));
  Value sum;
  for (auto [yIndex, yWeight] :
       {std::pair{ys.low, ys.lowWeight}, {ys.high, ys.highWeight}})
    for (auto [xIndex, xWeight] :
         {std::pair{xs.low, xs.lowWeight}, {xs.high, xs.highWeight}}) {
      if (!yIndex || !xIndex)
        return {};
      Value row =
          e.add(e.add(planeBase, e.mul(reshapeTo(ctx, yIndex, {r, sy, 1}),
                                       e.c(b, double(w)))),
                reshapeTo(ctx, xIndex, {r, 1, sx}));
      SmallVector<Type> types;
      if (!row || failed(kiln::inferGather(ctx.loc(), table.getType(),
                                           row.getType(), 0, types)))
        return {};
      Value corner = ctx.finish(
          GatherOp::create(ctx.builder(), ctx.loc(), types[0], table, row, 0));
      Value weight = e.mul(reshapeTo(ctx, yWeight, {r, sy, 1, 1}),
                           reshapeTo(ctx, xWeight, {r, 1, sx, 1}));
      Value term = e.mul(corner, weight);
      sum = !sum ? term : p.max ? e.max(sum, term) : e.add(sum, term);
    }
  // Samples outside [-1, size] count as 0.
  Value inside = e.binary<AndOp>(reshapeTo(ctx, ys.valid, {r, sy, 1, 1}),
                                 reshapeTo(ctx, xs.valid, {r, 1, sx, 1}));
  sum = e.select(inside, sum, e.c(sum, 0.0));
  if (!sum)
    return {};
  // Mean (or max) of each bin's samples: [R, outH, ratioH, outW, ratioW,
  // C].
  Value bins = reshapeTo(ctx, sum, {r, p.outH, ratioH, p.outW, ratioW, c});
  FailureOr<Value> pooled =
      p.max ? reduceOf<ReduceMaxOp>(ctx, bins, {2, 4}, false)
            : reduceOf<ReduceMeanOp>(ctx, bins, {2, 4}, false);
  if (failed(pooled))
    return {};
  FailureOr<Value> result = transposeOf(ctx, *pooled, {0, 3, 1, 2});
  return succeeded(result) ? *result : Value();
}

LogicalResult convertRoiAlign(ImportContext &ctx) {
  FailureOr<Value> x = ctx.requiredInput(0, "X");
  FailureOr<Value> rois = ctx.requiredInput(1, "rois");
  FailureOr<Value> batch = ctx.requiredInput(2, "batch_indices");
  FailureOr<std::string> mode = ctx.stringAttr("mode", "avg");
  FailureOr<int64_t> outH = ctx.intAttr("output_height", 1);
  FailureOr<int64_t> outW = ctx.intAttr("output_width", 1);
  FailureOr<int64_t> ratio = ctx.intAttr("sampling_ratio", 0);
  FailureOr<float> scale = ctx.floatAttr("spatial_scale", 1.0f);
  FailureOr<std::string> transform =
      ctx.stringAttr("coordinate_transformation_mode",
                     ctx.opset() >= 16 ? "half_pixel" : "output_half_pixel");
  if (failed(x) || failed(rois) || failed(batch) || failed(mode) ||
      failed(outH) || failed(outW) || failed(ratio) || failed(scale) ||
      failed(transform))
    return failure();
  ArrayRef<int64_t> xs = shapeOf(*x);
  if (xs.size() != 4 || !isa<FloatType>(elementTypeOf(*x)))
    return ctx.error() << "X must be a floating-point [N, C, H, W] tensor";
  int64_t r = shapeOf(*rois).empty() ? -1 : shapeOf(*rois)[0];
  if (shapeOf(*rois).size() != 2 || shapeOf(*rois)[1] != 4 ||
      elementTypeOf(*rois) != elementTypeOf(*x))
    return ctx.error() << "rois must be [num_rois, 4] of X's type";
  if (shapeOf(*batch).size() != 1 || shapeOf(*batch)[0] != r ||
      !isa<IntegerType>(elementTypeOf(*batch)))
    return ctx.error() << "batch_indices must be [num_rois] integers";
  if (*mode != "avg" && *mode != "max")
    return ctx.error() << "mode must be avg or max, it is '" << *mode << "'";
  if (*transform != "half_pixel" && *transform != "output_half_pixel")
    return ctx.error() << "unknown coordinate_transformation_mode '"
                       << *transform << "'";
  constexpr int64_t kLimit = 1024;
  if (*outH < 1 || *outW < 1 || *outH > kLimit || *outW > kLimit ||
      *ratio < 0 || *ratio > 64)
    return ctx.error() << "output_height and output_width must be in [1, "
                       << kLimit << "] and sampling_ratio in [0, 64]";
  RoiAlignParams params{*outH, *outW, double(*scale),
                        *transform == "half_pixel", *mode == "max"};
  // X as a table of [N * H * W] rows of C channels.
  FailureOr<Value> moved = transposeOf(ctx, *x, {0, 2, 3, 1});
  if (failed(moved))
    return failure();
  Value table = reshapeTo(ctx, *moved, {xs[0] * xs[2] * xs[3], xs[1]});
  Value index = castTo(ctx, *batch, ctx.builder().getI64Type());
  if (*ratio > 0) {
    Value result =
        alignRegions(ctx, table, xs, *rois, index, params, *ratio, *ratio);
    if (!result)
      return failure();
    ctx.setOutput(0, result);
    return success();
  }
  // Adaptive sampling: ceil(region size / bins) samples per bin, per region.
  FailureOr<DenseElementsAttr> boxes =
      ctx.constantOf(*rois, "rois (sampling_ratio 0 sizes each region's "
                            "samples)");
  if (failed(boxes))
    return failure();
  if (r > 256) {
    ctx.markUnsupported();
    return ctx.error() << "adaptive sampling over " << r
                       << " regions (at most 256)";
  }
  SmallVector<double> values;
  for (const APFloat &v : boxes->getValues<APFloat>())
    values.push_back(v.convertToDouble());
  SmallVector<Value> regions;
  for (int64_t i = 0; i < r; ++i) {
    double offset = params.halfPixel ? 0.5 : 0.0;
    double w = values[4 * i + 2] * params.scale - offset -
               (values[4 * i] * params.scale - offset);
    double h = values[4 * i + 3] * params.scale - offset -
               (values[4 * i + 1] * params.scale - offset);
    if (!params.halfPixel) {
      w = std::max(w, 1.0);
      h = std::max(h, 1.0);
    }
    int64_t ratioH = std::clamp<int64_t>(int64_t(std::ceil(h / *outH)), 1, 64);
    int64_t ratioW = std::clamp<int64_t>(int64_t(std::ceil(w / *outW)), 1, 64);
    FailureOr<Value> box = sliceOf(ctx, *rois, {i, 0}, {i + 1, 4}, {1, 1});
    FailureOr<Value> b = sliceOf(ctx, index, {i}, {i + 1}, {1});
    if (failed(box) || failed(b))
      return failure();
    Value region =
        alignRegions(ctx, table, xs, *box, *b, params, ratioH, ratioW);
    if (!region)
      return failure();
    regions.push_back(region);
  }
  FailureOr<Value> result = concatOf(ctx, regions, 0);
  if (failed(result))
    return failure();
  ctx.setOutput(0, *result);
  return success();
}

} // namespace

void registerRoiAlignConverters(ConverterRegistry &r) {
  r.add("RoiAlign", 10, convertRoiAlign);
}

} // namespace kiln::onnx
