//===- SelectFusionGroups.cpp - Keep only some fusion groups --------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// A dissolved group is exactly the unfused program for its ops: its body
// is spliced back where the group stood, in the same order, so a search
// over subsets of groups compares fusion decisions and nothing else.
//
//===----------------------------------------------------------------------===//

#include "compiler/Fusion/FusionRules.h"
#include "compiler/Fusion/Passes.h"

#include "dialects/Graph/IR/GraphOps.h"

namespace kiln::compiler {
#define GEN_PASS_DEF_SELECTFUSIONGROUPSPASS
#include "compiler/Fusion/Passes.h.inc"
} // namespace kiln::compiler

using namespace mlir;

namespace kiln::compiler {

namespace {
/// Tests only: the group loses its last op, as a wrong fusion rule could.
void miscompile(FusionOp group) {
  YieldOp yield = group.getYield();
  for (OpOperand &yielded : yield->getOpOperands()) {
    Operation *last = yielded.get().getDefiningOp();
    if (!last || last->getNumOperands() == 0 ||
        last->getOperand(0).getType() != yielded.get().getType())
      continue;
    yielded.set(last->getOperand(0));
    return;
  }
}

struct SelectFusionGroupsPass
    : impl::SelectFusionGroupsPassBase<SelectFusionGroupsPass> {
  using SelectFusionGroupsPassBase::SelectFusionGroupsPassBase;

  void runOnOperation() override {
    SmallVector<FusionOp> groups;
    getOperation().walk([&](FusionOp group) { groups.push_back(group); });
    for (auto [number, group] : llvm::enumerate(groups)) {
      bool kept = keep.empty() || llvm::is_contained(keep, int64_t(number));
      // The wrong rule breaks what it fuses: a dissolved group is correct.
      if (kept && int64_t(number) == testMiscompile)
        miscompile(group);
      if (!kept)
        inlineFusionGroup(group);
    }
  }
};
} // namespace

} // namespace kiln::compiler
