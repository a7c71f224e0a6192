//===- RecordGraphTensorBytes.cpp - The naive allocation of a graph -------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// See Passes.td. The baseline memory planners are judged against (TFLite's
// arena planner, ONNX Runtime's memory patterns) is the naive allocation:
// every intermediate tensor of the graph in its own buffer. Only the graph
// knows its tensors; after lowering, fusion and bufferisation have already
// removed many, so this is counted here and carried to kiln-plan-memory as
// a function attribute.
//
//===----------------------------------------------------------------------===//

#include "compiler/MemoryPlanning/Passes.h"

#include "dialects/Graph/IR/GraphOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/MathExtras.h"

#define DEBUG_TYPE "kiln-record-graph-tensor-bytes"

namespace kiln::compiler {
#define GEN_PASS_DEF_RECORDGRAPHTENSORBYTESPASS
#include "compiler/MemoryPlanning/Passes.h.inc"
} // namespace kiln::compiler

using namespace mlir;
using namespace kiln::compiler;

namespace {

/// Bytes of a statically shaped tensor, i1 as a byte; 0 for anything else.
uint64_t tensorBytes(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape())
    return 0;
  Type element = tensor.getElementType();
  uint64_t width = element.isIntOrFloat() ? element.getIntOrFloatBitWidth()
                   : element.isIndex()    ? 64
                                          : 0;
  return uint64_t(tensor.getNumElements()) *
         std::max<uint64_t>(1, llvm::divideCeil(width, 8));
}

/// Values that are the function's results, directly or through reshapes
/// and fusion boundaries: they live in the caller's buffers.
DenseSet<Value> findOutputs(func::FuncOp function) {
  DenseSet<Value> outputs;
  SmallVector<Value> worklist;
  function.walk([&](func::ReturnOp ret) {
    worklist.append(ret.operand_begin(), ret.operand_end());
  });
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (!outputs.insert(value).second)
      continue;
    if (auto reshape = value.getDefiningOp<kiln::ReshapeOp>())
      worklist.push_back(reshape->getOperand(0));
    else if (auto fusion = value.getDefiningOp<kiln::FusionOp>())
      worklist.push_back(fusion.getYield()->getOperand(
          cast<OpResult>(value).getResultNumber()));
  }
  return outputs;
}

uint64_t countIntermediates(func::FuncOp function) {
  DenseSet<Value> outputs = findOutputs(function);
  uint64_t total = 0;
  function.walk([&](Operation *op) {
    // A group's results are its yielded values, counted where made.
    if (op->hasTrait<OpTrait::ConstantLike>() ||
        isa<kiln::ReshapeOp, kiln::FusionOp>(op))
      return;
    for (Value result : op->getResults())
      if (!outputs.contains(result))
        total += tensorBytes(result.getType());
  });
  return total;
}

struct RecordGraphTensorBytesPass
    : kiln::compiler::impl::RecordGraphTensorBytesPassBase<
          RecordGraphTensorBytesPass> {
  void runOnOperation() override {
    Builder builder(&getContext());
    for (auto function : getOperation().getOps<func::FuncOp>())
      if (!function.isPrivate() && !function.isExternal())
        function->setAttr(
            kGraphTensorBytesAttr,
            builder.getI64IntegerAttr(int64_t(countIntermediates(function))));
  }
};

} // namespace
