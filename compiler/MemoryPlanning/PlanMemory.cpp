//===- PlanMemory.cpp - Intermediate buffers in one planned arena ---------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// See Passes.td. Liveness and in-place candidates come from BufferLiveness,
// offsets from the MLIR-free planner in compiler/MemoryPlanning; this file
// only rewrites the IR and records the plan.
//
//===----------------------------------------------------------------------===//

#include "compiler/MemoryPlanning/BufferLiveness.h"
#include "compiler/MemoryPlanning/MemoryPlanAttr.h"
#include "compiler/MemoryPlanning/Passes.h"
#include "compiler/MemoryPlanning/MemoryPlanner.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"

#define DEBUG_TYPE "kiln-plan-memory"

namespace kiln::compiler {
#define GEN_PASS_DEF_PLANMEMORYPASS
#include "compiler/MemoryPlanning/Passes.h.inc"
} // namespace kiln::compiler

using namespace mlir;
using namespace kiln::compiler;

namespace {

struct PlanMemoryPass
    : kiln::compiler::impl::PlanMemoryPassBase<PlanMemoryPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    int64_t largest = 0;
    SmallVector<Attribute> plans;
    for (auto function : module.getOps<func::FuncOp>()) {
      if (function.isPrivate() || function.isExternal())
        continue;
      FailureOr<int64_t> size = placeBuffers(function, plans);
      if (failed(size))
        return signalPassFailure();
      largest = std::max(largest, *size);
    }
    Builder builder(&getContext());
    module->setAttr(kArenaBytesAttr, builder.getI64IntegerAttr(largest));
    module->setAttr(kMemoryPlanAttr, builder.getArrayAttr(plans));
  }

  /// Plans and rewrites `function`; returns its arena size.
  FailureOr<int64_t> placeBuffers(func::FuncOp function,
                                  SmallVectorImpl<Attribute> &plans) {
    FailureOr<FunctionBuffers> buffers = analyzeBuffers(function);
    if (failed(buffers))
      return failure();
    std::vector<kiln::plan::BufferRequest> requests;
    uint64_t total = 0;
    for (const BufferLifetime &buffer : buffers->buffers) {
      requests.push_back(
          {buffer.bytes, buffer.firstUse, buffer.lastUse, buffer.reuses});
      // Each size is at most 2^62, so the running sum cannot wrap before
      // this check stops it.
      total += buffer.bytes;
      if (total > (uint64_t(1) << 62))
        return function.emitError("intermediate buffers overflow the arena");
    }
    kiln::plan::MemoryPlan plan =
        kiln::plan::planMemory(requests, kArenaAlignment);
    // Consumed here: the LLVM dialect has no use for it.
    std::optional<uint64_t> graphTensorBytes;
    if (auto counted =
            function->getAttrOfType<IntegerAttr>(kGraphTensorBytesAttr)) {
      graphTensorBytes = uint64_t(counted.getInt());
      function->removeAttr(kGraphTensorBytesAttr);
    }
    plans.push_back(
        buildMemoryPlanAttr(function, *buffers, plan, graphTensorBytes));

    // The arena argument is added even when empty, so that every entry has
    // the same calling convention.
    int64_t size = int64_t(plan.peakBytes);
    MLIRContext *context = &getContext();
    auto arenaType = MemRefType::get({size}, IntegerType::get(context, 8));
    unsigned index = function.getNumArguments();
    if (failed(
            function.insertArgument(index, arenaType, {}, function.getLoc())))
      return failure();
    Value arena = function.getArgument(index);
    for (auto [buffer, at] : llvm::zip(buffers->buffers, plan.offsets)) {
      memref::AllocOp alloc = buffer.alloc;
      OpBuilder builder(alloc);
      Value shift =
          arith::ConstantIndexOp::create(builder, alloc.getLoc(), int64_t(at));
      Value view = memref::ViewOp::create(
          builder, alloc.getLoc(), alloc.getType(), arena, shift, ValueRange{});
      // The arena outlives every run: its views are never freed.
      for (Operation *user : llvm::make_early_inc_range(alloc->getUsers()))
        if (isa<memref::DeallocOp>(user))
          user->erase();
      alloc.replaceAllUsesWith(view);
      alloc.erase();
    }
    return size;
  }
};

} // namespace
