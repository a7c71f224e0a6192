//===- VerifyGraphContract.cpp - Check the graph-level contract -----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Walks the module once and reports every op or value that falls outside the
// graph contract (see Passes.td). It reports all violations, not just the
// first, so a frontend author sees the whole list in one run.
//
//===----------------------------------------------------------------------===//

#include "compiler/Contracts/Passes.h"

#include "dialects/Graph/IR/GraphOps.h"
#include "mlir/IR/BuiltinOps.h"

#define DEBUG_TYPE "kiln-verify-graph-contract"

namespace kiln::compiler {
#define GEN_PASS_DEF_VERIFYGRAPHCONTRACTPASS
#include "compiler/Contracts/Passes.h.inc"
} // namespace kiln::compiler

using namespace mlir;

namespace {

/// Whether `type` is a value type the graph level supports.
bool isContractType(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape())
    return false;
  Type element = tensor.getElementType();
  return element.isF16() || element.isBF16() || element.isF32() ||
         element.isF64() || element.isSignlessInteger(1) ||
         element.isSignlessInteger(8) || element.isSignlessInteger(16) ||
         element.isSignlessInteger(32) || element.isSignlessInteger(64) ||
         element.isUnsignedInteger(8) || element.isUnsignedInteger(16) ||
         element.isUnsignedInteger(32) || element.isUnsignedInteger(64);
}

struct VerifyGraphContractPass
    : kiln::compiler::impl::VerifyGraphContractPassBase<
          VerifyGraphContractPass> {
  void runOnOperation() override {
    bool violated = false;
    getOperation().walk([&](Operation *op) {
      if (isa<ModuleOp>(op))
        return;
      Dialect *dialect = op->getDialect();
      if (!dialect || !isa<kiln::KilnDialect, func::FuncDialect>(dialect)) {
        op->emitError("op '") << op->getName()
                              << "' is not allowed by the graph contract "
                                 "(only kiln and func ops inside the module)";
        violated = true;
        return;
      }
      if (auto func = dyn_cast<func::FuncOp>(op); func && func.isExternal()) {
        func.emitError("function '")
            << func.getSymName() << "' has no body";
        violated = true;
        return;
      }
      auto check = [&](Type type, StringRef what, unsigned index) {
        if (isContractType(type))
          return;
        op->emitError() << what << " #" << index << " has type " << type
                        << ": the graph contract needs statically shaped "
                           "tensors of a supported element type";
        violated = true;
      };
      for (auto [i, type] : llvm::enumerate(op->getResultTypes()))
        check(type, "result", i);
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (auto [i, arg] : llvm::enumerate(block.getArguments()))
            check(arg.getType(), "block argument", i);
    });
    if (violated)
      signalPassFailure();
    markAllAnalysesPreserved();
  }
};

} // namespace
