//===- StepDependencies.cpp - Which steps must wait for which -------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "compiler/Scheduling/StepDependencies.h"

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

} // namespace kiln::compiler
