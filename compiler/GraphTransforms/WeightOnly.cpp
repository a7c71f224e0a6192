//===- WeightOnly.cpp - int8/int4 weights with group-wise scales ----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Quantizes constant contraction weights at compile time (Passes.td has the
// scheme). Activations are untouched, so no calibration is needed: the
// error is the weights' rounding alone.
//
//===----------------------------------------------------------------------===//

#include "compiler/GraphTransforms/WeightOnly.h"
#include "compiler/GraphTransforms/Passes.h"

#include "dialects/Graph/IR/GraphOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"

#include <cmath>

namespace kiln::compiler {
#define GEN_PASS_DEF_WEIGHTONLYPASS
#include "compiler/GraphTransforms/Passes.h.inc"
} // namespace kiln::compiler

using namespace mlir;
using namespace kiln;

std::optional<kiln::compiler::WeightOnlyScheme>
kiln::compiler::parseWeightOnlyScheme(const std::string &text,
                                      std::string &error) {
  WeightOnlyScheme scheme;
  llvm::StringRef type = text, group;
  std::tie(type, group) = llvm::StringRef(text).split(':');
  if (type == "int8")
    scheme.bits = 8;
  else if (type == "int4")
    scheme.bits = 4;
  else {
    error = "unknown weight type '" + type.str() + "' (int8, int4)";
    return std::nullopt;
  }
  if (text.find(':') != std::string::npos &&
      (!group.consume_front("g") || group.getAsInteger(10, scheme.group) ||
       scheme.group < 1 || scheme.group > (1 << 20))) {
    error = "bad group in '" + text +
            "': expected TYPE:gN with N a positive row count (e.g. int4:g128)";
    return std::nullopt;
  }
  return scheme;
}

namespace {

/// Integers and group scales of a K x N f32 matrix (row-major).
struct QuantizedWeights {
  std::vector<int8_t> values;
  std::vector<float> scales;
};

QuantizedWeights quantize(ArrayRef<float> w, int64_t k, int64_t n, int64_t bits,
                          int64_t group) {
  float qmax = bits == 8 ? 127.0f : 7.0f;
  int64_t groups = (k + group - 1) / group;
  QuantizedWeights result{std::vector<int8_t>(k * n),
                          std::vector<float>(groups * n)};
  for (int64_t g = 0; g < groups; ++g) {
    int64_t first = g * group, last = std::min(k, first + group);
    for (int64_t column = 0; column < n; ++column) {
      float largest = 0.0f;
      for (int64_t row = first; row < last; ++row)
        largest = std::max(largest, std::fabs(w[row * n + column]));
      float scale = largest / qmax;
      result.scales[g * n + column] = scale;
      for (int64_t row = first; row < last; ++row) {
        // nearbyint rounds to nearest, ties to even, in the default mode.
        float q =
            scale == 0.0f ? 0.0f : std::nearbyint(w[row * n + column] / scale);
        result.values[row * n + column] =
            static_cast<int8_t>(std::clamp(q, -qmax - 1.0f, qmax));
      }
    }
  }
  return result;
}

/// The f32 weights of a contraction as a row-major K x N matrix, if they
/// are a constant.
std::optional<std::vector<float>> constantWeights(Value weights,
                                                  bool transposed) {
  DenseElementsAttr attr;
  auto type = cast<RankedTensorType>(weights.getType());
  if (type.getRank() != 2 || !type.getElementType().isF32() ||
      !matchPattern(weights, m_Constant(&attr)))
    return std::nullopt;
  std::vector<float> values(attr.getValues<float>().begin(),
                            attr.getValues<float>().end());
  if (!transposed)
    return values;
  int64_t rows = type.getDimSize(0), columns = type.getDimSize(1);
  std::vector<float> result(values.size());
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < columns; ++c)
      result[c * rows + r] = values[r * columns + c];
  return result;
}

struct WeightOnlyPass
    : kiln::compiler::impl::WeightOnlyPassBase<WeightOnlyPass> {
  using WeightOnlyPassBase::WeightOnlyPassBase;

  void runOnOperation() override {
    if ((bits != 4 && bits != 8) || group < 1) {
      getOperation().emitError("kiln-weight-only: bits must be 4 or 8 and "
                               "group positive, got bits=")
          << int64_t(bits) << " group=" << int64_t(group);
      return signalPassFailure();
    }
    SmallVector<Operation *> contractions;
    getOperation().walk([&](Operation *op) {
      if (isa<MatmulOp, GemmOp>(op))
        contractions.push_back(op);
    });
    for (Operation *op : contractions) {
      if (auto matmul = dyn_cast<MatmulOp>(op))
        rewrite(op, matmul.getLhs(), matmul.getRhs(), false);
      else if (auto gemm = dyn_cast<GemmOp>(op); !gemm.getTransA())
        rewrite(op, gemm.getA(), gemm.getB(), gemm.getTransB());
    }
  }

  /// Replaces `op` (lhs x weights, then a gemm's epilogue) when its
  /// weights are an f32 constant.
  void rewrite(Operation *op, Value lhs, Value weights, bool transposed) {
    auto lhsType = cast<RankedTensorType>(lhs.getType());
    if (!lhsType.getElementType().isF32())
      return;
    std::optional<std::vector<float>> w = constantWeights(weights, transposed);
    if (!w)
      return;
    auto weightsType = cast<RankedTensorType>(weights.getType());
    int64_t k = weightsType.getDimSize(transposed ? 1 : 0);
    int64_t n = weightsType.getDimSize(transposed ? 0 : 1);
    QuantizedWeights q = quantize(*w, k, n, bits, group);
    OpBuilder b(op);
    Location loc = op->getLoc();
    auto valuesType = RankedTensorType::get({k, n}, b.getI8Type());
    auto scalesType = RankedTensorType::get({int64_t(q.scales.size()) / n, n},
                                            b.getF32Type());
    Value values =
        ConstantOp::create(b, loc,
                           cast<ElementsAttr>(DenseElementsAttr::get(
                               valuesType, ArrayRef<int8_t>(q.values))));
    Value scales =
        ConstantOp::create(b, loc,
                           cast<ElementsAttr>(DenseElementsAttr::get(
                               scalesType, ArrayRef<float>(q.scales))));
    Value result = WeightOnlyMatmulOp::create(b, loc, lhs, values, scales,
                                              b.getI64IntegerAttr(bits),
                                              b.getI64IntegerAttr(group));
    if (auto gemm = dyn_cast<GemmOp>(op))
      result = gemmEpilogue(b, gemm, result);
    op->getResult(0).replaceAllUsesWith(result);
    op->erase();
  }

  /// alpha * product + beta * C, as elementwise ops.
  Value gemmEpilogue(OpBuilder &b, GemmOp gemm, Value product) {
    Location loc = gemm.getLoc();
    auto scalar = [&](double value) -> Value {
      auto type = RankedTensorType::get({}, b.getF32Type());
      return ConstantOp::create(
          b, loc,
          cast<ElementsAttr>(DenseElementsAttr::get(
              type, b.getF32FloatAttr(static_cast<float>(value)))));
    };
    double alpha = gemm.getAlpha().convertToDouble();
    double beta = gemm.getBeta().convertToDouble();
    if (alpha != 1.0)
      product = MulOp::create(b, loc, product, scalar(alpha));
    Value c = gemm.getC();
    if (!c || beta == 0.0)
      return product;
    if (beta != 1.0)
      c = MulOp::create(b, loc, c, scalar(beta));
    return AddOp::create(b, loc, product, c);
  }
};

} // namespace
