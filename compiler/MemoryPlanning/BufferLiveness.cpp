//===- BufferLiveness.cpp - Lifetimes of a function's buffers -------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Conservative by construction: a use we cannot see through keeps the
// buffer alive to the end of the function, and in-place reuse is only
// offered for the one pattern known to be safe (an elementwise generic
// reading a dying buffer at the same index it writes the new one).
//
//===----------------------------------------------------------------------===//

#include "compiler/MemoryPlanning/BufferLiveness.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/Path.h"

using namespace mlir;

namespace kiln::compiler {

namespace {

enum class UseKind {
  kView,   ///< Makes another name for (part of) the buffer; touches nothing.
  kAccess, ///< Reads or writes the buffer while its step runs.
  kEscape, ///< Lets the buffer outlive its step, or we cannot tell.
};

UseKind classify(OpOperand &use) {
  Operation *user = use.getOwner();
  Value value = use.get();
  // Returned, yielded out of a region, or passed to a successor block.
  if (user->hasTrait<OpTrait::IsTerminator>())
    return UseKind::kEscape;
  if (auto view = dyn_cast<ViewLikeOpInterface>(user))
    if (view.getViewSource() == value)
      return UseKind::kView;
  if (isa<memref::CastOp, memref::CollapseShapeOp, memref::ExpandShapeOp,
          memref::SubViewOp, memref::ReinterpretCastOp, memref::ViewOp,
          memref::TransposeOp, memref::MemorySpaceCastOp>(user) &&
      user->getOperand(0) == value)
    return UseKind::kView;
  if (auto store = dyn_cast<memref::StoreOp>(user))
    return store.getValueToStore() == value ? UseKind::kEscape
                                            : UseKind::kAccess;
  if (isa<memref::LoadOp, memref::DimOp>(user))
    return UseKind::kAccess;
  // Ops without results that declare their effects (linalg ops on buffers,
  // copies) cannot hand the buffer on.
  if (user->getNumResults() == 0 &&
      (isa<MemoryEffectOpInterface>(user) ||
       user->hasTrait<OpTrait::HasRecursiveMemoryEffects>()))
    return UseKind::kAccess;
  return UseKind::kEscape;
}

/// Bytes of one element in memory (i1 takes a byte).
int64_t elementBytes(Type type) {
  return std::max<int64_t>(1,
                           llvm::divideCeil(type.getIntOrFloatBitWidth(), 8));
}

bool isPlannable(MemRefType type) {
  return type.hasStaticShape() && type.getLayout().isIdentity() &&
         type.getElementType().isIntOrFloat() && !type.getMemorySpace();
}

/// The elementwise in-place rule: `op` is a linalg.generic with only
/// parallel loops; an output that is a buffer born at this step, accessed
/// with the identity map, may take over an input buffer of the same size
/// read with the identity map and dying at this step, provided no other
/// operand of `op`, nor any op in its payload, reaches either of them.
void findInPlaceReuses(FunctionBuffers &result, int64_t step,
                       linalg::GenericOp op,
                       const DenseMap<Value, int64_t> &aliasOwner,
                       const DenseMap<Operation *, int64_t> &bufferOfAlloc) {
  if (op.getNumParallelLoops() != op.getNumLoops())
    return;
  auto bufferOf = [&](OpOperand *operand) -> int64_t {
    // A reshape of a whole identity-layout buffer keeps every element at
    // its row-major offset, so identity maps over equal shapes still make
    // iteration i read exactly the bytes it writes (a convolution's
    // product, reshaped to the output's shape, feeds its bias epilogue).
    Value base = operand->get();
    while (isa_and_present<memref::CollapseShapeOp, memref::ExpandShapeOp>(
               base.getDefiningOp()) &&
           cast<MemRefType>(base.getType()).getLayout().isIdentity())
      base = base.getDefiningOp()->getOperand(0);
    auto alloc = base.getDefiningOp<memref::AllocOp>();
    if (!alloc || !op.getMatchingIndexingMap(operand).isIdentity())
      return -1;
    auto it = bufferOfAlloc.find(alloc);
    return it == bufferOfAlloc.end() ? -1 : it->second;
  };
  // Whether `buffer` is reached only through `only` among op's operands,
  // and not at all from inside its payload (a captured load could read
  // another index).
  auto onlyThrough = [&](int64_t buffer, OpOperand *only) {
    auto other = [&](OpOperand &operand) {
      auto it = aliasOwner.find(operand.get());
      return &operand != only && it != aliasOwner.end() && it->second == buffer;
    };
    if (llvm::any_of(op->getOpOperands(), other))
      return false;
    WalkResult captured = op->walk([&](Operation *nested) {
      if (nested != op.getOperation() &&
          llvm::any_of(nested->getOpOperands(), other))
        return WalkResult::interrupt();
      return WalkResult::advance();
    });
    return !captured.wasInterrupted();
  };
  llvm::SmallDenseSet<int64_t> donors;
  for (OpOperand &init : op.getDpsInitsMutable()) {
    int64_t out = bufferOf(&init);
    if (out < 0 || result.buffers[out].firstUse != step ||
        result.buffers[out].reuses >= 0 || !onlyThrough(out, &init))
      continue;
    for (OpOperand *input : op.getDpsInputOperands()) {
      int64_t in = bufferOf(input);
      if (in < 0 || in == out || donors.contains(in))
        continue;
      const BufferLifetime &donor = result.buffers[in];
      if (donor.escapes || donor.lastUse != step ||
          donor.bytes != result.buffers[out].bytes || !onlyThrough(in, input))
        continue;
      result.buffers[out].reuses = in;
      donors.insert(in);
      break;
    }
  }
}

} // namespace

std::string describeLocation(Location loc) {
  if (auto name = dyn_cast<NameLoc>(loc))
    return name.getName().str();
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    return (llvm::sys::path::filename(file.getFilename().getValue()) + ":" +
            Twine(file.getLine()) + ":" + Twine(file.getColumn()))
        .str();
  if (auto fused = dyn_cast<FusedLoc>(loc)) {
    std::string joined;
    // Parts may be fused themselves (the ops of a group): each name once.
    SmallVector<std::string> names;
    for (Location part : fused.getLocations()) {
      std::string text = describeLocation(part);
      for (StringRef name : llvm::split(text, '+'))
        if (!name.empty() && !llvm::is_contained(names, name))
          names.push_back(name.str());
    }
    for (const std::string &name : names)
      joined += (joined.empty() ? "" : "+") + name;
    return joined;
  }
  if (auto call = dyn_cast<CallSiteLoc>(loc))
    return describeLocation(call.getCallee());
  if (auto opaque = dyn_cast<OpaqueLoc>(loc))
    return describeLocation(opaque.getFallbackLocation());
  return "";
}

FailureOr<FunctionBuffers> analyzeBuffers(func::FuncOp function) {
  FunctionBuffers result;
  DenseMap<Operation *, int64_t> stepOf;
  for (Block &block : function.getBody())
    for (Operation &op : block) {
      stepOf[&op] = int64_t(result.steps.size());
      result.steps.push_back(&op);
      if (isa<linalg::LinalgOp, memref::CopyOp>(op))
        ++result.kernels;
    }
  int64_t lastStep = std::max<int64_t>(0, int64_t(result.steps.size()) - 1);
  // Branches make the body's order differ from the execution order: keep
  // every buffer for the whole function then.
  bool straightLine = function.getBody().hasOneBlock();
  Region &body = function.getBody();
  auto stepOfUser = [&](Operation *user) {
    return stepOf.lookup(body.findAncestorOpInRegion(*user));
  };

  DenseMap<Value, int64_t> aliasOwner;
  DenseMap<Operation *, int64_t> bufferOfAlloc;
  WalkResult walk = function.walk([&](memref::AllocOp alloc) {
    MemRefType type = alloc.getType();
    if (!isPlannable(type))
      return WalkResult::advance();
    BufferLifetime buffer;
    buffer.alloc = alloc;
    int64_t bytes;
    if (llvm::MulOverflow(type.getNumElements(),
                          elementBytes(type.getElementType()), bytes) ||
        bytes > (int64_t(1) << 62)) {
      alloc.emitError("buffer too large for the arena");
      return WalkResult::interrupt();
    }
    buffer.bytes = uint64_t(bytes);
    int64_t index = int64_t(result.buffers.size());
    int64_t first = INT64_MAX, last = -1;
    SmallVector<Value> worklist = {alloc.getResult()};
    aliasOwner[alloc.getResult()] = index;
    while (!worklist.empty()) {
      Value value = worklist.pop_back_val();
      for (OpOperand &use : value.getUses()) {
        int64_t step = stepOfUser(use.getOwner());
        switch (classify(use)) {
        case UseKind::kView:
          for (Value view : use.getOwner()->getResults())
            if (aliasOwner.try_emplace(view, index).second)
              worklist.push_back(view);
          continue;
        case UseKind::kEscape:
          buffer.escapes = true;
          break;
        case UseKind::kAccess:
          break;
        }
        if (step < first) {
          first = step;
          buffer.producer = result.steps[step];
        }
        last = std::max(last, step);
      }
    }
    if (first == INT64_MAX) { // Never used: live where it is allocated.
      first = last = stepOfUser(alloc);
      buffer.producer = alloc;
    }
    if (buffer.escapes)
      last = lastStep;
    if (!straightLine) {
      first = 0;
      last = lastStep;
    }
    buffer.firstUse = first;
    buffer.lastUse = last;
    bufferOfAlloc[alloc] = index;
    result.buffers.push_back(buffer);
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();

  if (straightLine)
    for (auto [step, op] : llvm::enumerate(result.steps))
      if (auto generic = dyn_cast<linalg::GenericOp>(op))
        findInPlaceReuses(result, int64_t(step), generic, aliasOwner,
                          bufferOfAlloc);
  return result;
}

} // namespace kiln::compiler
