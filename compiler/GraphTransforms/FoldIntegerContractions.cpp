//===- FoldIntegerContractions.cpp - ONNX integer ops on int8 kernels -----===//
//
// SPDX-License-Identifier: Apache-2.0
//
// kiln-fold-integer-contractions (Passes.td has the whole story): the
// exact forms the importer gives MatMulInteger, QLinearMatMul, ConvInteger
// and QLinearConv (a matmul of i32 operands, a conv2d of f64 operands)
// become int8 x int8 -> i32 products on the CPU's integer kernels, with the
// activation's zero point applied as one exact correction.
//
//===----------------------------------------------------------------------===//

#include "compiler/GraphTransforms/Passes.h"
#include "compiler/GraphTransforms/QuantizedOperands.h"
#include "compiler/Quantization/QuantizeGraph.h"

#include "dialects/Graph/IR/GraphOps.h"
#include "mlir/IR/Builders.h"

#include <cmath>
#include <optional>

namespace kiln::compiler {
#define GEN_PASS_DEF_FOLDINTEGERCONTRACTIONSPASS
#include "compiler/GraphTransforms/Passes.h.inc"
} // namespace kiln::compiler

using namespace mlir;
using namespace kiln;
using namespace kiln::compiler;

namespace {

/// The values of an integer-valued constant expression: a constant (integer,
/// or float holding integers), a widening cast, or a subtraction of two
/// such expressions (broadcasting). Large weights reach this pass as
/// `sub(cast(constant), zero point)`, which constant folding leaves as it is.
struct IntegerTensor {
  SmallVector<int64_t> shape;
  SmallVector<int64_t> values;
};

std::optional<IntegerTensor> integerValues(Value value, int depth = 0) {
  auto type = cast<RankedTensorType>(value.getType());
  if (!type.hasStaticShape() || depth > 4)
    return std::nullopt;
  IntegerTensor result;
  result.shape.assign(type.getShape().begin(), type.getShape().end());
  Operation *op = value.getDefiningOp();
  if (auto constant = dyn_cast_or_null<ConstantOp>(op)) {
    if (auto ints = dyn_cast<DenseIntElementsAttr>(constant.getValue())) {
      bool isUnsigned = ints.getElementType().isUnsignedInteger();
      for (const APInt &n : ints.getValues<APInt>())
        result.values.push_back(isUnsigned ? int64_t(n.getZExtValue())
                                           : n.getSExtValue());
      return result;
    }
    auto floats = dyn_cast<DenseFPElementsAttr>(constant.getValue());
    if (!floats)
      return std::nullopt;
    for (const APFloat &f : floats.getValues<APFloat>()) {
      double d = f.convertToDouble();
      if (d != std::nearbyint(d) || std::fabs(d) > 65536)
        return std::nullopt;
      result.values.push_back(int64_t(d));
    }
    return result;
  }
  if (auto widen = dyn_cast_or_null<CastOp>(op)) {
    // Integer to a wider integer or to a float: the values stay.
    Type from = getElementTypeOrSelf(widen.getInput().getType());
    Type to = type.getElementType();
    if (!from.isInteger() || from.getIntOrFloatBitWidth() > 16 ||
        (to.isInteger() &&
         to.getIntOrFloatBitWidth() <= from.getIntOrFloatBitWidth()))
      return std::nullopt;
    std::optional<IntegerTensor> input =
        integerValues(widen.getInput(), depth + 1);
    if (!input)
      return std::nullopt;
    result.values = std::move(input->values);
    return result;
  }
  if (auto sub = dyn_cast_or_null<SubOp>(op)) {
    std::optional<IntegerTensor> lhs = integerValues(sub.getLhs(), depth + 1);
    std::optional<IntegerTensor> rhs =
        lhs ? integerValues(sub.getRhs(), depth + 1) : std::nullopt;
    if (!rhs)
      return std::nullopt;
    int64_t count = type.getNumElements();
    result.values.reserve(count);
    for (int64_t i = 0; i < count; ++i)
      result.values.push_back(
          lhs->values[broadcastIndex(result.shape, lhs->shape, i)] -
          rhs->values[broadcastIndex(result.shape, rhs->shape, i)]);
    return result;
  }
  return std::nullopt;
}

/// `values` as int8, or nothing when one does not fit.
std::optional<SmallVector<int8_t>> asInt8(const IntegerTensor &tensor) {
  SmallVector<int8_t> result;
  result.reserve(tensor.values.size());
  for (int64_t v : tensor.values) {
    if (v < -128 || v > 127)
      return std::nullopt;
    result.push_back(int8_t(v));
  }
  return result;
}

/// An activation read as cast(q) - zero point (or cast(q)), with q an i8 or
/// ui8 tensor and the zero point a one-element tensor of the cast's type.
struct CentredActivation {
  Value quantized;
  Value zeroPoint; ///< Null when there is none.
  bool isUnsigned = false;
};

std::optional<CentredActivation> matchCentred(Value activation) {
  CentredActivation result;
  Value inner = activation;
  if (auto sub = activation.getDefiningOp<SubOp>()) {
    auto zeroType = cast<RankedTensorType>(sub.getRhs().getType());
    if (!zeroType.hasStaticShape() || zeroType.getNumElements() != 1 ||
        sub.getRhs().getType() == activation.getType())
      return std::nullopt;
    result.zeroPoint = sub.getRhs();
    inner = sub.getLhs();
  }
  auto widen = inner.getDefiningOp<CastOp>();
  if (!widen)
    return std::nullopt;
  auto element =
      dyn_cast<IntegerType>(getElementTypeOrSelf(widen.getInput().getType()));
  if (!element || element.getWidth() != 8 || element.isSigned())
    return std::nullopt;
  result.quantized = widen.getInput();
  result.isUnsigned = element.isUnsigned();
  return result;
}

/// A rank-0 constant of type `element` holding `value`.
Value scalarLike(OpBuilder &b, Location loc, Type element, int64_t value) {
  auto type = RankedTensorType::get({}, element);
  Attribute attr = isa<FloatType>(element)
                       ? Attribute(b.getFloatAttr(element, double(value)))
                       : Attribute(b.getIntegerAttr(element, value));
  return ConstantOp::create(
      b, loc, cast<ElementsAttr>(DenseElementsAttr::get(type, attr)));
}

/// The activation as int8 and its zero point as the int8 kernels see it:
/// a uint8 tensor and its zero point both move down by 128.
std::pair<Value, Value> signedActivation(OpBuilder &b, Location loc,
                                         const CentredActivation &activation,
                                         Type zeroElement) {
  if (!activation.isUnsigned)
    return {activation.quantized, activation.zeroPoint};
  Value q = shiftToSigned(b, loc, activation.quantized);
  Value offset =
      activation.zeroPoint ? scalarLike(b, loc, zeroElement, 128) : Value();
  Value zero = activation.zeroPoint
                   ? Value(SubOp::create(b, loc, activation.zeroPoint, offset))
                   : scalarLike(b, loc, zeroElement, -128);
  return {q, zero};
}

/// matmul(cast(q) - z, W) with i32 operands and W an integer constant that
/// fits int8: matmul(q, W) on the int8 kernels, minus z x colsum(W).
bool foldIntegerMatmul(MatmulOp matmul) {
  auto resultType = matmul.getType();
  if (!resultType.getElementType().isInteger(32) ||
      matmul.getRhs().getType().getRank() != 2 || !resultType.hasStaticShape())
    return false;
  std::optional<CentredActivation> activation = matchCentred(matmul.getLhs());
  std::optional<IntegerTensor> weights =
      activation ? integerValues(matmul.getRhs()) : std::nullopt;
  std::optional<SmallVector<int8_t>> w8 =
      weights ? asInt8(*weights) : std::nullopt;
  if (!w8)
    return false;
  int64_t k = weights->shape[0], n = weights->shape[1];
  OpBuilder b(matmul);
  Location loc = matmul.getLoc();
  Type i32 = b.getI32Type();
  auto [q, zero] = signedActivation(b, loc, *activation, i32);
  Value w = ConstantOp::create(b, loc,
                               cast<ElementsAttr>(DenseElementsAttr::get(
                                   RankedTensorType::get({k, n}, b.getI8Type()),
                                   ArrayRef<int8_t>(*w8))));
  // Batch dimensions fold into rows (the weights are shared): one GEMM.
  auto qType = cast<RankedTensorType>(q.getType());
  if (qType.getRank() > 2)
    q = ReshapeOp::create(b, loc, qType.clone({qType.getNumElements() / k, k}),
                          q);
  Value product = MatmulOp::create(b, loc, q, w);
  if (qType.getRank() > 2)
    product = ReshapeOp::create(b, loc, resultType, product);
  if (zero) {
    SmallVector<int32_t> sums(n, 0);
    for (int64_t row = 0; row < k; ++row)
      for (int64_t column = 0; column < n; ++column)
        sums[column] += (*w8)[row * n + column];
    Value columnSums = ConstantOp::create(
        b, loc,
        cast<ElementsAttr>(DenseElementsAttr::get(
            RankedTensorType::get({n}, i32), ArrayRef<int32_t>(sums))));
    Value correction = MulOp::create(b, loc, zero, columnSums);
    product = SubOp::create(b, loc, product, correction);
  }
  matmul.getResult().replaceAllUsesWith(product);
  matmul.erase();
  return true;
}

/// conv2d(cast(q) - z, W) in f64 (exact), ungrouped, without bias, with z a
/// constant and W an integer expression that fits int8: W x patches(q) on
/// the int8 kernels (padding reads z), minus z x rowsum(W), in f64 again.
bool foldIntegerConv(Conv2dOp conv) {
  auto resultType = conv.getType();
  if (!resultType.getElementType().isF64() || conv.getGroups() != 1 ||
      conv.getBias() || !resultType.hasStaticShape())
    return false;
  std::optional<CentredActivation> activation = matchCentred(conv.getInput());
  if (!activation)
    return false;
  int64_t zeroPoint = 0;
  if (activation->zeroPoint) {
    std::optional<IntegerTensor> zero = integerValues(activation->zeroPoint);
    if (!zero)
      return false;
    zeroPoint = zero->values.front();
  }
  if (activation->isUnsigned)
    zeroPoint -= 128;
  if (zeroPoint < -128 || zeroPoint > 127)
    return false;
  std::optional<IntegerTensor> weights = integerValues(conv.getWeight());
  std::optional<SmallVector<int8_t>> w8 =
      weights ? asInt8(*weights) : std::nullopt;
  if (!w8)
    return false;
  int64_t o = weights->shape[0], depth = int64_t(w8->size()) / o;
  OpBuilder b(conv);
  Location loc = conv.getLoc();
  Value q = activation->isUnsigned
                ? shiftToSigned(b, loc, activation->quantized)
                : activation->quantized;
  Value patches = int8ConvPatches(b, loc, conv, q, int32_t(zeroPoint));
  Value w =
      ConstantOp::create(b, loc,
                         cast<ElementsAttr>(DenseElementsAttr::get(
                             RankedTensorType::get({o, depth}, b.getI8Type()),
                             ArrayRef<int8_t>(*w8))));
  Value product = MatmulOp::create(b, loc, w, patches);
  if (zeroPoint != 0) {
    SmallVector<int32_t> correction(o, 0);
    for (int64_t channel = 0; channel < o; ++channel)
      for (int64_t i = 0; i < depth; ++i)
        correction[channel] -= int32_t(zeroPoint) * (*w8)[channel * depth + i];
    Value rows =
        ConstantOp::create(b, loc,
                           cast<ElementsAttr>(DenseElementsAttr::get(
                               RankedTensorType::get({o, 1}, b.getI32Type()),
                               ArrayRef<int32_t>(correction))));
    product = AddOp::create(b, loc, product, rows);
  }
  auto productType = cast<RankedTensorType>(product.getType());
  Value wide =
      CastOp::create(b, loc, productType.clone(b.getF64Type()), product);
  Value result = ReshapeOp::create(b, loc, resultType, wide);
  conv.getResult().replaceAllUsesWith(result);
  conv.erase();
  return true;
}

/// A convolution with no int8 form (grouped, depthwise) stays exact, but
/// f64 is not needed when every sum fits f32's 24-bit significand: with
/// activations centred in [-255, 255] and weights of at most `largest`,
/// a sum over `depth` products stays below 255 x largest x depth. The
/// same convolution in f32 (twice the vector width, the f32 kernels),
/// read back as f64, gives the same integers.
bool narrowIntegerConv(Conv2dOp conv) {
  auto resultType = conv.getType();
  if (!resultType.getElementType().isF64() || conv.getBias() ||
      !resultType.hasStaticShape())
    return false;
  std::optional<CentredActivation> activation = matchCentred(conv.getInput());
  std::optional<IntegerTensor> weights =
      activation ? integerValues(conv.getWeight()) : std::nullopt;
  if (!weights)
    return false;
  int64_t largest = 0;
  for (int64_t v : weights->values)
    largest = std::max<int64_t>(largest, v < 0 ? -v : v);
  auto weightType = conv.getWeight().getType();
  int64_t depth = weightType.getDimSize(1) * weightType.getDimSize(2) *
                  weightType.getDimSize(3);
  if (255 * largest * depth >= (int64_t(1) << 24))
    return false;
  OpBuilder b(conv);
  Location loc = conv.getLoc();
  Type f32 = b.getF32Type();
  auto inputType = cast<RankedTensorType>(conv.getInput().getType());
  Value x = CastOp::create(b, loc, inputType.clone(f32), activation->quantized);
  if (activation->zeroPoint) {
    auto zeroType = cast<RankedTensorType>(activation->zeroPoint.getType());
    x = SubOp::create(
        b, loc, x,
        CastOp::create(b, loc, zeroType.clone(f32), activation->zeroPoint));
  }
  SmallVector<float> values(weights->values.begin(), weights->values.end());
  Value w =
      ConstantOp::create(b, loc,
                         cast<ElementsAttr>(DenseElementsAttr::get(
                             weightType.clone(f32), ArrayRef<float>(values))));
  Value narrow = Conv2dOp::create(b, loc, resultType.clone(f32), x, w, Value(),
                                  conv.getStrides(), conv.getPads(),
                                  conv.getDilations(), conv.getGroups());
  conv.getResult().replaceAllUsesWith(
      CastOp::create(b, loc, resultType, narrow).getResult());
  conv.erase();
  return true;
}

struct FoldIntegerContractionsPass
    : kiln::compiler::impl::FoldIntegerContractionsPassBase<
          FoldIntegerContractionsPass> {
  void runOnOperation() override {
    SmallVector<Operation *> contractions;
    getOperation().walk([&](Operation *op) {
      if (isa<MatmulOp, Conv2dOp>(op))
        contractions.push_back(op);
    });
    for (Operation *op : contractions) {
      if (auto matmul = dyn_cast<MatmulOp>(op))
        (void)foldIntegerMatmul(matmul);
      else if (!foldIntegerConv(cast<Conv2dOp>(op)))
        (void)narrowIntegerConv(cast<Conv2dOp>(op));
    }
  }
};

} // namespace
