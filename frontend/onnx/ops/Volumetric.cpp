//===- Volumetric.cpp - 3-D convolution and pooling via 2-D ops -----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "frontend/onnx/ops/Volumetric.h"

#include "frontend/onnx/ops/Common.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace mlir;

namespace kiln::onnx {

namespace {

/// The depth part of a 3-D window.
struct DepthWindow {
  int64_t kernel, stride, dilation, padBegin, padEnd;

  int64_t span() const { return dilation * (kernel - 1) + 1; }
};

/// The depth part of `window`, checked: the 2-D ops check their own part,
/// and the attributes are untrusted (a kernel of 2^40 taps must not become
/// 2^40 slices).
FailureOr<DepthWindow> depthOf(ImportContext &ctx, const Window &window) {
  constexpr int64_t kLimit = 4096;
  DepthWindow depth{window.kernel[0], window.strides[0], window.dilations[0],
                    window.pads[0], window.pads[3]};
  if (depth.kernel <= 0 || depth.stride <= 0 || depth.dilation <= 0 ||
      depth.kernel > kLimit || depth.stride > kLimit || depth.dilation > kLimit)
    return ctx.error() << "the depth's kernel, stride and dilation must be "
                          "positive and at most "
                       << kLimit;
  if (depth.padBegin < 0 || depth.padEnd < 0 || depth.padBegin > kLimit ||
      depth.padEnd > kLimit)
    return ctx.error() << "the depth's pads must be in [0, " << kLimit << "]";
  return depth;
}

/// The height and width part of a 3-D window, as a 2-D window.
Window planeOf(const Window &window) {
  Window plane;
  plane.kernel = {window.kernel[1], window.kernel[2]};
  plane.strides = {window.strides[1], window.strides[2]};
  plane.dilations = {window.dilations[1], window.dilations[2]};
  plane.pads = {window.pads[1], window.pads[2], window.pads[4], window.pads[5]};
  return plane;
}

/// The product of `dims`, or an error when it overflows.
FailureOr<int64_t> productOf(ImportContext &ctx, ArrayRef<int64_t> dims) {
  int64_t product = 1;
  for (int64_t d : dims)
    if (d < 0 || llvm::MulOverflow(product, d, product))
      return ctx.error() << "the 3-D window's intermediate tensors have "
                            "implausible sizes";
  return product;
}

/// Depth slice `tap` of the windows of `od` outputs: [N, C, od, ...] out of
/// [N, C, D', ...].
FailureOr<Value> depthTap(ImportContext &ctx, Value padded,
                          const DepthWindow &depth, int64_t tap, int64_t od) {
  ArrayRef<int64_t> shape = shapeOf(padded);
  SmallVector<int64_t> starts(shape.size(), 0), limits(shape),
      steps(shape.size(), 1);
  starts[2] = tap * depth.dilation;
  limits[2] = starts[2] + (od - 1) * depth.stride + 1;
  steps[2] = depth.stride;
  return sliceOf(ctx, padded, starts, limits, steps);
}

/// The smallest value of `element`: what max pooling pads with.
double lowestOf(Type element) {
  if (isa<FloatType>(element))
    return -std::numeric_limits<double>::infinity();
  auto integer = cast<IntegerType>(element);
  if (integer.isUnsigned() || integer.getWidth() == 1)
    return 0.0;
  return -std::ldexp(1.0, int(integer.getWidth()) - 1);
}

} // namespace

FailureOr<Value> buildConv3d(ImportContext &ctx, Value x, Value w, Value bias,
                             const Window &window, int64_t groups) {
  FailureOr<DepthWindow> depth = depthOf(ctx, window);
  if (failed(depth))
    return failure();
  ArrayRef<int64_t> xs = shapeOf(x), ws = shapeOf(w);
  int64_t n = xs[0], c = xs[1], d = xs[2], h = xs[3], wd = xs[4];
  int64_t o = ws[0], perGroup = ws[1], kd = ws[2];
  if (groups <= 0 || c % groups != 0 || perGroup * groups != c ||
      o % groups != 0)
    return ctx.error() << "W must be [O, C / group, k...] with C = " << c
                       << " and O = " << o << " divisible by group " << groups;
  int64_t padded = d + depth->padBegin + depth->padEnd;
  if (padded < depth->span())
    return ctx.error() << "the kernel spans " << depth->span()
                       << " depths but the padded input has " << padded;
  int64_t od = (padded - depth->span()) / depth->stride + 1;
  FailureOr<int64_t> images = productOf(ctx, {n, od});
  FailureOr<int64_t> channels = productOf(ctx, {c, kd, h, wd, *images});
  if (failed(images) || failed(channels))
    return failure();

  // The KD depth taps of every output depth, as [N, KD, C, OD, H, W].
  FailureOr<Value> input = padOf(ctx, x, {0, 0, depth->padBegin, 0, 0},
                                 {0, 0, depth->padEnd, 0, 0}, 0.0);
  if (failed(input))
    return failure();
  SmallVector<Value> taps;
  for (int64_t t = 0; t < kd; ++t) {
    FailureOr<Value> tap = depthTap(ctx, *input, *depth, t, od);
    if (failed(tap))
      return failure();
    taps.push_back(reshapeTo(ctx, *tap, {n, 1, c, od, h, wd}));
  }
  FailureOr<Value> stacked = concatOf(ctx, taps, 1);
  if (failed(stacked))
    return failure();
  // One image per output depth, its channels ordered (group, tap, channel)
  // so that a grouped conv2d still sees each group's channels together.
  Value grouped =
      reshapeTo(ctx, *stacked, {n, kd, groups, perGroup, od, h, wd});
  FailureOr<Value> moved = transposeOf(ctx, grouped, {0, 4, 2, 1, 3, 5, 6});
  if (failed(moved))
    return failure();
  Value image = reshapeTo(ctx, *moved, {n * od, c * kd, h, wd});
  // W [O, C/g, KD, KH, KW] -> [O, KD * C/g, KH, KW], in the same order.
  FailureOr<Value> weight = transposeOf(ctx, w, {0, 2, 1, 3, 4});
  if (failed(weight))
    return failure();
  Value kernel = reshapeTo(ctx, *weight, {o, kd * perGroup, ws[3], ws[4]});

  Window plane = planeOf(window);
  SmallVector<Type> types;
  if (failed(kiln::inferConv2d(ctx.loc(), image.getType(), kernel.getType(),
                               bias ? bias.getType() : Type(), plane.strides,
                               plane.pads, plane.dilations, groups, types)))
    return failure();
  Value result = ctx.finish(
      Conv2dOp::create(ctx.builder(), ctx.loc(), types[0], image, kernel, bias,
                       plane.strides, plane.pads, plane.dilations, groups));
  ArrayRef<int64_t> rs = shapeOf(result);
  Value split = reshapeTo(ctx, result, {n, od, o, rs[2], rs[3]});
  return transposeOf(ctx, split, {0, 2, 1, 3, 4});
}

FailureOr<Value> buildPool3d(ImportContext &ctx, Value x, const Window &window,
                             bool isMax, bool ceilMode, bool countIncludePad) {
  FailureOr<DepthWindow> depth = depthOf(ctx, window);
  if (failed(depth))
    return failure();
  ArrayRef<int64_t> xs = shapeOf(x);
  int64_t n = xs[0], c = xs[1], d = xs[2];
  if (!isMax && !isa<FloatType>(elementTypeOf(x)))
    return ctx.error() << "X must be a floating-point tensor";
  FailureOr<int64_t> planes = productOf(ctx, {c, d});
  if (failed(planes))
    return failure();
  Type element = elementTypeOf(x);

  // A 2-D pool of every depth slice: [N, C * D, OH, OW].
  Window plane = planeOf(window);
  Value flat = reshapeTo(ctx, x, {n, *planes, xs[3], xs[4]});
  SmallVector<Type> types;
  if (failed(kiln::inferPool2d(ctx.loc(), flat.getType(), plane.kernel,
                               plane.strides, plane.pads, plane.dilations,
                               ceilMode, types)))
    return failure();
  Value pooled =
      isMax ? ctx.finish(MaxPool2dOp::create(
                  ctx.builder(), ctx.loc(), types[0], flat, plane.kernel,
                  plane.strides, plane.pads, plane.dilations, ceilMode))
            : ctx.finish(AvgPool2dOp::create(ctx.builder(), ctx.loc(), types[0],
                                             flat, plane.kernel, plane.strides,
                                             plane.pads, plane.dilations,
                                             ceilMode, countIncludePad));
  ArrayRef<int64_t> ps = shapeOf(pooled);
  int64_t oh = ps[2], ow = ps[3];
  pooled = reshapeTo(ctx, pooled, {n, c, d, oh, ow});

  // The output depths by the 2-D rule applied to a [D, 1] plane, so that
  // ceil_mode agrees with the other dimensions.
  SmallVector<Type> depthTypes;
  if (failed(kiln::inferPool2d(ctx.loc(),
                               RankedTensorType::get({1, 1, d, 1}, element),
                               {depth->kernel, 1}, {depth->stride, 1},
                               {depth->padBegin, 0, depth->padEnd, 0},
                               {depth->dilation, 1}, ceilMode, depthTypes)))
    return failure();
  int64_t od = cast<RankedTensorType>(depthTypes[0]).getDimSize(2);
  // Pad so that every window fits (ceil_mode windows may run past the end
  // pads): max pads with the lowest value, the average with zeros that the
  // divisor below does not count.
  int64_t needed = (od - 1) * depth->stride + depth->span();
  int64_t extra =
      std::max<int64_t>(0, needed - (d + depth->padBegin + depth->padEnd));
  FailureOr<Value> padded = padOf(ctx, pooled, {0, 0, depth->padBegin, 0, 0},
                                  {0, 0, depth->padEnd + extra, 0, 0},
                                  isMax ? lowestOf(element) : 0.0);
  if (failed(padded))
    return failure();
  Value result;
  for (int64_t t = 0; t < depth->kernel; ++t) {
    FailureOr<Value> tap = depthTap(ctx, *padded, *depth, t, od);
    if (failed(tap))
      return failure();
    if (!result) {
      result = *tap;
      continue;
    }
    FailureOr<Value> combined = isMax
                                    ? buildBroadcast<MaxOp>(ctx, result, *tap)
                                    : buildBroadcast<AddOp>(ctx, result, *tap);
    if (failed(combined))
      return failure();
    result = *combined;
  }
  if (isMax)
    return result;
  // The average divides by the depth taps inside the input (or inside the
  // padded input with count_include_pad); the 2-D pool divided by its own.
  int64_t low = countIncludePad ? -depth->padBegin : 0;
  int64_t high = countIncludePad ? d + depth->padEnd : d;
  SmallVector<double> counts;
  for (int64_t o = 0; o < od; ++o) {
    int64_t count = 0;
    for (int64_t t = 0; t < depth->kernel; ++t) {
      int64_t at = o * depth->stride + t * depth->dilation - depth->padBegin;
      count += at >= low && at < high;
    }
    counts.push_back(double(std::max<int64_t>(count, 1)));
  }
  auto countType = RankedTensorType::get({1, 1, od, 1, 1}, element);
  SmallVector<APFloat> values;
  for (double count : counts) {
    APFloat value(count);
    bool lost;
    value.convert(cast<FloatType>(element).getFloatSemantics(),
                  APFloat::rmNearestTiesToEven, &lost);
    values.push_back(value);
  }
  Value divisor = ctx.constant(DenseElementsAttr::get(countType, values));
  return buildBroadcast<DivOp>(ctx, result, divisor);
}

} // namespace kiln::onnx
