//===- RecordEntryInterface.cpp - Inputs and results of entry points ------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// See Passes.td.
//
//===----------------------------------------------------------------------===//

#include "compiler/Scheduling/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace kiln::compiler {
#define GEN_PASS_DEF_RECORDENTRYINTERFACEPASS
#include "compiler/Scheduling/Passes.h.inc"
} // namespace kiln::compiler

using namespace mlir;

std::optional<kiln::compiler::EntryInterface>
kiln::compiler::readEntryInterface(Operation *function) {
  auto recorded =
      function->getAttrOfType<DenseI32ArrayAttr>(kEntryInterfaceAttr);
  if (!recorded || recorded.size() != 2 || recorded[0] < 0 || recorded[1] < 0)
    return std::nullopt;
  return EntryInterface{unsigned(recorded[0]), unsigned(recorded[1])};
}

namespace {
struct RecordEntryInterfacePass
    : kiln::compiler::impl::RecordEntryInterfacePassBase<
          RecordEntryInterfacePass> {
  void runOnOperation() override {
    Builder builder(&getContext());
    for (auto function : getOperation().getOps<func::FuncOp>()) {
      if (function.isPrivate() || function.isExternal())
        continue;
      function->setAttr(
          kiln::compiler::kEntryInterfaceAttr,
          builder.getDenseI32ArrayAttr({int32_t(function.getNumArguments()),
                                        int32_t(function.getNumResults())}));
    }
  }
};
} // namespace
