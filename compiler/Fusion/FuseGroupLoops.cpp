//===- FuseGroupLoops.cpp - One loop nest per fusion group ----------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// A lowered kiln.fusion group holds one linalg op per graph op. Inside the
// group, and only there, elementwise producers are fused into their
// consumers (the rules are in Passes.td), and reductions that only
// broadcast along some loops reduce once; then the group is dissolved and
// its ops carry its identity in `kiln.group`.
//
//===----------------------------------------------------------------------===//

#include "compiler/Fusion/FusionRules.h"
#include "compiler/Fusion/KernelFormation.h"
#include "compiler/Fusion/Passes.h"
#include "compiler/Fusion/ReduceBeforeBroadcast.h"

#include "dialects/Graph/IR/GraphOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace kiln::compiler {
#define GEN_PASS_DEF_FUSEGROUPLOOPSPASS
#include "compiler/Fusion/Passes.h.inc"
} // namespace kiln::compiler

using namespace mlir;

namespace kiln::compiler {

namespace {
/// Whether `producer` may be fused into the consumer through `operand`.
bool shouldFuse(OpOperand *operand) {
  Operation *producer = operand->get().getDefiningOp();
  if (!producer || !producer->hasOneUse())
    return false;
  // A producer fused into a window read (im2col, pooling) becomes a
  // per-element gather that stays scalar; materialised, the window is a
  // strided view of a buffer that the CPU vectoriser handles.
  auto consumer = dyn_cast<linalg::LinalgOp>(operand->getOwner());
  return !consumer ||
         consumer.getMatchingIndexingMap(operand).isProjectedPermutation();
}

LogicalResult fuseLoops(FusionOp group) {
  RewritePatternSet patterns(group.getContext());
  linalg::populateElementwiseOpsFusionPatterns(patterns, shouldFuse);
  // Splat operands folded into a contraction's body leave loops it only
  // broadcasts along.
  populateReduceBeforeBroadcastPatterns(patterns);
  return applyPatternsGreedily(group, std::move(patterns));
}

void inlineGroup(FusionOp group, unsigned index) {
  Builder builder(group.getContext());
  auto name =
      builder.getStringAttr("fusion#" + std::to_string(index) + " (" +
                             group.getKind().value_or("group").str() + ")");
  for (Operation &op : group.getBodyBlock().without_terminator())
    if (isa<linalg::LinalgOp>(op)) {
      op.setLoc(group.getLoc());
      op.setAttr(kGroupAttr, name);
    }
  inlineFusionGroup(group);
}

struct FuseGroupLoopsPass : impl::FuseGroupLoopsPassBase<FuseGroupLoopsPass> {
  void runOnOperation() override {
    SmallVector<FusionOp> groups;
    getOperation().walk([&](FusionOp group) { groups.push_back(group); });
    // Numbered across the module: names stay unique when several
    // functions are lowered together.
    for (auto [index, group] : llvm::enumerate(groups)) {
      for (Operation &op : group.getBodyBlock().without_terminator())
        if (isa_and_present<KilnDialect>(op.getDialect())) {
          op.emitError("a fusion group's body must be lowered to loops "
                       "(kiln-convert-graph-to-linalg) before its loops are "
                       "fused");
          return signalPassFailure();
        }
      // Fusion failing to converge leaves correct, unfused loops.
      (void)fuseLoops(group);
      inlineGroup(group, index);
    }
  }
};
} // namespace

} // namespace kiln::compiler
