//===- StepDependencies.cpp - Which steps must wait for which -------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "compiler/Scheduling/StepDependencies.h"

#include "dialects/Exec/IR/ExecOps.h"
#include "llvm/ADT/BitVector.h"

using namespace kiln::exec;

namespace kiln::compiler {

namespace {
bool conflict(llvm::ArrayRef<BindingAttr> earlier,
              llvm::ArrayRef<BindingAttr> later) {
  for (BindingAttr a : earlier)
    for (BindingAttr b : later)
      if ((a.writes() || b.writes()) && a.overlaps(b))
        return true;
  return false;
}
} // namespace

llvm::SmallVector<llvm::SmallVector<unsigned>> computeStepDependencies(
    llvm::ArrayRef<llvm::SmallVector<BindingAttr>> bindings) {
  size_t count = bindings.size();
  llvm::SmallVector<llvm::SmallVector<unsigned>> after(count);
  // ancestors[j]: every step j waits for, directly or not.
  std::vector<llvm::BitVector> ancestors(count, llvm::BitVector(count));
  for (size_t j = 0; j < count; ++j) {
    // Latest first: a late dependency usually implies the earlier ones.
    for (size_t i = j; i-- > 0;) {
      if (ancestors[j].test(i) || !conflict(bindings[i], bindings[j]))
        continue;
      after[j].push_back(unsigned(i));
      ancestors[j].set(i);
      ancestors[j] |= ancestors[i];
    }
    std::reverse(after[j].begin(), after[j].end());
  }
  return after;
}

void populateDispatches(ProgramOp program,
                        llvm::ArrayRef<DispatchSpec> dispatches) {
  llvm::SmallVector<llvm::SmallVector<BindingAttr>> bindings;
  for (const DispatchSpec &spec : dispatches)
    bindings.push_back(spec.bindings);
  llvm::SmallVector<llvm::SmallVector<unsigned>> after =
      computeStepDependencies(bindings);
  mlir::Block &body = program.getBody().emplaceBlock();
  auto b = mlir::OpBuilder::atBlockBegin(&body);
  auto token = TokenType::get(program.getContext());
  llvm::SmallVector<mlir::Value> tokens;
  std::optional<unsigned> lastCollective;
  for (auto [index, spec] : llvm::enumerate(dispatches)) {
    llvm::SmallVector<mlir::Value> waits;
    for (unsigned dependency : after[index])
      waits.push_back(tokens[dependency]);
    // Every rank must issue its collectives in program order, whatever the
    // threads of a run make of independent steps.
    if (spec.collective && lastCollective &&
        !llvm::is_contained(after[index], *lastCollective))
      waits.push_back(tokens[*lastCollective]);
    if (spec.collective)
      lastCollective = unsigned(index);
    if (spec.collective) {
      const CollectiveSpec &c = *spec.collective;
      auto collective =
          CollectiveOp::create(b, spec.loc, token, c.kind, c.reduction, c.ranks,
                               /*peer=*/mlir::IntegerAttr(), c.element,
                               spec.bindings[0], spec.bindings[1], waits);
      tokens.push_back(collective.getDone());
      continue;
    }
    llvm::SmallVector<mlir::Attribute> bound(spec.bindings.begin(),
                                             spec.bindings.end());
    llvm::SmallVector<mlir::Attribute> results(spec.results.begin(),
                                               spec.results.end());
    bool hasResults = !results.empty();
    auto dispatch = DispatchOp::create(
        b, spec.loc, token, spec.callee, b.getDenseI32ArrayAttr(spec.grid),
        spec.block ? b.getDenseI32ArrayAttr(*spec.block)
                   : mlir::DenseI32ArrayAttr(),
        spec.sharedBytes, b.getArrayAttr(bound),
        hasResults ? b.getArrayAttr(results) : mlir::ArrayAttr(),
        hasResults ? b.getTypeArrayAttr(spec.resultElements)
                   : mlir::ArrayAttr(),
        spec.flops ? b.getI64IntegerAttr(*spec.flops) : mlir::IntegerAttr(),
        waits);
    tokens.push_back(dispatch.getDone());
  }
}

} // namespace kiln::compiler
