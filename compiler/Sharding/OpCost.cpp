//===- OpCost.cpp - What a graph op costs, for balancing stages ----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "compiler/Sharding/OpCost.h"

#include "dialects/Graph/IR/GraphOps.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace kiln;

namespace kiln::compiler::sharding {

namespace {

int64_t elementsOf(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  return type && type.hasStaticShape() ? type.getNumElements() : 0;
}

int64_t dimOf(Value value, int64_t dim) {
  auto type = cast<RankedTensorType>(value.getType());
  return type.getDimSize(dim < 0 ? type.getRank() + dim : dim);
}

} // namespace

int64_t tensorBytes(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || !type.hasStaticShape())
    return 0;
  int64_t bits = type.getElementType().getIntOrFloatBitWidth();
  return type.getNumElements() * std::max<int64_t>(1, bits / 8);
}

int64_t graphOpFlops(Operation *op) {
  if (op->getNumResults() == 0)
    return 0;
  int64_t results = elementsOf(op->getResult(0));
  if (auto matmul = dyn_cast<MatmulOp>(op))
    return 2 * results * dimOf(matmul.getLhs(), -1);
  if (auto gemm = dyn_cast<GemmOp>(op))
    return 2 * results * dimOf(gemm.getA(), gemm.getTransA() ? 0 : 1);
  if (auto conv = dyn_cast<Conv2dOp>(op)) {
    auto weight = cast<RankedTensorType>(conv.getWeight().getType());
    return 2 * results * weight.getDimSize(1) * weight.getDimSize(2) *
           weight.getDimSize(3);
  }
  // Reductions and normalisations touch every input element once.
  int64_t inputs = op->getNumOperands() ? elementsOf(op->getOperand(0)) : 0;
  return std::max(results, inputs);
}

int64_t graphOpBytes(Operation *op) {
  int64_t bytes = 0;
  for (Value operand : op->getOperands())
    bytes += tensorBytes(operand);
  for (Value result : op->getResults())
    bytes += tensorBytes(result);
  return bytes;
}

double graphOpSeconds(Operation *op, const CostRates &rates) {
  return double(graphOpFlops(op)) / rates.flopsPerSecond +
         double(graphOpBytes(op)) / rates.memoryBytesPerSecond;
}

} // namespace kiln::compiler::sharding
