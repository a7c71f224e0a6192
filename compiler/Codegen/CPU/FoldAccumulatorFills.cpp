//===- FoldAccumulatorFills.cpp - A contraction's zero fill onto the op ---===//
//
// SPDX-License-Identifier: Apache-2.0
//
// See Passes.td and AccumulatorInit.h.
//
//===----------------------------------------------------------------------===//

#include "compiler/Codegen/CPU/AccumulatorInit.h"
#include "compiler/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace kiln::compiler {
#define GEN_PASS_DEF_FOLDACCUMULATORFILLSPASS
#include "compiler/Codegen/CPU/Passes.h.inc"
} // namespace kiln::compiler

using namespace mlir;

linalg::FillOp
kiln::compiler::materializeAccumulatorInit(RewriterBase &rewriter,
                                           linalg::LinalgOp op) {
  TypedAttr init = accumulatorInit(op);
  assert(init && "no initial value to put back");
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);
  Location loc = op.getLoc();
  Value value = arith::ConstantOp::create(rewriter, loc, init);
  auto fill = linalg::FillOp::create(rewriter, loc, value,
                                     op.getDpsInitOperand(0)->get());
  // The fill belongs to the op's group and kernel, as it did before.
  for (NamedAttribute attr : op->getDiscardableAttrs())
    if (attr.getName() != kAccumulatorInitAttr)
      fill->setAttr(attr.getName(), attr.getValue());
  rewriter.modifyOpInPlace(op, [&] { op->removeAttr(kAccumulatorInitAttr); });
  return fill;
}

namespace {

bool isF32Buffer(Value value) {
  auto type = dyn_cast<MemRefType>(value.getType());
  return type && type.getElementType().isF32();
}

/// The reduction `fill` initialises: the next op with memory effects, an
/// f32 linalg op with reduction loops (a contraction, a depthwise
/// convolution, a pooling window; all f32, so the int8 and weight-only
/// kernel calls never see it) whose only output is the filled buffer,
/// which it does not also read as an input.
linalg::LinalgOp initialisedReduction(linalg::FillOp fill) {
  Operation *next = fill->getNextNode();
  while (next && isMemoryEffectFree(next))
    next = next->getNextNode();
  auto op = dyn_cast_or_null<linalg::LinalgOp>(next);
  if (!op || !op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 ||
      op.getNumReductionLoops() == 0)
    return {};
  Value output = op.getDpsInitOperand(0)->get();
  if (output != fill.getDpsInitOperand(0)->get() || !isF32Buffer(output))
    return {};
  for (Value input : op.getDpsInputs())
    if (input == output || !isF32Buffer(input))
      return {};
  return op;
}

struct FoldAccumulatorFillsPass
    : kiln::compiler::impl::FoldAccumulatorFillsPassBase<
          FoldAccumulatorFillsPass> {
  void runOnOperation() override {
    SmallVector<linalg::FillOp> fills;
    getOperation().walk([&](linalg::FillOp fill) { fills.push_back(fill); });
    IRRewriter rewriter(&getContext());
    for (linalg::FillOp fill : fills) {
      TypedAttr value;
      if (!matchPattern(fill.value(), m_Constant(&value)) ||
          !fill.hasPureBufferSemantics())
        continue;
      linalg::LinalgOp op = initialisedReduction(fill);
      if (!op)
        continue;
      rewriter.modifyOpInPlace(op, [&] {
        op->setAttr(kiln::compiler::kAccumulatorInitAttr, value);
      });
      rewriter.eraseOp(fill);
    }
  }
};

} // namespace
