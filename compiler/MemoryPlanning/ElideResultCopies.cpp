//===- ElideResultCopies.cpp - Results written into the caller's buffers --===//
//
// SPDX-License-Identifier: Apache-2.0
//
// See Passes.td. buffer-results-to-out-params leaves every result as a copy
// from an intermediate buffer into an out-parameter: one extra kernel per
// output, and the output's bytes held in the arena too. When the copy is
// the buffer's last use and nothing else touches the out-parameter, the
// buffer can simply *be* the out-parameter.
//
//===----------------------------------------------------------------------===//

#include "compiler/MemoryPlanning/BufferLiveness.h"
#include "compiler/MemoryPlanning/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"

#define DEBUG_TYPE "kiln-elide-result-copies"

namespace kiln::compiler {
#define GEN_PASS_DEF_ELIDERESULTCOPIESPASS
#include "compiler/MemoryPlanning/Passes.h.inc"
} // namespace kiln::compiler

using namespace mlir;
using namespace kiln::compiler;

namespace {

bool hasIdentityLayout(Value value) {
  auto type = dyn_cast<MemRefType>(value.getType());
  return type && type.hasStaticShape() && type.getLayout().isIdentity();
}

/// The allocation `value` is a whole-buffer reshape of, and the reshapes
/// from it to `value` (innermost first); null if there is none.
memref::AllocOp findReshapedAlloc(Value value,
                                  SmallVectorImpl<Operation *> &chain) {
  while (hasIdentityLayout(value)) {
    Operation *def = value.getDefiningOp();
    if (auto alloc = dyn_cast_or_null<memref::AllocOp>(def)) {
      std::reverse(chain.begin(), chain.end());
      return alloc;
    }
    if (!isa_and_nonnull<memref::CollapseShapeOp, memref::ExpandShapeOp>(def))
      return nullptr;
    chain.push_back(def);
    value = def->getOperand(0);
  }
  return nullptr;
}

/// `target` seen with the allocation's shape: the reshapes of `chain`
/// undone, outermost first. Null if a type does not come out the same.
Value unreshape(OpBuilder &builder, Value target, ArrayRef<Operation *> chain) {
  for (Operation *op : llvm::reverse(chain)) {
    Location loc = op->getLoc();
    Type wanted = op->getOperand(0).getType();
    if (auto expand = dyn_cast<memref::ExpandShapeOp>(op))
      target = memref::CollapseShapeOp::create(
          builder, loc, target, expand.getReassociationIndices());
    else
      target = memref::ExpandShapeOp::create(
          builder, loc, wanted, target,
          cast<memref::CollapseShapeOp>(op).getReassociationIndices());
    if (target.getType() != wanted)
      return nullptr;
  }
  return target;
}

struct ElideResultCopiesPass
    : kiln::compiler::impl::ElideResultCopiesPassBase<ElideResultCopiesPass> {
  void runOnOperation() override {
    for (auto function : getOperation().getOps<func::FuncOp>())
      if (!function.isExternal() && function.getBody().hasOneBlock())
        if (failed(elide(function)))
          return signalPassFailure();
  }

  LogicalResult elide(func::FuncOp function) {
    FailureOr<FunctionBuffers> buffers = analyzeBuffers(function);
    if (failed(buffers))
      return failure();
    DenseMap<Operation *, const BufferLifetime *> lifetimeOf;
    for (const BufferLifetime &buffer : buffers->buffers)
      lifetimeOf[buffer.alloc] = &buffer;

    // Candidates first: rewriting one copy cannot invalidate another, since
    // each allocation and each argument takes part in at most one.
    SmallVector<std::pair<memref::CopyOp, int64_t>> copies;
    for (auto [step, op] : llvm::enumerate(buffers->steps))
      if (auto copy = dyn_cast<memref::CopyOp>(op))
        copies.push_back({copy, int64_t(step)});

    Block &entry = function.getBody().front();
    for (auto [copy, step] : copies) {
      // The out-parameter: an argument nothing else reads or writes, so
      // that using it for the whole of the buffer's lifetime is unseen.
      auto target = dyn_cast<BlockArgument>(copy.getTarget());
      if (!target || target.getOwner() != &entry || !target.hasOneUse() ||
          !hasIdentityLayout(target))
        continue;
      SmallVector<Operation *> chain;
      memref::AllocOp alloc = findReshapedAlloc(copy.getSource(), chain);
      if (!alloc)
        continue;
      const BufferLifetime *lifetime = lifetimeOf.lookup(alloc);
      // Read after the copy (another output, say) or escaping: keep it.
      if (!lifetime || lifetime->escapes || lifetime->lastUse != step)
        continue;
      OpBuilder builder(alloc);
      Value replacement = unreshape(builder, target, chain);
      if (!replacement)
        continue; // Not expected for identity layouts; leaves dead views.
      for (Operation *user : llvm::make_early_inc_range(alloc->getUsers()))
        if (isa<memref::DeallocOp>(user))
          user->erase();
      copy.erase();
      alloc.replaceAllUsesWith(replacement);
      alloc.erase();
    }
    return success();
  }
};

} // namespace
