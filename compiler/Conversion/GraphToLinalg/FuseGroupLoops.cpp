//===- FuseGroupLoops.cpp - One loop nest per fusion group ----------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// A kiln.fusion group arrives here with one linalg op per graph op. Inside
// the group (and only there: grouping decisions belong to the fusion pass)
// elementwise producers are fused into their consumers, so an elementwise
// chain, or a reduction or contraction with its epilogue, needs no
// intermediate tensors. A producer with several users is not fused (that
// would recompute it). Every op left in the group records where it came
// from: its location fuses the group's source locations (ONNX node names),
// and `kiln.group` names the group.
//
//===----------------------------------------------------------------------===//

#include "compiler/Conversion/GraphToLinalg/Passes.h"

#include "dialects/Graph/IR/GraphOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

namespace kiln::compiler {

namespace {
LogicalResult fuseLoops(FusionOp group) {
  RewritePatternSet patterns(group.getContext());
  linalg::populateElementwiseOpsFusionPatterns(
      patterns, [](OpOperand *operand) {
        Operation *producer = operand->get().getDefiningOp();
        if (!producer || !producer->hasOneUse())
          return false;
        // A producer fused into a window read (im2col, pooling) becomes a
        // per-element gather that stays scalar; materialised, the window
        // is a strided view of a buffer that the CPU vectoriser handles.
        auto consumer = dyn_cast<linalg::LinalgOp>(operand->getOwner());
        return !consumer || consumer.getMatchingIndexingMap(operand)
                                .isProjectedPermutation();
      });
  return applyPatternsGreedily(group, std::move(patterns));
}

void inlineGroup(FusionOp group, unsigned index) {
  IRRewriter rewriter(group.getContext());
  auto name =
      rewriter.getStringAttr("fusion#" + std::to_string(index) + " (" +
                             group.getKind().value_or("group").str() + ")");
  for (Operation &op : group.getBodyBlock().without_terminator())
    if (isa<linalg::LinalgOp>(op)) {
      op.setLoc(group.getLoc());
      op.setAttr("kiln.group", name);
    }
  YieldOp yield = group.getYield();
  SmallVector<Value> results(yield.getValues());
  // A yielded body argument is the matching input once the body is inlined.
  for (Value &result : results)
    if (auto argument = dyn_cast<BlockArgument>(result);
        argument && argument.getOwner() == &group.getBodyBlock())
      result = group.getInputs()[argument.getArgNumber()];
  rewriter.setInsertionPoint(group);
  rewriter.inlineBlockBefore(&group.getBodyBlock(), group, group.getInputs());
  rewriter.eraseOp(yield);
  rewriter.replaceOp(group, results);
}
} // namespace

LogicalResult fuseAndInlineGroups(Operation *root) {
  SmallVector<FusionOp> groups;
  root->walk([&](FusionOp group) { groups.push_back(group); });
  for (auto [index, group] : llvm::enumerate(groups)) {
    // Fusion failing to converge leaves correct, unfused loops.
    (void)fuseLoops(group);
    inlineGroup(group, index);
  }
  return success();
}

} // namespace kiln::compiler
