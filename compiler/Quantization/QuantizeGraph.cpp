//===- QuantizeGraph.cpp - int8 QDQ form for calibrated models ------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "compiler/Quantization/QuantizeGraph.h"

#include "dialects/Graph/IR/GraphOps.h"
#include "mlir/IR/Builders.h"

#include <cmath>
#include <optional>

using namespace mlir;
using namespace kiln;
using namespace kiln::compiler;

namespace {

/// The weight operand of a quantizable contraction and the axis of its
/// output channels, or failure.
FailureOr<std::pair<unsigned, int64_t>> weightOf(Operation *op) {
  if (isa<Conv2dOp>(op))
    return std::make_pair(1u, int64_t(0));
  if (auto gemm = dyn_cast<GemmOp>(op))
    return std::make_pair(1u, int64_t(gemm.getTransB() ? 0 : 1));
  if (auto matmul = dyn_cast<MatmulOp>(op))
    if (matmul.getRhs().getType().getRank() == 2)
      return std::make_pair(1u, int64_t(1));
  return failure();
}

bool isF32(Value value) {
  return cast<RankedTensorType>(value.getType()).getElementType().isF32();
}

/// Builds the quantize/dequantize chain with kiln ops.
class QdqBuilder {
public:
  QdqBuilder(Operation *at) : b(at), loc(at->getLoc()) {}

  Value scalar(double value) {
    auto type = RankedTensorType::get({}, b.getF32Type());
    return ConstantOp::create(
        b, loc,
        cast<ElementsAttr>(DenseElementsAttr::get(
            type, b.getF32FloatAttr(static_cast<float>(value)))));
  }

  /// Round half to even, as QuantizeLinear requires, in two additions:
  /// adding 1.5 * 2^23 leaves no fraction bits in an f32, so the sum is
  /// rounded to an integer by the addition itself (IEEE's nearest, ties to
  /// even), and subtracting it back is exact. That holds for |x| < 2^22;
  /// beyond, the result stays beyond the int8 range the caller clips to,
  /// and NaN stays NaN.
  Value roundHalfEven(Value x) {
    Value shift = scalar(12582912.0); // 1.5 * 2^23
    return SubOp::create(b, loc, AddOp::create(b, loc, x, shift), shift);
  }

  /// clip(round(x / scale) + zero, -128, 127) as i8.
  Value quantize(Value x, QuantParams params) {
    Value scaled = DivOp::create(b, loc, x, scalar(params.scale));
    Value shifted =
        AddOp::create(b, loc, roundHalfEven(scaled), scalar(params.zeroPoint));
    auto type = cast<RankedTensorType>(x.getType());
    Value clipped =
        ClipOp::create(b, loc, type, shifted, b.getF64FloatAttr(-128.0),
                       b.getF64FloatAttr(127.0));
    return CastOp::create(b, loc, type.clone(b.getI8Type()), clipped);
  }

  /// quantize, and back to fp32.
  Value quantizeDequantize(Value x, QuantParams params) {
    auto type = cast<RankedTensorType>(x.getType());
    Value q = quantize(x, params);
    Value centred = SubOp::create(b, loc, CastOp::create(b, loc, type, q),
                                  scalar(params.zeroPoint));
    return MulOp::create(b, loc, centred, scalar(params.scale));
  }

  /// (acc + correction) * scales in f32: the i32 product of an integer
  /// contraction dequantized per channel, its last axis (per column) or,
  /// with `perRow`, the one before it.
  Value dequantize(Value acc, ArrayRef<int32_t> correction,
                   ArrayRef<float> scales, bool perRow) {
    Value corrected =
        AddOp::create(b, loc, acc, vector(correction, b.getI32Type(), perRow));
    auto type = cast<RankedTensorType>(acc.getType()).clone(b.getF32Type());
    return MulOp::create(b, loc, CastOp::create(b, loc, type, corrected),
                         vector(scales, b.getF32Type(), perRow));
  }

  /// A constant vector, or a column ([size, 1]) with `column`.
  template <typename T>
  Value vector(ArrayRef<T> values, Type element, bool column = false) {
    SmallVector<int64_t> shape = {int64_t(values.size())};
    if (column)
      shape.push_back(1);
    auto type = RankedTensorType::get(shape, element);
    return ConstantOp::create(
        b, loc, cast<ElementsAttr>(DenseElementsAttr::get(type, values)));
  }

  OpBuilder b;
  Location loc;
};

/// Weights rounded to symmetric int8 per channel along an axis: the int8
/// values and the channels' scales.
struct RoundedWeights {
  RankedTensorType type;
  int64_t channels, inner;
  SmallVector<int8_t> integers;
  SmallVector<double> scales;

  int64_t channelOf(size_t i) const { return (i / inner) % channels; }

  /// Empty weights of `weights`' type, channels along `axis`.
  static RoundedWeights shapedLike(DenseFPElementsAttr weights, int64_t axis) {
    RoundedWeights result;
    result.type = cast<RankedTensorType>(weights.getType());
    ArrayRef<int64_t> shape = result.type.getShape();
    result.channels = shape[axis];
    result.inner = 1;
    for (int64_t d = axis + 1; d < result.type.getRank(); ++d)
      result.inner *= shape[d];
    return result;
  }

  /// The fp32 values they stand for (the QDQ form's weights). Built only
  /// there: an attribute lives as long as the context.
  DenseElementsAttr dequantized() const {
    SmallVector<float> values(integers.size());
    for (size_t i = 0; i < values.size(); ++i)
      values[i] = static_cast<float>(integers[i] * scales[channelOf(i)]);
    return DenseElementsAttr::get(type, ArrayRef<float>(values));
  }
};

/// `weights` rounded to symmetric int8 per channel along `axis`
/// (scale = max |w| / 127).
RoundedWeights roundWeights(DenseFPElementsAttr weights, int64_t axis) {
  RoundedWeights result = RoundedWeights::shapedLike(weights, axis);
  SmallVector<float> values(weights.getValues<float>());
  SmallVector<double> maxAbs(result.channels, 0.0);
  for (size_t i = 0; i < values.size(); ++i)
    maxAbs[result.channelOf(i)] =
        std::max(maxAbs[result.channelOf(i)], double(std::fabs(values[i])));
  for (double m : maxAbs)
    result.scales.push_back(m > 0 ? m / 127.0 : 1.0);
  result.integers.resize(values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    double q = std::clamp(
        std::nearbyint(values[i] / result.scales[result.channelOf(i)]), -127.0,
        127.0);
    result.integers[i] = static_cast<int8_t>(q);
  }
  return result;
}

/// The float32 product float(n) * scale, as a dequantization computes it.
bool reproduces(float value, int64_t n, float scale) {
  return static_cast<float>(n) * scale == value;
}

/// Weights that are exactly int8 multiples of one scale per channel along
/// `axis` (a dequantized int8 tensor, folded): the integers and scales, or
/// nothing when some channel is not of that form. Each channel's scale is
/// found from its largest magnitude, as the int8 value it may stand for
/// (127 first, where symmetric quantization puts it) and the float32
/// quotients around it; every value must then be reproduced exactly.
std::optional<RoundedWeights> recoverInt8Weights(DenseFPElementsAttr weights,
                                                 int64_t axis) {
  RoundedWeights result = RoundedWeights::shapedLike(weights, axis);
  SmallVector<float> values(weights.getValues<float>());
  SmallVector<SmallVector<size_t>> members(result.channels);
  for (size_t i = 0; i < values.size(); ++i)
    members[result.channelOf(i)].push_back(i);
  result.integers.assign(values.size(), 0);
  result.scales.assign(result.channels, 1.0);
  for (int64_t channel = 0; channel < result.channels; ++channel) {
    float largest = 0;
    for (size_t i : members[channel]) {
      if (!std::isfinite(values[i]))
        return std::nullopt;
      largest = std::max(largest, std::fabs(values[i]));
    }
    if (largest == 0)
      continue; // all zero: integers 0, any scale
    auto fits = [&](float scale) {
      for (size_t i : members[channel]) {
        double n = std::nearbyint(double(values[i]) / scale);
        if (n < -128 || n > 127 || !reproduces(values[i], int64_t(n), scale))
          return false;
      }
      return true;
    };
    std::optional<float> found;
    for (int top = 127; top >= 1 && !found; --top) {
      float guess = largest / float(top);
      for (float candidate :
           {guess, std::nextafter(guess, 0.0f), std::nextafter(guess, 1.0f)})
        if (candidate > 0 && reproduces(largest, top, candidate) &&
            fits(candidate)) {
          found = candidate;
          break;
        }
    }
    if (!found)
      return std::nullopt;
    result.scales[channel] = *found;
    for (size_t i : members[channel])
      result.integers[i] =
          static_cast<int8_t>(std::nearbyint(double(values[i]) / *found));
  }
  return result;
}

/// What --emit=mlir shows of the calibration.
void recordParameters(Operation *op, QuantParams activation, int64_t axis,
                      ArrayRef<double> scales) {
  Builder b(op->getContext());
  SmallVector<Attribute> weightScales;
  for (double s : scales)
    weightScales.push_back(b.getF32FloatAttr(static_cast<float>(s)));
  op->setAttr(
      "kiln.int8",
      b.getDictionaryAttr({
          b.getNamedAttr("input_scale", b.getF32FloatAttr(activation.scale)),
          b.getNamedAttr("input_zero_point",
                         b.getI32IntegerAttr(activation.zeroPoint)),
          b.getNamedAttr("weight_axis", b.getI64IntegerAttr(axis)),
          b.getNamedAttr("weight_scales", b.getArrayAttr(weightScales)),
      }));
}

/// The integer form of a matmul (2-D weights) or a gemm without trans_a:
/// acc = matmul(q(x), Wq) in i32, then y = (acc - zp * colsum(Wq)) *
/// (sx * sw * alpha) + beta * C. The zero-point correction is an exact i32
/// add; the float part is one cast, one multiply and the bias.
bool rewriteAsIntegerContraction(Operation *op, QuantParams activation,
                                 const RoundedWeights &weights,
                                 Value quantized = {}) {
  auto gemm = dyn_cast<GemmOp>(op);
  if (gemm && gemm.getTransA())
    return false;
  auto weightType = cast<RankedTensorType>(op->getOperand(1).getType());
  // Wq as [K, N] (a gemm's trans_b weights are [N, K]).
  bool transposed = gemm && gemm.getTransB();
  int64_t k = weightType.getDimSize(transposed ? 1 : 0);
  int64_t n = weightType.getDimSize(transposed ? 0 : 1);
  SmallVector<int8_t> kn(k * n);
  SmallVector<int32_t> correction(n, 0);
  for (int64_t row = 0; row < k; ++row)
    for (int64_t column = 0; column < n; ++column) {
      int8_t value = transposed ? weights.integers[column * k + row]
                                : weights.integers[row * n + column];
      kn[row * n + column] = value;
      correction[column] -= activation.zeroPoint * int32_t(value);
    }
  double alpha = gemm ? gemm.getAlpha().convertToDouble() : 1.0;
  SmallVector<float> scales;
  for (double s : weights.scales)
    scales.push_back(static_cast<float>(activation.scale * s * alpha));

  QdqBuilder builder(op);
  OpBuilder &b = builder.b;
  Location loc = op->getLoc();
  Value q =
      quantized ? quantized : builder.quantize(op->getOperand(0), activation);
  auto wType = RankedTensorType::get({k, n}, b.getI8Type());
  Value w = ConstantOp::create(
      b, loc,
      cast<ElementsAttr>(DenseElementsAttr::get(wType, ArrayRef<int8_t>(kn))));
  // Batch dimensions of the activation fold into its rows (the weights are
  // shared), so the product is one GEMM the CPU's kernels take.
  auto qType = cast<RankedTensorType>(q.getType());
  if (qType.getRank() > 2)
    q = ReshapeOp::create(b, loc, qType.clone({qType.getNumElements() / k, k}),
                          q);
  auto matmul = MatmulOp::create(b, loc, q, w);
  Value product = matmul;
  if (qType.getRank() > 2) {
    SmallVector<int64_t> shape(qType.getShape().drop_back());
    shape.push_back(n);
    product = ReshapeOp::create(
        b, loc, RankedTensorType::get(shape, b.getI32Type()), product);
  }
  // gemm's C broadcasts to the result, so y keeps the op's type.
  Value y = builder.dequantize(product, correction, scales, /*perRow=*/false);
  if (gemm && gemm.getC() && gemm.getBeta().convertToDouble() != 0.0) {
    Value c = gemm.getC();
    double beta = gemm.getBeta().convertToDouble();
    if (beta != 1.0)
      c = MulOp::create(b, loc, c, builder.scalar(beta));
    y = AddOp::create(b, loc, y, c);
  }
  // The weights are [K, N]: channels along axis 1.
  recordParameters(matmul, activation, 1, weights.scales);
  op->getResult(0).replaceAllUsesWith(y);
  op->erase();
  return true;
}

/// An ungrouped conv2d as int8 GEMMs: per image, weights [O, C*KH*KW]
/// times patches [C*KH*KW, OH*OW] (the kernel packs the patches as it
/// goes). The quantized input is padded with the zero point (a true zero
/// after the correction), cut into KH x KW strided windows and stacked
/// into patches; a 1x1 convolution of stride 1 reads the input as its
/// patches. The product is NCHW already: dequantization is per row.
bool rewriteConvAsIntegerGemm(Conv2dOp conv, QuantParams activation,
                              const RoundedWeights &weights,
                              Value quantized = {}) {
  if (conv.getGroups() != 1)
    return false;
  auto inputType = conv.getInput().getType();
  auto weightType = conv.getWeight().getType();
  auto resultType = conv.getType();
  int64_t c = inputType.getDimSize(1);
  int64_t o = weightType.getDimSize(0), kh = weightType.getDimSize(2),
          kw = weightType.getDimSize(3);
  int64_t depth = c * kh * kw;

  QdqBuilder builder(conv);
  OpBuilder &b = builder.b;
  Location loc = conv.getLoc();
  Type i8 = b.getI8Type();
  Value q =
      quantized ? quantized : builder.quantize(conv.getInput(), activation);
  Value patches = int8ConvPatches(b, loc, conv, q, activation.zeroPoint);

  SmallVector<int32_t> correction(o, 0);
  for (int64_t channel = 0; channel < o; ++channel)
    for (int64_t k = 0; k < depth; ++k)
      correction[channel] -=
          activation.zeroPoint * int32_t(weights.integers[channel * depth + k]);
  SmallVector<float> scales;
  for (double scale : weights.scales)
    scales.push_back(static_cast<float>(activation.scale * scale));
  Value w = ConstantOp::create(
      b, loc,
      cast<ElementsAttr>(DenseElementsAttr::get(
          RankedTensorType::get({o, depth}, i8),
          ArrayRef<int8_t>(weights.integers))));
  auto matmul = MatmulOp::create(b, loc, w, patches);
  Type f32 = b.getF32Type();
  Value y = builder.dequantize(matmul, correction, scales, /*perRow=*/true);
  if (Value bias = conv.getBias())
    y = AddOp::create(
        b, loc, y,
        ReshapeOp::create(b, loc, RankedTensorType::get({o, 1}, f32), bias));
  y = ReshapeOp::create(b, loc, resultType, y);
  // The weights are [O, C*KH*KW]: channels along axis 0.
  recordParameters(matmul, activation, 0, weights.scales);
  conv.getResult().replaceAllUsesWith(y);
  conv.erase();
  return true;
}

} // namespace

Value kiln::compiler::int8ConvPatches(OpBuilder &b, Location loc, Conv2dOp conv,
                                      Value quantized, int32_t padValue) {
  auto inputType = cast<RankedTensorType>(quantized.getType());
  auto weightType = conv.getWeight().getType();
  auto resultType = conv.getType();
  int64_t n = inputType.getDimSize(0), c = inputType.getDimSize(1);
  int64_t kh = weightType.getDimSize(2), kw = weightType.getDimSize(3);
  int64_t oh = resultType.getDimSize(2), ow = resultType.getDimSize(3);
  int64_t depth = c * kh * kw, pixels = oh * ow;
  ArrayRef<int64_t> strides = conv.getStrides(), pads = conv.getPads(),
                    dilations = conv.getDilations();
  bool padded = llvm::any_of(pads, [](int64_t p) { return p != 0; });
  Type i8 = b.getI8Type();
  Value q = quantized;
  if (kh == 1 && kw == 1 && strides[0] == 1 && strides[1] == 1 && !padded)
    return ReshapeOp::create(b, loc, RankedTensorType::get({n, c, pixels}, i8),
                             q);
  if (padded)
    q = PadOp::create(b, loc, q, ArrayRef<int64_t>{0, 0, pads[0], pads[1]},
                      ArrayRef<int64_t>{0, 0, pads[2], pads[3]},
                      PadMode::constant, APFloat(double(padValue)));
  SmallVector<Value> windows;
  for (int64_t y = 0; y < kh; ++y)
    for (int64_t x = 0; x < kw; ++x) {
      int64_t top = y * dilations[0], left = x * dilations[1];
      Value window = SliceOp::create(
          b, loc, q, ArrayRef<int64_t>{0, 0, top, left},
          ArrayRef<int64_t>{n, c, top + (oh - 1) * strides[0] + 1,
                            left + (ow - 1) * strides[1] + 1},
          ArrayRef<int64_t>{1, 1, strides[0], strides[1]});
      windows.push_back(ReshapeOp::create(
          b, loc, RankedTensorType::get({n, c, 1, pixels}, i8), window));
    }
  // [N, C, KH*KW, OH*OW]: row c*KH*KW + kh*KW + kw, as the weights'.
  Value stacked = windows.size() == 1 ? windows.front()
                                      : ConcatOp::create(b, loc, windows,
                                                         /*axis=*/2);
  return ReshapeOp::create(
      b, loc, RankedTensorType::get({n, depth, pixels}, i8), stacked);
}

SmallVector<Operation *>
kiln::compiler::int8QuantizationPoints(func::FuncOp func) {
  SmallVector<Operation *> points;
  func.walk([&](Operation *op) {
    FailureOr<std::pair<unsigned, int64_t>> weight = weightOf(op);
    if (failed(weight))
      return;
    Value w = op->getOperand(weight->first);
    auto constant = w.getDefiningOp<ConstantOp>();
    if (constant && isa<DenseFPElementsAttr>(constant.getValue()) && isF32(w) &&
        isF32(op->getOperand(0)))
      points.push_back(op);
  });
  return points;
}

void kiln::compiler::quantizeContraction(Operation *op,
                                         QuantParams activation) {
  auto [weightIndex, axis] = *weightOf(op);
  auto constant = op->getOperand(weightIndex).getDefiningOp<ConstantOp>();
  RoundedWeights weights =
      roundWeights(cast<DenseFPElementsAttr>(constant.getValue()), axis);
  auto conv = dyn_cast<Conv2dOp>(op);
  if (conv ? rewriteConvAsIntegerGemm(conv, activation, weights)
           : rewriteAsIntegerContraction(op, activation, weights)) {
    if (constant->use_empty())
      constant->erase();
    return;
  }
  QdqBuilder builder(op);
  op->setOperand(weightIndex,
                 ConstantOp::create(builder.b, constant.getLoc(),
                                    cast<ElementsAttr>(weights.dequantized())));
  if (constant->use_empty())
    constant->erase();
  op->setOperand(0, builder.quantizeDequantize(op->getOperand(0), activation));
  recordParameters(op, activation, axis, weights.scales);
}

bool kiln::compiler::foldQuantizedContraction(Operation *op, Value quantized,
                                              QuantParams activation,
                                              DenseFPElementsAttr values) {
  FailureOr<std::pair<unsigned, int64_t>> weight = weightOf(op);
  if (failed(weight) || !values ||
      values.getType() != op->getOperand(weight->first).getType())
    return false;
  std::optional<RoundedWeights> weights =
      recoverInt8Weights(values, weight->second);
  if (!weights)
    return false;
  auto conv = dyn_cast<Conv2dOp>(op);
  return conv
             ? rewriteConvAsIntegerGemm(conv, activation, *weights, quantized)
             : rewriteAsIntegerContraction(op, activation, *weights, quantized);
}
