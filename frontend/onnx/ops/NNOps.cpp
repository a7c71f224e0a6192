//===- NNOps.cpp - ONNX Conv, pooling, softmax, normalisation -> kiln -----===//
//
// SPDX-License-Identifier: Apache-2.0
//
// 1-D convolution and pooling are expressed in 2-D with a unit height; 3-D
// ones are built from 2-D ops (ops/Volumetric.h). auto_pad is resolved into
// explicit pads (ops/Window.h), so kiln ops only know explicit padding.
//
//===----------------------------------------------------------------------===//

#include "frontend/onnx/ops/Common.h"
#include "frontend/onnx/ops/Expr.h"
#include "frontend/onnx/ops/Volumetric.h"
#include "frontend/onnx/ops/Window.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;

namespace kiln::onnx {

namespace {

/// [N, C, L] -> [N, C, 1, L] for 1-D windows.
Value to2d(ImportContext &ctx, Value value) {
  ArrayRef<int64_t> s = shapeOf(value);
  return reshapeTo(ctx, value, {s[0], s[1], 1, s[2]});
}

/// [N, C, 1, L] -> [N, C, L].
Value from2d(ImportContext &ctx, Value value) {
  ArrayRef<int64_t> s = shapeOf(value);
  return reshapeTo(ctx, value, {s[0], s[1], s[3]});
}

} // namespace

FailureOr<Value> buildConvolution(ImportContext &ctx, Value x, Value w,
                                  Value bias) {
  FailureOr<int64_t> groups = ctx.intAttr("group", 1);
  if (failed(groups))
    return failure();
  if (shapeOf(w).size() != shapeOf(x).size() || shapeOf(x).size() < 3)
    return ctx.error() << "X and W must be [N, C, spatial...] tensors of one "
                          "rank";
  SmallVector<int64_t> kernelSpatial(shapeOf(w).drop_front(2));
  FailureOr<Window> window = readWindow(ctx, shapeOf(x), kernelSpatial);
  if (failed(window))
    return failure();
  SmallVector<int64_t> kernel2d(kernelSpatial);
  if (window->oneDimensional)
    kernel2d.insert(kernel2d.begin(), 1);
  if (ArrayRef<int64_t>(window->kernel) != ArrayRef<int64_t>(kernel2d))
    return ctx.error() << "kernel_shape disagrees with the weight's spatial "
                          "dimensions";
  if (window->spatial() == 3)
    return buildConv3d(ctx, x, w, bias, *window, *groups);
  Value input = x, weight = w;
  if (window->oneDimensional) {
    input = to2d(ctx, input);
    weight = to2d(ctx, weight);
  }
  SmallVector<Type> types;
  if (failed(kiln::inferConv2d(ctx.loc(), input.getType(), weight.getType(),
                               bias ? bias.getType() : Type(), window->strides,
                               window->pads, window->dilations, *groups,
                               types)))
    return failure();
  Value result = ctx.finish(Conv2dOp::create(
      ctx.builder(), ctx.loc(), types[0], input, weight, bias,
      window->strides, window->pads, window->dilations, *groups));
  return window->oneDimensional ? from2d(ctx, result) : result;
}

namespace {

LogicalResult convertConv(ImportContext &ctx) {
  FailureOr<Value> x = ctx.requiredInput(0, "X");
  FailureOr<Value> w = ctx.requiredInput(1, "W");
  if (failed(x) || failed(w))
    return failure();
  FailureOr<Value> result = buildConvolution(ctx, *x, *w, ctx.input(2));
  if (failed(result))
    return failure();
  ctx.setOutput(0, *result);
  return success();
}

/// ConvTranspose as the convolution it is the adjoint of: the input with
/// stride - 1 zeros inserted between its elements (a reshape, a pad and a
/// reshape), padded by dilation * (kernel - 1) minus the ONNX pads (a crop
/// where that is negative), convolved with stride 1 by the kernel flipped
/// in space with its channel axes swapped per group. Output size per
/// spatial dimension: stride * (in - 1) + output_padding +
/// dilation * (kernel - 1) + 1 - pad_begin - pad_end.
LogicalResult convertConvTranspose(ImportContext &ctx) {
  FailureOr<Value> x = ctx.requiredInput(0, "X");
  FailureOr<Value> w = ctx.requiredInput(1, "W");
  FailureOr<int64_t> groups = ctx.intAttr("group", 1);
  if (failed(x) || failed(w) || failed(groups))
    return failure();
  ArrayRef<int64_t> xShape = shapeOf(*x), wShape = shapeOf(*w);
  int64_t rank = xShape.size();
  if (wShape.size() != xShape.size() || rank < 3)
    return ctx.error() << "X and W must be [N, C, spatial...] tensors of one "
                          "rank";
  int64_t spatial = rank - 2;
  if (spatial > 3) {
    ctx.markUnsupported();
    return ctx.error() << "only 1-D, 2-D and 3-D ConvTranspose is supported, "
                          "the input has rank "
                       << rank;
  }
  if (!isa<FloatType>(elementTypeOf(*x)))
    return ctx.error() << "X must be a floating-point tensor";
  int64_t cin = xShape[1];
  if (*groups <= 0 || cin % *groups != 0 || wShape[0] != cin)
    return ctx.error() << "W must be [C, M / group, k...] with C = " << cin
                       << " divisible by group " << *groups;
  auto kernelAttr = ctx.intsAttr("kernel_shape");
  auto stridesAttr = ctx.intsAttr("strides");
  auto dilationsAttr = ctx.intsAttr("dilations");
  auto padsAttr = ctx.intsAttr("pads");
  auto outPadAttr = ctx.intsAttr("output_padding");
  auto outShapeAttr = ctx.intsAttr("output_shape");
  FailureOr<std::string> autoPad = ctx.stringAttr("auto_pad", "NOTSET");
  if (failed(kernelAttr) || failed(stridesAttr) || failed(dilationsAttr) ||
      failed(padsAttr) || failed(outPadAttr) || failed(outShapeAttr) ||
      failed(autoPad))
    return failure();
  SmallVector<int64_t> kernel(wShape.drop_front(2));
  SmallVector<int64_t> strides =
      stridesAttr->value_or(SmallVector<int64_t>(spatial, 1));
  SmallVector<int64_t> dilations =
      dilationsAttr->value_or(SmallVector<int64_t>(spatial, 1));
  SmallVector<int64_t> pads =
      padsAttr->value_or(SmallVector<int64_t>(2 * spatial, 0));
  SmallVector<int64_t> outPad =
      outPadAttr->value_or(SmallVector<int64_t>(spatial, 0));
  if ((kernelAttr->has_value() &&
       ArrayRef<int64_t>(**kernelAttr) != ArrayRef<int64_t>(kernel)) ||
      int64_t(strides.size()) != spatial ||
      int64_t(dilations.size()) != spatial ||
      int64_t(pads.size()) != 2 * spatial ||
      int64_t(outPad.size()) != spatial ||
      (outShapeAttr->has_value() &&
       int64_t((*outShapeAttr)->size()) != spatial))
    return ctx.error() << "kernel_shape, strides, dilations, pads, "
                          "output_padding and output_shape must match the "
                       << spatial << " spatial dimension(s) of W";
  if (*autoPad != "NOTSET" && *autoPad != "VALID" && *autoPad != "SAME_UPPER" &&
      *autoPad != "SAME_LOWER")
    return ctx.error() << "unknown auto_pad '" << *autoPad << "'";
  for (int64_t d = 0; d < spatial; ++d) {
    if (strides[d] <= 0 || dilations[d] <= 0 || kernel[d] <= 0 ||
        strides[d] > 4096 || dilations[d] > 4096 || kernel[d] > 4096)
      return ctx.error() << "kernel, strides and dilations must be positive "
                            "(and plausible)";
    if (outPad[d] < 0 || outPad[d] >= std::max(strides[d], dilations[d]))
      return ctx.error() << "output_padding must be in [0, max(stride, "
                            "dilation))";
    if (pads[d] < 0 || pads[spatial + d] < 0)
      return ctx.error() << "pads must be non-negative";
    int64_t full = strides[d] * (xShape[2 + d] - 1) + outPad[d] +
                   dilations[d] * (kernel[d] - 1) + 1;
    // An explicit output shape, or SAME padding (output = input * stride),
    // fixes the total padding; SAME_UPPER puts the smaller half first.
    std::optional<int64_t> target;
    if (outShapeAttr->has_value())
      target = (**outShapeAttr)[d];
    else if (*autoPad == "SAME_UPPER" || *autoPad == "SAME_LOWER")
      target = xShape[2 + d] * strides[d];
    if (target) {
      int64_t total = full - *target;
      int64_t half = llvm::divideFloorSigned(total, 2);
      bool upper = *autoPad == "SAME_UPPER";
      pads[d] = upper ? half : total - half;
      pads[spatial + d] = upper ? total - half : half;
    } else if (*autoPad == "VALID") {
      pads[d] = pads[spatial + d] = 0;
    }
  }

  // 1-D in 2-D: [N, C, L] -> [N, C, 1, L].
  Value input = *x, weight = *w;
  if (spatial == 1) {
    input = to2d(ctx, input);
    weight = to2d(ctx, weight);
    kernel.insert(kernel.begin(), 1);
    strides.insert(strides.begin(), 1);
    dilations.insert(dilations.begin(), 1);
    outPad.insert(outPad.begin(), 0);
    pads = {0, pads[0], 0, pads[1]};
    spatial = 2;
  }
  int64_t n = xShape[0];
  SmallVector<int64_t> in(shapeOf(input).drop_front(2));
  // Zero insertion: [N, C, d0, 1, d1, 1, ...] padded to
  // [N, C, d0, s0, d1, s1, ...].
  if (llvm::any_of(strides, [](int64_t s) { return s > 1; })) {
    SmallVector<int64_t> spreadShape = {n, cin}, low, high,
                         spreadOut = {n, cin};
    for (int64_t d = 0; d < spatial; ++d) {
      spreadShape.append({in[d], 1});
      spreadOut.push_back(in[d] * strides[d]);
    }
    low.assign(spreadShape.size(), 0);
    high.assign(spreadShape.size(), 0);
    for (int64_t d = 0; d < spatial; ++d)
      high[3 + 2 * d] = strides[d] - 1;
    FailureOr<Value> spread =
        padOf(ctx, reshapeTo(ctx, input, spreadShape), low, high, 0.0);
    if (failed(spread))
      return failure();
    input = reshapeTo(ctx, *spread, spreadOut);
  }
  // Padding of the stride-1 convolution; the zero insertion above left
  // stride - 1 extra zeros at the end. Negative amounts crop.
  int64_t rank2 = spatial + 2;
  SmallVector<int64_t> convPads(2 * spatial, 0), starts(rank2, 0),
      limits(shapeOf(input)), steps(rank2, 1);
  bool crop = false;
  for (int64_t d = 0; d < spatial; ++d) {
    int64_t span = dilations[d] * (kernel[d] - 1);
    int64_t low = span - pads[d];
    int64_t high = span - pads[spatial + d] + outPad[d] - (strides[d] - 1);
    if (low < 0) {
      starts[2 + d] = -low;
      crop = true;
    }
    if (high < 0) {
      limits[2 + d] += high;
      crop = true;
    }
    if (starts[2 + d] > limits[2 + d])
      return ctx.error() << "the pads leave no output";
    convPads[d] = std::max<int64_t>(low, 0);
    convPads[spatial + d] = std::max<int64_t>(high, 0);
  }
  if (crop) {
    FailureOr<Value> cropped = sliceOf(ctx, input, starts, limits, steps);
    if (failed(cropped))
      return failure();
    input = *cropped;
  }
  // W [C, M/g, k...] -> [g, C/g, M/g, k...] -> [g, M/g, C/g, k...]
  // -> [M, C/g, k...], flipped in space.
  int64_t g = *groups, perGroupOut = wShape[1];
  SmallVector<int64_t> grouped = {g, cin / g, perGroupOut};
  grouped.append(kernel);
  SmallVector<int64_t> perm = {0, 2, 1};
  for (int64_t d = 0; d < spatial; ++d)
    perm.push_back(3 + d);
  FailureOr<Value> swapped =
      transposeOf(ctx, reshapeTo(ctx, weight, grouped), perm);
  if (failed(swapped))
    return failure();
  SmallVector<int64_t> kernelShape = {g * perGroupOut, cin / g};
  kernelShape.append(kernel);
  SmallVector<int64_t> flipStarts = {0, 0}, flipLimits = kernelShape,
                       flipSteps = {1, 1};
  for (int64_t d = 0; d < spatial; ++d) {
    flipStarts.push_back(kernel[d] - 1);
    flipLimits[2 + d] = -1;
    flipSteps.push_back(-1);
  }
  FailureOr<Value> kernelValue =
      sliceOf(ctx, reshapeTo(ctx, *swapped, kernelShape), flipStarts,
              flipLimits, flipSteps);
  if (failed(kernelValue))
    return failure();
  Value bias = ctx.input(2);
  Window unitStride;
  unitStride.kernel = kernel;
  unitStride.strides.assign(spatial, 1);
  unitStride.dilations = dilations;
  unitStride.pads = convPads;
  if (spatial == 3) {
    FailureOr<Value> result =
        buildConv3d(ctx, input, *kernelValue, bias, unitStride, g);
    if (failed(result))
      return failure();
    ctx.setOutput(0, *result);
    return success();
  }
  SmallVector<Type> types;
  if (failed(
          kiln::inferConv2d(ctx.loc(), input.getType(), kernelValue->getType(),
                            bias ? bias.getType() : Type(), unitStride.strides,
                            convPads, dilations, g, types)))
    return failure();
  Value result = ctx.finish(
      Conv2dOp::create(ctx.builder(), ctx.loc(), types[0], input, *kernelValue,
                       bias, unitStride.strides, convPads, dilations, g));
  ctx.setOutput(0, xShape.size() == 3 ? from2d(ctx, result) : result);
  return success();
}

/// MaxPool's Indices output: the flat index into X (row-major, or with
/// storage_order 1 the spatial part column-major) of each window's first
/// maximum. Every window offset is a strided slice of X padded with -inf;
/// a running comparison keeps the first strict maximum and its index.
Value maxPoolIndices(ImportContext &ctx, Value input,
                     ArrayRef<int64_t> resultShape, const Window &w,
                     bool columnMajor) {
  ArrayRef<int64_t> shape = shapeOf(input);
  int64_t n = shape[0], c = shape[1], h = shape[2], wd = shape[3];
  int64_t oh = resultShape[2], ow = resultShape[3];
  // The indices come from constants of n*c plane offsets and oh*ow
  // positions, and a model may claim any size for those (found by
  // fuzz/OnnxImportFuzzer: a batch of 2^32 asked for 96 GiB).
  constexpr int64_t kMaxConstant = int64_t(1) << 24;
  if ((c > 0 && n > kMaxConstant / c) || (ow > 0 && oh > kMaxConstant / ow)) {
    ctx.error() << "MaxPool indices over " << n << "x" << c << " planes of "
                << oh << "x" << ow << " positions are implausibly large";
    return {};
  }
  Type element = elementTypeOf(input), i64 = ctx.builder().getI64Type();
  // Pad so that every window of every output position fits (ceil_mode
  // windows may run past the end pads).
  SmallVector<int64_t> low = {0, 0, w.pads[0], w.pads[1]};
  SmallVector<int64_t> high = {0, 0, w.pads[2], w.pads[3]};
  for (int64_t d = 0; d < 2; ++d) {
    int64_t needed = (d == 0 ? oh - 1 : ow - 1) * w.strides[d] +
                     (w.kernel[d] - 1) * w.dilations[d] + 1;
    int64_t have = shape[2 + d] + w.pads[d] + w.pads[2 + d];
    high[2 + d] += std::max<int64_t>(0, needed - have);
  }
  SmallVector<Type> types;
  if (failed(kiln::inferPad(ctx.loc(), input.getType(), low, high,
                            PadMode::constant, types)))
    return {};
  const auto &semantics = cast<FloatType>(element).getFloatSemantics();
  Value padded = ctx.finish(PadOp::create(
      ctx.builder(), ctx.loc(), types[0], input, low, high, PadMode::constant,
      APFloat::getInf(semantics, /*Negative=*/true)));
  Value best, bestIndex;
  for (int64_t i = 0; i < w.kernel[0]; ++i)
    for (int64_t j = 0; j < w.kernel[1]; ++j) {
      SmallVector<int64_t> starts = {0, 0, i * w.dilations[0],
                                     j * w.dilations[1]};
      SmallVector<int64_t> limits = {n, c,
                                     starts[2] + (oh - 1) * w.strides[0] + 1,
                                     starts[3] + (ow - 1) * w.strides[1] + 1};
      SmallVector<int64_t> steps = {1, 1, w.strides[0], w.strides[1]};
      types.clear();
      if (failed(kiln::inferSlice(ctx.loc(), padded.getType(), starts, limits,
                                  steps, types)))
        return {};
      Value value = ctx.finish(SliceOp::create(
          ctx.builder(), ctx.loc(), types[0], padded, starts, limits, steps));
      // Flat spatial index of this tap per output position (positions in
      // the padding get an index too; their -inf never wins over a real
      // element).
      SmallVector<int64_t> index;
      for (int64_t y = 0; y < oh; ++y)
        for (int64_t x = 0; x < ow; ++x) {
          int64_t row = y * w.strides[0] + i * w.dilations[0] - w.pads[0];
          int64_t col = x * w.strides[1] + j * w.dilations[1] - w.pads[1];
          index.push_back(columnMajor ? col * h + row : row * wd + col);
        }
      Value tapIndex = ctx.constant(DenseElementsAttr::get(
          RankedTensorType::get({oh, ow}, i64), ArrayRef<int64_t>(index)));
      if (!best) {
        best = value;
        bestIndex = tapIndex;
        continue;
      }
      types.clear();
      if (failed(kiln::inferBroadcastElementwise(
              ctx.loc(), ValueRange{value, best}, ctx.builder().getI1Type(),
              types)))
        return {};
      Value better =
          ctx.finish(CompareOp::create(ctx.builder(), ctx.loc(), types[0],
                                       ComparePredicate::gt, value, best));
      for (Value *target : {&best, &bestIndex}) {
        Value candidate = target == &best ? value : tapIndex;
        types.clear();
        if (failed(kiln::inferSelect(ctx.loc(), better.getType(),
                                     candidate.getType(), target->getType(),
                                     types)))
          return {};
        *target = ctx.finish(SelectOp::create(
            ctx.builder(), ctx.loc(), types[0], better, candidate, *target));
      }
    }
  // Plus the offset of each (n, c) plane.
  SmallVector<int64_t> offsets;
  for (int64_t p = 0; p < n * c; ++p)
    offsets.push_back(p * h * wd);
  Value planeOffset = ctx.constant(DenseElementsAttr::get(
      RankedTensorType::get({n, c, 1, 1}, i64), ArrayRef<int64_t>(offsets)));
  FailureOr<Value> result = buildBroadcast<AddOp>(ctx, bestIndex, planeOffset);
  if (failed(result))
    return {};
  // (Already [n, c, oh, ow] unless a single-tap window kept the [oh, ow]
  // constant, which the broadcast above widened.)
  return reshapeTo(ctx, *result, {n, c, oh, ow});
}

template <typename OpTy, bool IsMax> LogicalResult convertPool(ImportContext &ctx) {
  FailureOr<Value> x = ctx.requiredInput(0, "X");
  FailureOr<int64_t> ceilMode = ctx.intAttr("ceil_mode", 0);
  FailureOr<int64_t> includePad = ctx.intAttr("count_include_pad", 0);
  if (failed(x) || failed(ceilMode) || failed(includePad))
    return failure();
  bool wantIndices =
      IsMax && ctx.node().output_size() > 1 && !ctx.node().output(1).empty();
  FailureOr<int64_t> storageOrder = ctx.intAttr("storage_order", 0);
  if (failed(storageOrder))
    return failure();
  if (wantIndices && !isa<FloatType>(elementTypeOf(*x))) {
    ctx.markUnsupported();
    return ctx.error() << "the Indices output of MaxPool is supported for "
                          "floating-point inputs only";
  }
  if (!ctx.attribute("kernel_shape"))
    return ctx.error() << "missing attribute 'kernel_shape'";
  FailureOr<Window> window = readWindow(ctx, shapeOf(*x), std::nullopt);
  if (failed(window))
    return failure();
  if (window->spatial() == 3) {
    if (wantIndices) {
      ctx.markUnsupported();
      return ctx.error() << "the Indices output of MaxPool is supported for "
                            "1-D and 2-D windows only";
    }
    FailureOr<Value> result =
        buildPool3d(ctx, *x, *window, IsMax, *ceilMode != 0, *includePad != 0);
    if (failed(result))
      return failure();
    ctx.setOutput(0, *result);
    return success();
  }
  Value input = window->oneDimensional ? to2d(ctx, *x) : *x;
  SmallVector<Type> types;
  if (failed(kiln::inferPool2d(ctx.loc(), input.getType(), window->kernel,
                               window->strides, window->pads,
                               window->dilations, *ceilMode != 0, types)))
    return failure();
  Value result;
  if constexpr (IsMax)
    result = ctx.finish(MaxPool2dOp::create(
        ctx.builder(), ctx.loc(), types[0], input, window->kernel,
        window->strides, window->pads, window->dilations, *ceilMode != 0));
  else
    result = ctx.finish(AvgPool2dOp::create(
        ctx.builder(), ctx.loc(), types[0], input, window->kernel,
        window->strides, window->pads, window->dilations, *ceilMode != 0,
        *includePad != 0));
  ctx.setOutput(0, window->oneDimensional ? from2d(ctx, result) : result);
  if (wantIndices) {
    Value indices = maxPoolIndices(ctx, input, shapeOf(result), *window,
                                   *storageOrder != 0);
    if (!indices)
      return failure();
    ctx.setOutput(1, window->oneDimensional ? from2d(ctx, indices) : indices);
  }
  return success();
}

template <typename OpTy> LogicalResult convertGlobalPool(ImportContext &ctx) {
  FailureOr<Value> x = ctx.requiredInput(0, "X");
  if (failed(x))
    return failure();
  SmallVector<Type> types;
  if (failed(kiln::inferGlobalPool(ctx.loc(), x->getType(), types)))
    return failure();
  ctx.setOutput(0, ctx.finish(OpTy::create(ctx.builder(), ctx.loc(), types[0],
                                           *x)));
  return success();
}

/// MaxUnpool: X's values land at their flat indices into the output (the
/// Indices output of MaxPool), zeros elsewhere, through a one-hot
/// comparison of the indices against the output positions. The output
/// shape is output_shape (constant, or the declared output shape when it
/// is a run-time input) or (in - 1) * stride + kernel - pads.
LogicalResult convertMaxUnpool(ImportContext &ctx) {
  FailureOr<Value> x = ctx.requiredInput(0, "X");
  FailureOr<Value> indices = ctx.requiredInput(1, "I");
  auto kernelAttr = ctx.intsAttr("kernel_shape");
  auto stridesAttr = ctx.intsAttr("strides");
  auto padsAttr = ctx.intsAttr("pads");
  if (failed(x) || failed(indices) || failed(kernelAttr) ||
      failed(stridesAttr) || failed(padsAttr))
    return failure();
  ArrayRef<int64_t> shape = shapeOf(*x);
  int64_t rank = shape.size(), spatial = rank - 2;
  if (rank < 3 || shapeOf(*indices) != shape ||
      !isa<IntegerType>(elementTypeOf(*indices)))
    return ctx.error() << "X must be [N, C, spatial...] and I integer "
                          "indices of the same shape";
  if (!kernelAttr->has_value())
    return ctx.error() << "missing attribute 'kernel_shape'";
  SmallVector<int64_t> kernel = **kernelAttr;
  SmallVector<int64_t> strides =
      stridesAttr->value_or(SmallVector<int64_t>(spatial, 1));
  SmallVector<int64_t> pads =
      padsAttr->value_or(SmallVector<int64_t>(2 * spatial, 0));
  if (int64_t(kernel.size()) != spatial || int64_t(strides.size()) != spatial ||
      int64_t(pads.size()) != 2 * spatial)
    return ctx.error() << "kernel_shape, strides and pads must match the "
                       << spatial << " spatial dimension(s)";
  // The indices address the default output, (in - 1) * stride + kernel -
  // pads; a larger output_shape pads that at the end (as the ONNX
  // reference does).
  SmallVector<int64_t> outShape(shape.take_front(2));
  for (int64_t d = 0; d < spatial; ++d) {
    if (strides[d] <= 0 || kernel[d] <= 0 || strides[d] > (1 << 20) ||
        kernel[d] > (1 << 20))
      return ctx.error() << "kernel_shape and strides must be positive";
    outShape.push_back((shape[2 + d] - 1) * strides[d] + kernel[d] - pads[d] -
                       pads[spatial + d]);
  }
  SmallVector<int64_t> finalShape = outShape;
  if (Value given = ctx.input(2)) {
    std::optional<ArrayRef<int64_t>> declared =
        ctx.declaredShape(ctx.node().output(0));
    if (!matchPattern(given, m_Constant()) && declared) {
      finalShape.assign(declared->begin(), declared->end());
    } else {
      FailureOr<SmallVector<int64_t>> values =
          ctx.constantInts(2, "output_shape");
      if (failed(values))
        return failure();
      finalShape = *values;
    }
    if (int64_t(finalShape.size()) != rank || finalShape[0] != shape[0] ||
        finalShape[1] != shape[1])
      return ctx.error() << "output_shape must be [N, C, spatial...] with "
                            "X's N and C";
    for (int64_t d = 2; d < rank; ++d)
      if (finalShape[d] < outShape[d]) {
        ctx.markUnsupported();
        return ctx.error() << "an output_shape smaller than the default "
                              "unpooled shape is not supported";
      }
  }
  int64_t count = 1, positions = 1;
  for (int64_t d = 0; d < rank; ++d) {
    if (outShape[d] < 0)
      return ctx.error() << "the output would have a negative dimension";
    count *= shape[d];
    positions *= outShape[d];
  }
  if (count * positions > (int64_t(1) << 28)) {
    ctx.markUnsupported();
    return ctx.error() << "MaxUnpool of " << count << " values into "
                       << positions
                       << " positions is too large for its "
                          "one-hot lowering";
  }
  Type i64 = ctx.builder().getI64Type(), i1 = ctx.builder().getI1Type();
  Value flatIndex = reshapeTo(ctx, castTo(ctx, *indices, i64), {count, 1});
  SmallVector<int64_t> ramp = llvm::to_vector(llvm::seq<int64_t>(0, positions));
  Value positionsRamp = ctx.constant(DenseElementsAttr::get(
      RankedTensorType::get({1, positions}, i64), ArrayRef<int64_t>(ramp)));
  SmallVector<Type> types;
  if (failed(kiln::inferBroadcastElementwise(
          ctx.loc(), ValueRange{flatIndex, positionsRamp}, i1, types)))
    return failure();
  Value hot = ctx.finish(CompareOp::create(ctx.builder(), ctx.loc(), types[0],
                                           ComparePredicate::eq, flatIndex,
                                           positionsRamp));
  Value values = reshapeTo(ctx, *x, {count, 1});
  Value zero = scalarConstant(ctx, elementTypeOf(*x), 0);
  types.clear();
  if (failed(kiln::inferSelect(ctx.loc(), hot.getType(), values.getType(),
                               zero.getType(), types)))
    return failure();
  Value placed = ctx.finish(
      SelectOp::create(ctx.builder(), ctx.loc(), types[0], hot, values, zero));
  types.clear();
  SmallVector<int64_t> axes = {0};
  if (failed(
          kiln::inferReduce(ctx.loc(), placed.getType(), axes, false, types)))
    return failure();
  Value summed = ctx.finish(ReduceSumOp::create(ctx.builder(), ctx.loc(),
                                                types[0], placed, axes, false));
  Value result = reshapeTo(ctx, summed, outShape);
  if (finalShape != outShape) {
    SmallVector<int64_t> low(rank, 0), high(rank, 0);
    for (int64_t d = 0; d < rank; ++d)
      high[d] = finalShape[d] - outShape[d];
    types.clear();
    if (failed(kiln::inferPad(ctx.loc(), result.getType(), low, high,
                              PadMode::constant, types)))
      return failure();
    result =
        ctx.finish(PadOp::create(ctx.builder(), ctx.loc(), types[0], result,
                                 low, high, PadMode::constant, APFloat(0.0)));
  }
  ctx.setOutput(0, result);
  return success();
}

LogicalResult convertBatchNorm(ImportContext &ctx);

/// BatchNormalization before opset 7: inference is `is_test` (its default
/// 0 is training), and `spatial` 0 (statistics per element) is refused.
LogicalResult convertLegacyBatchNorm(ImportContext &ctx) {
  FailureOr<int64_t> isTest = ctx.intAttr("is_test", 0);
  FailureOr<int64_t> spatial = ctx.intAttr("spatial", 1);
  if (failed(isTest) || failed(spatial))
    return failure();
  if (!*isTest || !*spatial) {
    ctx.markUnsupported();
    return ctx.error() << (*isTest ? "BatchNormalization with spatial 0 is "
                                     "not supported"
                                   : "training-mode BatchNormalization "
                                     "(is_test 0) is not supported");
  }
  return convertBatchNorm(ctx);
}

/// Training-mode BatchNormalization (opset 14): normalises with the
/// batch's own statistics (the mean and the biased variance over every
/// dimension but the channels) and outputs the running statistics
/// `input * momentum + current * (1 - momentum)`.
LogicalResult convertTrainingBatchNorm(ImportContext &ctx,
                                       ArrayRef<Value> operands,
                                       float epsilon) {
  FailureOr<float> momentum = ctx.floatAttr("momentum", 0.9f);
  if (failed(momentum))
    return failure();
  Value x = operands[0];
  ArrayRef<int64_t> shape = shapeOf(x);
  if (shape.size() < 2 || !isa<FloatType>(elementTypeOf(x)))
    return ctx.error() << "X must be a floating-point [N, C, ...] tensor";
  SmallVector<int64_t> axes = {0}, perChannel(shape.size(), 1);
  for (int64_t d = 2; d < int64_t(shape.size()); ++d)
    axes.push_back(d);
  perChannel[1] = shape[1];
  auto mean = [&](Value v) -> Value {
    FailureOr<Value> m = reduceOf<ReduceMeanOp>(ctx, v, axes, false);
    return succeeded(m) ? *m : Value();
  };
  Expr e(ctx);
  Value batchMean = mean(x);
  if (!batchMean)
    return failure();
  Value centred = e.sub(x, reshapeTo(ctx, batchMean, perChannel));
  Value batchVar = mean(e.mul(centred, centred));
  if (!batchVar)
    return failure();
  SmallVector<Type> types;
  if (failed(kiln::inferBatchNorm(
          ctx.loc(), {x, operands[1], operands[2], batchMean, batchVar},
          types)))
    return failure();
  ctx.setOutput(
      0, ctx.finish(BatchNormOp::create(ctx.builder(), ctx.loc(), types[0], x,
                                        operands[1], operands[2], batchMean,
                                        batchVar, APFloat(double(epsilon)))));
  auto running = [&](Value input, Value current) {
    return e.add(e.mul(input, e.c(input, *momentum)),
                 e.mul(current, e.c(current, 1.0 - double(*momentum))));
  };
  Value runningMean = running(operands[3], batchMean);
  Value runningVar = running(operands[4], batchVar);
  if (!runningMean || !runningVar)
    return failure();
  ctx.setOutput(1, runningMean);
  ctx.setOutput(2, runningVar);
  return success();
}

LogicalResult convertBatchNorm(ImportContext &ctx) {
  SmallVector<Value> operands;
  static const char *names[] = {"X", "scale", "B", "mean", "var"};
  for (int i = 0; i < 5; ++i) {
    FailureOr<Value> value = ctx.requiredInput(i, names[i]);
    if (failed(value))
      return failure();
    operands.push_back(*value);
  }
  FailureOr<float> epsilon = ctx.floatAttr("epsilon", 1e-5f);
  FailureOr<int64_t> training = ctx.intAttr("training_mode", 0);
  if (failed(epsilon) || failed(training))
    return failure();
  bool statisticsUsed = false;
  for (int i = 1; i < ctx.node().output_size(); ++i)
    statisticsUsed |= !ctx.node().output(i).empty();
  if (*training != 0)
    return convertTrainingBatchNorm(ctx, operands, *epsilon);
  if (statisticsUsed) {
    ctx.markUnsupported();
    return ctx.error() << "the running statistics outputs of "
                          "BatchNormalization need training_mode 1";
  }
  SmallVector<Type> types;
  if (failed(kiln::inferBatchNorm(ctx.loc(), operands, types)))
    return failure();
  ctx.setOutput(0, ctx.finish(BatchNormOp::create(
                       ctx.builder(), ctx.loc(), types[0], operands[0],
                       operands[1], operands[2], operands[3], operands[4],
                       APFloat(double(*epsilon)))));
  return success();
}

/// Softmax and LogSoftmax. Before opset 13 the op flattens the input into
/// [outer, inner] at `axis` (default 1) and normalises whole rows of the
/// inner part; from 13 it normalises along one axis (default -1).
template <typename OpTy, bool Coerced2d>
LogicalResult convertSoftmax(ImportContext &ctx) {
  FailureOr<Value> x = ctx.requiredInput(0, "input");
  FailureOr<int64_t> axisAttr = ctx.intAttr("axis", Coerced2d ? 1 : -1);
  if (failed(x) || failed(axisAttr))
    return failure();
  ArrayRef<int64_t> shape = shapeOf(*x);
  FailureOr<int64_t> axis = normalizeAxisAt(ctx, *axisAttr, shape.size());
  if (failed(axis))
    return failure();
  Value input = *x;
  if (Coerced2d && *axis != int64_t(shape.size()) - 1)
    input = flattenAt(ctx, input, *axis);
  Value result = ctx.finish(OpTy::create(ctx.builder(), ctx.loc(),
                                         input.getType(), input,
                                         Coerced2d ? -1 : *axis));
  ctx.setOutput(0, reshapeTo(ctx, result, shape));
  return success();
}

LogicalResult convertLayerNorm(ImportContext &ctx) {
  FailureOr<Value> x = ctx.requiredInput(0, "X");
  FailureOr<Value> scale = ctx.requiredInput(1, "Scale");
  FailureOr<int64_t> axis = ctx.intAttr("axis", -1);
  FailureOr<float> epsilon = ctx.floatAttr("epsilon", 1e-5f);
  if (failed(x) || failed(scale) || failed(axis) || failed(epsilon))
    return failure();
  Value bias = ctx.input(2);
  SmallVector<Type> types;
  if (failed(kiln::inferLayerNorm(ctx.loc(), x->getType(), scale->getType(),
                                  bias ? bias.getType() : Type(), *axis,
                                  types)))
    return failure();
  ctx.setOutput(0, ctx.finish(LayerNormOp::create(
                       ctx.builder(), ctx.loc(), types[0], *x, *scale, bias,
                       *axis, APFloat(double(*epsilon)))));
  // The optional statistics outputs (training graphs ask for them), with
  // the normalised dimensions kept as 1.
  bool wantsStatistics = false;
  for (int i = 1; i < ctx.node().output_size(); ++i)
    wantsStatistics |= !ctx.node().output(i).empty();
  if (!wantsStatistics)
    return success();
  int64_t rank = shapeOf(*x).size();
  int64_t first = *normalizeAxis(*axis, rank);
  SmallVector<int64_t> axes = llvm::to_vector(llvm::seq<int64_t>(first, rank));
  OpBuilder &b = ctx.builder();
  auto mean = [&](Value v) {
    SmallVector<Type> t;
    (void)kiln::inferReduce(ctx.loc(), v.getType(), axes, true, t);
    return ctx.finish(ReduceMeanOp::create(b, ctx.loc(), t[0], v, axes, true));
  };
  Value average = mean(*x);
  FailureOr<Value> centered = buildBroadcast<SubOp>(ctx, *x, average);
  FailureOr<Value> squares = buildBroadcast<MulOp>(ctx, *centered, *centered);
  Value variance = mean(*squares);
  FailureOr<Value> shifted = buildBroadcast<AddOp>(
      ctx, variance,
      scalarConstant(ctx, elementTypeOf(variance), double(*epsilon)));
  Value inverse = ctx.finish(
      RsqrtOp::create(b, ctx.loc(), shifted->getType(), *shifted));
  ctx.setOutput(1, average);
  ctx.setOutput(2, inverse);
  return success();
}

/// Dropout at inference is the identity and its mask is all ones (bool from
/// opset 10, the data type before). So is training mode with a ratio of 0;
/// training mode that drops values (at random) is not supported.
LogicalResult convertDropout(ImportContext &ctx) {
  FailureOr<Value> x = ctx.requiredInput(0, "data");
  if (failed(x))
    return failure();
  if (ctx.opset() >= 12 && ctx.input(2)) {
    FailureOr<DenseElementsAttr> training = ctx.constantInput(2, "training_mode");
    if (failed(training))
      return failure();
    if (!training->isSplat() || training->getSplatValue<bool>()) {
      // The ratio defaults to 0.5; only a constant 0 keeps every value.
      bool zeroRatio = false;
      if (ctx.input(1)) {
        FailureOr<DenseElementsAttr> ratio = ctx.constantInput(1, "ratio");
        if (failed(ratio))
          return failure();
        zeroRatio = ratio->isSplat() &&
                    isa<FloatType>(ratio->getElementType()) &&
                    ratio->getSplatValue<APFloat>().isZero();
      }
      if (!zeroRatio) {
        ctx.markUnsupported();
        return ctx.error() << "training-mode Dropout with a ratio other than "
                              "0 is not supported (it drops values at random)";
      }
    }
  }
  ctx.setOutput(0, *x);
  if (ctx.node().output_size() > 1 && !ctx.node().output(1).empty()) {
    Type element = ctx.opset() >= 10 ? Type(ctx.builder().getI1Type())
                                     : elementTypeOf(*x);
    auto type = RankedTensorType::get(shapeOf(*x), element);
    Attribute one = isa<FloatType>(element)
                        ? Attribute(FloatAttr::get(element, 1.0))
                        : Attribute(IntegerAttr::get(element, 1));
    ctx.setOutput(1, ctx.constant(DenseElementsAttr::get(type, one)));
  }
  return success();
}

} // namespace

void registerNNConverters(ConverterRegistry &r) {
  r.add("Conv", 1, convertConv);
  r.add("ConvTranspose", 1, convertConvTranspose);
  r.add("MaxUnpool", 9, convertMaxUnpool);
  r.add("MaxPool", 1, convertPool<MaxPool2dOp, true>);
  r.add("AveragePool", 1, convertPool<AvgPool2dOp, false>);
  r.add("GlobalAveragePool", 1, convertGlobalPool<GlobalAvgPoolOp>);
  r.add("GlobalMaxPool", 1, convertGlobalPool<GlobalMaxPoolOp>);
  r.add("BatchNormalization", 1, convertLegacyBatchNorm);
  r.add("BatchNormalization", 7, convertBatchNorm);
  r.add("Softmax", 1, convertSoftmax<SoftmaxOp, true>);
  r.add("Softmax", 13, convertSoftmax<SoftmaxOp, false>);
  r.add("LogSoftmax", 1, convertSoftmax<LogSoftmaxOp, true>);
  r.add("LogSoftmax", 13, convertSoftmax<LogSoftmaxOp, false>);
  r.add("LayerNormalization", 17, convertLayerNorm);
  r.add("Dropout", 7, convertDropout);
}

} // namespace kiln::onnx
