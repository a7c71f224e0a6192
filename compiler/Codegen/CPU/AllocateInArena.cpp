//===- AllocateInArena.cpp - Intermediate buffers in one arena ------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// See Passes.td. The arena is the last argument of each public function;
// every function gets its own layout (offsets restart at 0) and the module
// records the largest size.
//
//===----------------------------------------------------------------------===//

#include "compiler/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/MathExtras.h"

#define DEBUG_TYPE "kiln-allocate-in-arena"

namespace kiln::compiler {
#define GEN_PASS_DEF_ALLOCATEINARENAPASS
#include "compiler/Codegen/CPU/Passes.h.inc"
} // namespace kiln::compiler

using namespace mlir;

namespace {

/// Bytes of one element in memory (i1 takes a byte).
int64_t elementBytes(Type type) {
  return std::max<int64_t>(1, llvm::divideCeil(type.getIntOrFloatBitWidth(), 8));
}

struct AllocateInArenaPass
    : kiln::compiler::impl::AllocateInArenaPassBase<AllocateInArenaPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    int64_t largest = 0;
    for (auto function : module.getOps<func::FuncOp>()) {
      if (function.isPrivate() || function.isExternal())
        continue;
      FailureOr<int64_t> size = placeBuffers(function);
      if (failed(size))
        return signalPassFailure();
      largest = std::max(largest, *size);
    }
    module->setAttr(kiln::compiler::kArenaBytesAttr,
                    IntegerAttr::get(IntegerType::get(&getContext(), 64),
                                     largest));
  }

  FailureOr<int64_t> placeBuffers(func::FuncOp function) {
    SmallVector<memref::AllocOp> allocs;
    function.walk([&](memref::AllocOp alloc) {
      MemRefType type = alloc.getType();
      if (type.hasStaticShape() && type.getLayout().isIdentity() &&
          type.getElementType().isIntOrFloat())
        allocs.push_back(alloc);
    });
    // The arena argument is added even when empty, so that every entry has
    // the same calling convention.
    MLIRContext *context = &getContext();
    int64_t offset = 0;
    SmallVector<int64_t> offsets;
    for (memref::AllocOp alloc : allocs) {
      MemRefType type = alloc.getType();
      int64_t bytes = type.getNumElements() * elementBytes(type.getElementType());
      offset = llvm::alignTo(offset, kiln::compiler::kArenaAlignment);
      offsets.push_back(offset);
      if (llvm::AddOverflow(offset, bytes, offset))
        return function.emitError("intermediate buffers overflow the arena");
    }
    int64_t size = llvm::alignTo(offset, kiln::compiler::kArenaAlignment);
    auto arenaType = MemRefType::get({size}, IntegerType::get(context, 8));
    unsigned index = function.getNumArguments();
    if (failed(function.insertArgument(index, arenaType, {}, function.getLoc())))
      return failure();
    Value arena = function.getArgument(index);
    for (auto [alloc, at] : llvm::zip(allocs, offsets)) {
      OpBuilder builder(alloc);
      Value shift = arith::ConstantIndexOp::create(builder, alloc.getLoc(), at);
      Value view = memref::ViewOp::create(builder, alloc.getLoc(),
                                          alloc.getType(), arena, shift,
                                          ValueRange{});
      alloc.replaceAllUsesWith(view);
      alloc.erase();
    }
    return size;
  }
};

} // namespace
