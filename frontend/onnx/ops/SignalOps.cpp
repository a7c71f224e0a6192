//===- SignalOps.cpp - Window functions, DFT and STFT ---------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// HannWindow, HammingWindow and BlackmanWindow depend on their size only:
// the window is computed here, in double precision, and becomes a constant
// of the requested type (a size given as a graph input is bound by the
// JIT, as any shape operand is).
//
// DFT and STFT are matrix products with constant twiddle matrices (cos and
// sin of 2 pi n k / N, computed in double precision): the transformed axis
// moves last, [..., N] x [N, K] gives the K bins (N / 2 + 1 when one-sided)
// for the real and the imaginary part, and the parts are stacked again.
// O(N^2) multiply-adds on the GEMM kernels rather than an FFT's
// O(N log N) in scalar code; N is bounded (kMaxDftLength) to keep the
// matrices small.
//
//===----------------------------------------------------------------------===//

#include "frontend/onnx/ConverterRegistry.h"
#include "frontend/onnx/TensorImport.h"
#include "frontend/onnx/ops/Common.h"

#include "mlir/IR/BuiltinTypes.h"

#include <cmath>
#include <numeric>

using namespace mlir;

namespace kiln::onnx {

namespace {

/// A generalised cosine window: sum over k of (-1)^k a_k cos(2 pi k n / N).
LogicalResult convertCosineWindow(ImportContext &ctx,
                                  ArrayRef<double> coefficients) {
  FailureOr<SmallVector<int64_t>> size = ctx.constantInts(0, "size");
  FailureOr<int64_t> periodic = ctx.intAttr("periodic", 1);
  FailureOr<int64_t> dtype = ctx.intAttr("output_datatype", 1);
  if (failed(size) || failed(periodic) || failed(dtype))
    return failure();
  if (size->size() != 1 || (*size)[0] < 1 || (*size)[0] > (int64_t(1) << 24))
    return ctx.error() << "size must be one value in [1, 2^24]";
  Type element = importElementType(ctx.context(), int32_t(*dtype), ctx.loc());
  if (!element)
    return failure();
  int64_t n = (*size)[0];
  // The periodic window is the symmetric one of n + 1 points, cut to n.
  double denominator = double(*periodic ? n : n - 1);
  SmallVector<double> values(n);
  for (int64_t i = 0; i < n; ++i) {
    double sum = 0;
    for (auto [k, a] : llvm::enumerate(coefficients))
      sum += (k % 2 ? -a : a) *
             std::cos(2.0 * M_PI * double(k) * double(i) / denominator);
    values[i] = denominator == 0 ? 1.0 : sum;
  }
  auto type = RankedTensorType::get({n}, element);
  SmallVector<Attribute> attrs;
  for (double v : values)
    attrs.push_back(isa<FloatType>(element)
                        ? Attribute(FloatAttr::get(element, v))
                        : Attribute(IntegerAttr::get(element, int64_t(v))));
  ctx.setOutput(0, ctx.constant(DenseElementsAttr::get(type, attrs)));
  return success();
}

LogicalResult convertHann(ImportContext &ctx) {
  return convertCosineWindow(ctx, {0.5, 0.5});
}
LogicalResult convertHamming(ImportContext &ctx) {
  return convertCosineWindow(ctx, {25.0 / 46.0, 21.0 / 46.0});
}
LogicalResult convertBlackman(ImportContext &ctx) {
  return convertCosineWindow(ctx, {0.42, 0.5, 0.08});
}

/// The largest transform length: the two twiddle matrices of f32 take
/// 2 * N * N * 4 bytes (128 MiB at 4096).
constexpr int64_t kMaxDftLength = 4096;

/// A complex tensor as its real and imaginary parts (`im` null when the
/// signal is real).
struct Complex {
  Value re, im;
};

/// A [n, k] constant of `element`: cos or sin of 2 pi i j / n, times
/// `scale`.
Value twiddles(ImportContext &ctx, Type element, int64_t n, int64_t k,
               bool sine, double scale) {
  SmallVector<Attribute> values;
  values.reserve(n * k);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < k; ++j) {
      // (i * j) mod n keeps the angle small, so it stays exact.
      double angle = 2.0 * M_PI * double((i * j) % n) / double(n);
      double v = (sine ? std::sin(angle) : std::cos(angle)) * scale;
      values.push_back(FloatAttr::get(element, v));
    }
  return ctx.constant(
      DenseElementsAttr::get(RankedTensorType::get({n, k}, element), values));
}

/// The DFT of `x` along its last dimension (of length n): the forward
/// transform sums x e^(-2 pi i n k / N), the inverse one x e^(+...) / N.
FailureOr<Complex> dftAlongLast(ImportContext &ctx, Complex x, bool inverse,
                                bool onesided) {
  Type element = elementTypeOf(x.re);
  int64_t n = shapeOf(x.re).back();
  int64_t k = onesided ? n / 2 + 1 : n;
  double scale = inverse ? 1.0 / double(n) : 1.0;
  // e^(-i a) = cos a - i sin a: the forward sine carries the minus sign.
  Value cosines = twiddles(ctx, element, n, k, false, scale);
  Value sines = twiddles(ctx, element, n, k, true, inverse ? scale : -scale);
  FailureOr<Value> reCos = matmulOf(ctx, x.re, cosines);
  FailureOr<Value> reSin = matmulOf(ctx, x.re, sines);
  if (failed(reCos) || failed(reSin))
    return failure();
  if (!x.im)
    return Complex{*reCos, *reSin};
  FailureOr<Value> imCos = matmulOf(ctx, x.im, cosines);
  FailureOr<Value> imSin = matmulOf(ctx, x.im, sines);
  if (failed(imCos) || failed(imSin))
    return failure();
  // (a + ib)(c + is) = (ac - bs) + i(as + bc).
  FailureOr<Value> re = buildBroadcast<SubOp>(ctx, *reCos, *imSin);
  FailureOr<Value> im = buildBroadcast<AddOp>(ctx, *reSin, *imCos);
  if (failed(re) || failed(im))
    return failure();
  return Complex{*re, *im};
}

/// Splits [..., 1 or 2] into its parts, or an error.
FailureOr<Complex> splitComplex(ImportContext &ctx, Value x) {
  ArrayRef<int64_t> shape = shapeOf(x);
  if (shape.empty() || (shape.back() != 1 && shape.back() != 2))
    return ctx.error() << "the last dimension must be 1 (real) or 2 "
                          "(complex), the input is "
                       << x.getType();
  if (!isa<FloatType>(elementTypeOf(x)))
    return ctx.error() << "the input must be a floating-point tensor";
  int64_t last = int64_t(shape.size()) - 1;
  FailureOr<Value> re = takeAlong(ctx, x, last, 0);
  if (failed(re))
    return failure();
  if (shape.back() == 1)
    return Complex{*re, Value()};
  FailureOr<Value> im = takeAlong(ctx, x, last, 1);
  if (failed(im))
    return failure();
  return Complex{*re, *im};
}

/// [..., 2] from the parts.
FailureOr<Value> stackComplex(ImportContext &ctx, Complex x) {
  return stackOf(ctx, {x.re, x.im}, int64_t(shapeOf(x.re).size()));
}

/// `value` cut or zero-padded to `length` along its last dimension.
FailureOr<Value> resizeLast(ImportContext &ctx, Value value, int64_t length) {
  ArrayRef<int64_t> shape = shapeOf(value);
  int64_t have = shape.back();
  if (have == length)
    return value;
  if (have > length) {
    SmallVector<int64_t> starts(shape.size(), 0), limits(shape),
        steps(shape.size(), 1);
    limits.back() = length;
    return sliceOf(ctx, value, starts, limits, steps);
  }
  SmallVector<int64_t> low(shape.size(), 0), high(shape.size(), 0);
  high.back() = length - have;
  return padOf(ctx, value, low, high, 0.0);
}

/// DFT (opset 17): input [..., 1 or 2], the transform along `axis`, of
/// length dft_length (the input cut or zero-padded) or the axis's size.
LogicalResult convertDft(ImportContext &ctx) {
  FailureOr<Value> input = ctx.requiredInput(0, "input");
  FailureOr<int64_t> axisAttr = ctx.intAttr("axis", 1);
  FailureOr<int64_t> inverse = ctx.intAttr("inverse", 0);
  FailureOr<int64_t> onesided = ctx.intAttr("onesided", 0);
  if (failed(input) || failed(axisAttr) || failed(inverse) || failed(onesided))
    return failure();
  FailureOr<Complex> x = splitComplex(ctx, *input);
  if (failed(x))
    return failure();
  int64_t rank = shapeOf(*input).size();
  FailureOr<int64_t> axis = normalizeAxisAt(ctx, *axisAttr, rank);
  if (failed(axis))
    return failure();
  if (*axis == rank - 1)
    return ctx.error() << "axis " << *axisAttr
                       << " is the real/imaginary dimension";
  if (*inverse && *onesided) {
    ctx.markUnsupported();
    return ctx.error() << "a one-sided inverse DFT is not supported";
  }
  int64_t length = shapeOf(*input)[*axis];
  if (ctx.input(1)) {
    FailureOr<SmallVector<int64_t>> given = ctx.constantInts(1, "dft_length");
    if (failed(given))
      return failure();
    if (given->size() != 1 || (*given)[0] < 1)
      return ctx.error() << "dft_length must be one positive integer";
    length = (*given)[0];
  }
  if (length > kMaxDftLength) {
    ctx.markUnsupported();
    return ctx.error() << "a DFT of length " << length
                       << " is longer than Kiln's matrix DFT allows ("
                       << kMaxDftLength << ")";
  }
  // The transformed axis last, and back.
  SmallVector<int64_t> perm, back(rank - 1);
  for (int64_t d = 0; d < rank - 1; ++d)
    if (d != *axis)
      perm.push_back(d);
  perm.push_back(*axis);
  for (int64_t d = 0; d < rank - 1; ++d)
    back[perm[d]] = d;
  Complex moved;
  for (auto [from, to] : {std::pair{&x->re, &moved.re}, {&x->im, &moved.im}}) {
    if (!*from)
      continue;
    FailureOr<Value> t = transposeOf(ctx, *from, perm);
    FailureOr<Value> sized =
        succeeded(t) ? resizeLast(ctx, *t, length) : FailureOr<Value>();
    if (failed(sized))
      return failure();
    *to = *sized;
  }
  FailureOr<Complex> y = dftAlongLast(ctx, moved, *inverse, *onesided);
  if (failed(y))
    return failure();
  FailureOr<Value> re = transposeOf(ctx, y->re, back);
  FailureOr<Value> im = transposeOf(ctx, y->im, back);
  if (failed(re) || failed(im))
    return failure();
  FailureOr<Value> result = stackComplex(ctx, Complex{*re, *im});
  if (failed(result))
    return failure();
  ctx.setOutput(0, *result);
  return success();
}

/// STFT (opset 17): signal [batch, length, 1 or 2], frames of
/// frame_length every frame_step samples (gathered with constant indices),
/// times the window, each transformed: [batch, frames, bins, 2].
LogicalResult convertStft(ImportContext &ctx) {
  FailureOr<Value> signal = ctx.requiredInput(0, "signal");
  FailureOr<int64_t> onesided = ctx.intAttr("onesided", 1);
  if (failed(signal) || failed(onesided))
    return failure();
  ArrayRef<int64_t> shape = shapeOf(*signal);
  if (shape.size() != 3)
    return ctx.error() << "signal must be [batch, length, 1 or 2], it is "
                       << signal->getType();
  if (!ctx.input(1))
    return ctx.error() << "missing input #1 (frame_step)";
  FailureOr<SmallVector<int64_t>> step = ctx.constantInts(1, "frame_step");
  if (failed(step))
    return failure();
  if (step->size() != 1 || (*step)[0] < 1)
    return ctx.error() << "frame_step must be one positive integer";
  Value window = ctx.input(2);
  std::optional<int64_t> frameLength;
  if (ctx.input(3)) {
    FailureOr<SmallVector<int64_t>> given = ctx.constantInts(3, "frame_length");
    if (failed(given))
      return failure();
    if (given->size() != 1 || (*given)[0] < 1)
      return ctx.error() << "frame_length must be one positive integer";
    frameLength = (*given)[0];
  }
  if (window) {
    if (shapeOf(window).size() != 1 ||
        (frameLength && shapeOf(window)[0] != *frameLength))
      return ctx.error() << "window must be [frame_length], it is "
                         << window.getType();
    frameLength = shapeOf(window)[0];
  }
  if (!frameLength)
    return ctx.error() << "STFT needs a window or a frame_length";
  int64_t length = shape[1], frame = *frameLength;
  if (frame > length)
    return ctx.error() << "frames of " << frame
                       << " samples do not fit a signal of " << length;
  if (frame > kMaxDftLength) {
    ctx.markUnsupported();
    return ctx.error() << "frames of " << frame
                       << " samples are longer than Kiln's matrix DFT allows ("
                       << kMaxDftLength << ")";
  }
  int64_t frames = (length - frame) / (*step)[0] + 1;
  SmallVector<int64_t> indices;
  for (int64_t f = 0; f < frames; ++f)
    for (int64_t l = 0; l < frame; ++l)
      indices.push_back(f * (*step)[0] + l);
  Value index = ctx.constant(DenseElementsAttr::get(
      RankedTensorType::get({frames, frame}, ctx.builder().getI64Type()),
      ArrayRef<int64_t>(indices)));
  SmallVector<Type> types;
  if (failed(kiln::inferGather(ctx.loc(), signal->getType(), index.getType(), 1,
                               types)))
    return failure();
  Value framed = ctx.finish(
      GatherOp::create(ctx.builder(), ctx.loc(), types[0], *signal, index, 1));
  FailureOr<Complex> x = splitComplex(ctx, framed);
  if (failed(x))
    return failure();
  if (x->im && *onesided)
    return ctx.error() << "a complex signal has no one-sided STFT";
  if (window) {
    for (Value *part : {&x->re, &x->im}) {
      if (!*part)
        continue;
      FailureOr<Value> windowed = buildBroadcast<MulOp>(ctx, *part, window);
      if (failed(windowed))
        return failure();
      *part = *windowed;
    }
  }
  FailureOr<Complex> y = dftAlongLast(ctx, *x, false, *onesided);
  if (failed(y))
    return failure();
  FailureOr<Value> result = stackComplex(ctx, *y);
  if (failed(result))
    return failure();
  ctx.setOutput(0, *result);
  return success();
}

/// One scalar input as a double (integer or float), from a constant.
FailureOr<double> scalarInput(ImportContext &ctx, int i, llvm::StringRef what) {
  FailureOr<DenseElementsAttr> attr = ctx.constantInput(i, what);
  if (failed(attr))
    return failure();
  if (attr->getNumElements() != 1)
    return ctx.error() << what << " must be one value";
  if (isa<FloatType>(attr->getElementType()))
    return (*attr->getValues<APFloat>().begin()).convertToDouble();
  return double((*attr->getValues<APInt>().begin()).getSExtValue());
}

/// MelWeightMatrix (opset 17): [dft_length / 2 + 1, num_mel_bins]
/// triangular filters between num_mel_bins + 2 points equally spaced on
/// the mel scale (2595 log10(1 + f / 700)) from lower_edge_hertz to
/// upper_edge_hertz, each point mapped to the DFT bin
/// floor((dft_length + 1) f / sample_rate). The band edges are computed in
/// single precision and the points in double, as ONNX's reference does, so
/// that the bins agree at their boundaries.
LogicalResult convertMelWeightMatrix(ImportContext &ctx) {
  FailureOr<double> bins = scalarInput(ctx, 0, "num_mel_bins");
  FailureOr<double> dftLength = scalarInput(ctx, 1, "dft_length");
  FailureOr<double> sampleRate = scalarInput(ctx, 2, "sample_rate");
  FailureOr<double> lower = scalarInput(ctx, 3, "lower_edge_hertz");
  FailureOr<double> upper = scalarInput(ctx, 4, "upper_edge_hertz");
  FailureOr<int64_t> dtype = ctx.intAttr("output_datatype", 1);
  if (failed(bins) || failed(dftLength) || failed(sampleRate) ||
      failed(lower) || failed(upper) || failed(dtype))
    return failure();
  if (*bins < 1 || *bins > kMaxDftLength || *dftLength < 1 ||
      *dftLength > kMaxDftLength || *sampleRate < 1)
    return ctx.error() << "num_mel_bins and dft_length must be in [1, "
                       << kMaxDftLength << "] and sample_rate positive";
  if (!(*lower >= 0 && *lower <= *upper && *upper <= *sampleRate / 2))
    return ctx.error() << "the band must satisfy 0 <= lower_edge_hertz <= "
                          "upper_edge_hertz <= sample_rate / 2";
  Type element = importElementType(ctx.context(), int32_t(*dtype), ctx.loc());
  if (!element)
    return failure();
  int64_t mels = int64_t(*bins), spectrum = int64_t(*dftLength) / 2 + 1;
  auto toMel = [](float hertz) {
    return 2595.0f * std::log10(1.0f + hertz / 700.0f);
  };
  float lowMel = toMel(float(*lower)), highMel = toMel(float(*upper));
  float step = (highMel - lowMel) / float(mels + 2);
  SmallVector<int64_t> points;
  for (int64_t i = 0; i < mels + 2; ++i) {
    double mel = double(i) * double(step) + double(lowMel);
    double hertz = 700.0 * (std::pow(10.0, mel / 2595.0) - 1.0);
    int64_t bin = int64_t(std::floor((*dftLength + 1) * hertz / *sampleRate));
    points.push_back(std::clamp<int64_t>(bin, 0, spectrum - 1));
  }
  SmallVector<double> weights(spectrum * mels, 0.0);
  for (int64_t m = 0; m < mels; ++m) {
    int64_t left = points[m], centre = points[m + 1], right = points[m + 2];
    if (centre == left)
      weights[centre * mels + m] = 1.0;
    else
      for (int64_t j = left; j <= centre; ++j)
        weights[j * mels + m] = double(j - left) / double(centre - left);
    for (int64_t j = centre; j < right; ++j)
      weights[j * mels + m] = double(right - j) / double(right - centre);
  }
  auto type = RankedTensorType::get({spectrum, mels}, element);
  SmallVector<Attribute> attrs;
  for (double w : weights)
    attrs.push_back(isa<FloatType>(element)
                        ? Attribute(FloatAttr::get(element, w))
                        : Attribute(IntegerAttr::get(element, int64_t(w))));
  ctx.setOutput(0, ctx.constant(DenseElementsAttr::get(type, attrs)));
  return success();
}

} // namespace

void registerSignalConverters(ConverterRegistry &r) {
  r.add("MelWeightMatrix", 17, convertMelWeightMatrix);
  r.add("DFT", 17, convertDft);
  r.add("STFT", 17, convertStft);
  r.add("HannWindow", 17, convertHann);
  r.add("HammingWindow", 17, convertHamming);
  r.add("BlackmanWindow", 17, convertBlackman);
}

} // namespace kiln::onnx
