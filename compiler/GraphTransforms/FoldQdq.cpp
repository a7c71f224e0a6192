//===- FoldQdq.cpp - Imported Q/DQ contractions on int8 kernels -----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// kiln-fold-qdq (Passes.td has the whole story): a contraction whose
// activation is dequantize(quantized int8/uint8) with scalar parameters,
// and whose weights are dequantized int8, becomes the integer contraction
// that int8 calibration writes (compiler/Quantization/QuantizeGraph.h).
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
#define GEN_PASS_DEF_FOLDQDQPASS
#include "compiler/GraphTransforms/Passes.h.inc"
} // namespace kiln::compiler

using namespace mlir;
using namespace kiln;
using namespace kiln::compiler;

namespace {

/// The value of a one-element f32 constant.
std::optional<double> scalarOf(Value value) {
  auto constant = value.getDefiningOp<ConstantOp>();
  auto values = constant ? dyn_cast<DenseFPElementsAttr>(constant.getValue())
                         : DenseFPElementsAttr();
  if (!values || values.getNumElements() != 1 ||
      !values.getElementType().isF32())
    return std::nullopt;
  return double(*values.getValues<float>().begin());
}

/// An activation read as (cast(q) - zero point) * scale, with q an i8 or
/// ui8 tensor and both parameters scalar constants.
struct Dequantized {
  Value quantized;
  QuantParams params;
  bool isUnsigned = false;
};

std::optional<Dequantized> matchDequantize(Value activation) {
  auto mul = activation.getDefiningOp<MulOp>();
  if (!mul)
    return std::nullopt;
  Value inner = mul.getLhs();
  std::optional<double> scale = scalarOf(mul.getRhs());
  if (!scale) {
    inner = mul.getRhs();
    scale = scalarOf(mul.getLhs());
  }
  if (!scale || !(*scale > 0) || !std::isfinite(*scale))
    return std::nullopt;
  double zeroPoint = 0;
  if (auto sub = inner.getDefiningOp<SubOp>()) {
    std::optional<double> zero = scalarOf(sub.getRhs());
    if (!zero || *zero != std::nearbyint(*zero))
      return std::nullopt;
    zeroPoint = *zero;
    inner = sub.getLhs();
  }
  auto widen = inner.getDefiningOp<CastOp>();
  if (!widen)
    return std::nullopt;
  Value quantized = widen.getInput();
  auto element = dyn_cast<IntegerType>(
      cast<RankedTensorType>(quantized.getType()).getElementType());
  if (!element || element.getWidth() != 8 || element.isSigned())
    return std::nullopt;
  bool isUnsigned = element.isUnsigned();
  // An unsigned value reads as signed after subtracting 128 from it and
  // from its zero point.
  double low = isUnsigned ? 0 : -128, high = isUnsigned ? 255 : 127;
  if (zeroPoint < low || zeroPoint > high)
    return std::nullopt;
  Dequantized result;
  result.quantized = quantized;
  result.params.scale = *scale;
  result.params.zeroPoint = int32_t(zeroPoint) - (isUnsigned ? 128 : 0);
  result.isUnsigned = isUnsigned;
  return result;
}

/// The f32 values of a constant, or nothing.
DenseFPElementsAttr floatsOf(Value value) {
  auto constant = value.getDefiningOp<ConstantOp>();
  auto values = constant ? dyn_cast<DenseFPElementsAttr>(constant.getValue())
                         : DenseFPElementsAttr();
  return values && values.getElementType().isF32() ? values
                                                   : DenseFPElementsAttr();
}

/// The weights' f32 values: a constant, or an int8 constant dequantized
/// ((cast(q) - zero point) * scale, parameters constants that broadcast)
/// that constant folding left unfolded (it keeps large tensors as they
/// are). Evaluated as the kernels would: float32 subtract and multiply.
DenseFPElementsAttr weightValues(Value weight) {
  if (DenseFPElementsAttr values = floatsOf(weight))
    return values;
  auto mul = weight.getDefiningOp<MulOp>();
  if (!mul)
    return {};
  Value inner = mul.getLhs();
  DenseFPElementsAttr scale = floatsOf(mul.getRhs());
  if (!scale) {
    inner = mul.getRhs();
    scale = floatsOf(mul.getLhs());
  }
  DenseFPElementsAttr zero;
  if (auto sub = inner ? inner.getDefiningOp<SubOp>() : SubOp()) {
    zero = floatsOf(sub.getRhs());
    if (!zero)
      return {};
    inner = sub.getLhs();
  }
  auto widen = inner ? inner.getDefiningOp<CastOp>() : CastOp();
  auto constant =
      widen ? widen.getInput().getDefiningOp<ConstantOp>() : ConstantOp();
  auto integers = constant ? dyn_cast<DenseIntElementsAttr>(constant.getValue())
                           : DenseIntElementsAttr();
  if (!scale || !integers ||
      integers.getElementType().getIntOrFloatBitWidth() != 8)
    return {};
  auto type = cast<RankedTensorType>(weight.getType());
  if (type.getShape() != integers.getType().getShape())
    return {};
  bool isUnsigned = integers.getElementType().isUnsignedInteger();
  SmallVector<float> scales(scale.getValues<float>());
  SmallVector<float> zeros;
  if (zero)
    zeros.assign(zero.getValues<float>().begin(),
                 zero.getValues<float>().end());
  SmallVector<float> values;
  values.reserve(type.getNumElements());
  int64_t index = 0;
  for (const APInt &n : integers.getValues<APInt>()) {
    float v = float(isUnsigned ? int64_t(n.getZExtValue()) : n.getSExtValue());
    if (zero)
      v -= zeros[broadcastIndex(type.getShape(), zero.getType().getShape(),
                                index)];
    v *= scales[broadcastIndex(type.getShape(), scale.getType().getShape(),
                               index)];
    values.push_back(v);
    ++index;
  }
  return cast<DenseFPElementsAttr>(
      DenseElementsAttr::get(type, ArrayRef<float>(values)));
}

/// A contraction Kiln has an integer form for: a matmul with 2-D weights,
/// a gemm, a conv2d, reading an f32 activation.
bool isContraction(Operation *op) {
  if (op->getNumOperands() < 2 ||
      !cast<RankedTensorType>(op->getOperand(0).getType())
           .getElementType()
           .isF32())
    return false;
  if (auto matmul = dyn_cast<MatmulOp>(op))
    return matmul.getRhs().getType().getRank() == 2;
  return isa<GemmOp, Conv2dOp>(op);
}

struct FoldQdqPass : kiln::compiler::impl::FoldQdqPassBase<FoldQdqPass> {
  void runOnOperation() override {
    SmallVector<Operation *> contractions;
    getOperation().walk([&](Operation *op) {
      if (isContraction(op))
        contractions.push_back(op);
    });
    for (Operation *op : contractions) {
      std::optional<Dequantized> activation =
          matchDequantize(op->getOperand(0));
      if (!activation)
        continue;
      DenseFPElementsAttr weights = weightValues(op->getOperand(1));
      if (!weights)
        continue;
      OpBuilder b(op);
      Value quantized =
          activation->isUnsigned
              ? shiftToSigned(b, op->getLoc(), activation->quantized)
              : activation->quantized;
      // A shift left unused (nothing folded) is dead code the
      // canonicalizer drops.
      (void)foldQuantizedContraction(op, quantized, activation->params,
                                     weights);
    }
  }
};

} // namespace
