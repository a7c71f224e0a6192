//===- LowerMemRefCopy.cpp - memref.copy -> linalg.copy -------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// See Passes.td: generated kernels must not depend on MLIR's runner
// library, which a strided memref.copy would call.
//
//===----------------------------------------------------------------------===//

#include "compiler/MemoryPlanning/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"

#define DEBUG_TYPE "kiln-lower-memref-copy"

namespace kiln::compiler {
#define GEN_PASS_DEF_LOWERMEMREFCOPYPASS
#include "compiler/MemoryPlanning/Passes.h.inc"
} // namespace kiln::compiler

using namespace mlir;

namespace {

struct LowerMemRefCopyPass
    : kiln::compiler::impl::LowerMemRefCopyPassBase<LowerMemRefCopyPass> {
  void runOnOperation() override {
    SmallVector<memref::CopyOp> copies;
    getOperation().walk([&](memref::CopyOp copy) { copies.push_back(copy); });
    for (memref::CopyOp copy : copies) {
      OpBuilder builder(copy);
      linalg::CopyOp::create(builder, copy.getLoc(), copy.getSource(),
                             copy.getTarget());
      copy.erase();
    }
  }
};

} // namespace
