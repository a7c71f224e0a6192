//===- FormKernels.cpp - Which loop nests run as one kernel ---------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The last fusion decision, made on planned buffers for both devices (the
// rules are in Passes.td): a fill folds into the reduction that accumulates
// into it, and a contraction takes the elementwise epilogue of its group.
// The legality checks are about buffers, so they belong here, after the
// plan, and not in a backend: the CUDA printer only prints what this pass
// paired.
//
//===----------------------------------------------------------------------===//

#include "compiler/Fusion/KernelFormation.h"
#include "compiler/Fusion/Passes.h"

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace kiln::compiler {
#define GEN_PASS_DEF_FORMKERNELSPASS
#include "compiler/Fusion/Passes.h.inc"
} // namespace kiln::compiler

using namespace mlir;

namespace kiln::compiler {

std::optional<int64_t> kernelOf(Operation *op) {
  if (auto number = op->getAttrOfType<IntegerAttr>(kKernelAttr))
    return number.getInt();
  return std::nullopt;
}

std::optional<FillInfo> asConstantFill(Operation *op) {
  FillInfo fill;
  if (auto named = dyn_cast<linalg::FillOp>(op)) {
    fill = {named.getOutputs()[0], named.getInputs()[0]};
  } else if (auto generic = dyn_cast<linalg::GenericOp>(op)) {
    if (generic.getNumDpsInputs() > 1 || generic.getNumDpsInits() != 1 ||
        generic.getNumReductionLoops() != 0)
      return std::nullopt;
    Block &block = generic.getRegion().front();
    if (!llvm::hasSingleElement(block))
      return std::nullopt;
    Value yielded = block.getTerminator()->getOperand(0);
    // A generalised linalg.fill yields its scalar input.
    if (auto argument = dyn_cast<BlockArgument>(yielded)) {
      if (argument.getOwner() != &block || argument.getArgNumber() != 0 ||
          generic.getNumDpsInputs() != 1)
        return std::nullopt;
      yielded = generic.getDpsInputs()[0];
    }
    fill = {generic.getDpsInits()[0], yielded};
  } else {
    return std::nullopt;
  }
  if (!isa<MemRefType>(fill.target.getType()) ||
      isa<ShapedType>(fill.value.getType()) ||
      !matchPattern(fill.value, m_Constant()))
    return std::nullopt;
  return fill;
}

bool isMatmulLike(linalg::LinalgOp op) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      !linalg::isaContractionOpInterface(op))
    return false;
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims) || dims->m.empty() || dims->n.empty() || dims->k.empty())
    return false;
  Block *block = op.getBlock();
  Type element = block->getArgument(0).getType();
  return !element.isInteger(1) &&
         llvm::all_of(block->getArgumentTypes(),
                      [&](Type type) { return type == element; });
}

namespace {

/// An op that does work (not a constant, a view or a terminator).
bool doesWork(Operation *op) {
  return !op->hasTrait<OpTrait::IsTerminator>() &&
         !(op->getNumRegions() == 0 && isMemoryEffectFree(op));
}

/// A buffer's allocation and, for an arena view, its byte range.
struct Placement {
  Value root;
  std::optional<std::pair<int64_t, int64_t>> bytes;
};

Placement placementOf(Value buffer) {
  while (Operation *def = buffer.getDefiningOp()) {
    if (auto view = dyn_cast<memref::ViewOp>(def)) {
      auto type = cast<MemRefType>(view.getType());
      APInt shift;
      if (type.hasStaticShape() &&
          matchPattern(view.getByteShift(), m_ConstantInt(&shift))) {
        int64_t begin = shift.getSExtValue();
        int64_t size =
            type.getNumElements() * ((type.getElementTypeBitWidth() + 7) / 8);
        return {view.getSource(), std::make_pair(begin, begin + size)};
      }
      return {view.getSource(), std::nullopt};
    }
    auto viewLike = dyn_cast<ViewLikeOpInterface>(def);
    if (!viewLike)
      break;
    buffer = viewLike.getViewSource();
  }
  return {buffer, std::nullopt};
}

bool mayOverlap(Value a, Value b) {
  Placement first = placementOf(a), second = placementOf(b);
  if (first.root != second.root)
    return false;
  if (!first.bytes || !second.bytes)
    return true;
  return first.bytes->first < second.bytes->second &&
         second.bytes->first < first.bytes->second;
}

bool isDense(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  return memref && memref.hasStaticShape() && memref.getLayout().isIdentity();
}

/// Whether `buffer` is a dense planned arena buffer from its first byte: a
/// memref.view, possibly reshaped.
bool isDensePlannedBuffer(Value buffer) {
  while (isDense(buffer.getType())) {
    Operation *def = buffer.getDefiningOp();
    if (isa_and_present<memref::ViewOp>(def))
      return true;
    if (!isa_and_present<memref::CollapseShapeOp, memref::ExpandShapeOp>(def))
      return false;
    buffer = cast<ViewLikeOpInterface>(def).getViewSource();
  }
  return false;
}

int64_t points(ArrayRef<int64_t> ranges) {
  int64_t total = 1;
  for (int64_t range : ranges)
    total *= range;
  return total;
}

/// Whether `epilogue` can be applied to the product of `contraction` as
/// each point is stored (see Passes.td for the rules).
bool isEpilogueOf(linalg::GenericOp epilogue, linalg::LinalgOp contraction) {
  // One fusion group, or one graph op's lowering (a convolution's bias):
  // ungrouped ops keep their graph op's location.
  auto group = contraction->getAttrOfType<StringAttr>(kGroupAttr);
  bool together = group ? epilogue->getAttr(kGroupAttr) == group
                        : !epilogue->hasAttr(kGroupAttr) &&
                              !isa<UnknownLoc>(epilogue->getLoc()) &&
                              epilogue->getLoc() == contraction->getLoc();
  if (!together || epilogue.getNumReductionLoops() != 0 ||
      !isMatmulLike(contraction))
    return false;
  Value product = contraction.getDpsInits()[0];
  if (!isDensePlannedBuffer(product))
    return false;
  SmallVector<int64_t> ranges = contraction.getStaticLoopRanges();
  SmallVector<int64_t> epilogueRanges = epilogue.getStaticLoopRanges();
  if (llvm::any_of(ranges, ShapedType::isDynamic) ||
      llvm::any_of(epilogueRanges, ShapedType::isDynamic))
    return false;
  int64_t productPoints = 1;
  for (auto [loop, type] : llvm::enumerate(contraction.getIteratorTypesArray()))
    if (type == utils::IteratorType::parallel)
      productPoints *= ranges[loop];
  if (points(epilogueRanges) != productPoints)
    return false;

  // The product and its views.
  SmallVector<Value> aliases = {product};
  for (size_t i = 0; i < aliases.size(); ++i)
    for (Operation *user : aliases[i].getUsers())
      if (auto view = dyn_cast<ViewLikeOpInterface>(user))
        if (view.getViewSource() == aliases[i])
          llvm::append_range(aliases, user->getResults());

  Type element = cast<MemRefType>(product.getType()).getElementType();
  bool readsProduct = false, overwritesProduct = false;
  for (OpOperand &operand : epilogue->getOpOperands()) {
    Value value = operand.get();
    AffineMap map = epilogue.getMatchingIndexingMap(&operand);
    if (!isa<MemRefType>(value.getType())) {
      if (!matchPattern(value, m_Constant()))
        return false;
      continue;
    }
    bool isInit = epilogue.isDpsInit(&operand);
    if (llvm::is_contained(aliases, value)) {
      if (!map.isIdentity() || !isDense(value.getType()) ||
          cast<MemRefType>(value.getType()).getElementType() != element)
        return false;
      (isInit ? overwritesProduct : readsProduct) = true;
      continue;
    }
    if (!isInit)
      continue;
    // The contraction still reads its operands while the epilogue stores.
    if (!map.isPermutation() ||
        llvm::any_of(contraction.getDpsInputs(),
                     [&](Value input) { return mayOverlap(value, input); }))
      return false;
  }
  if (!readsProduct)
    return false;
  // Nothing after the pair reads the product, unless the epilogue writes
  // its result over it (then later readers want that result).
  if (overwritesProduct)
    return true;
  for (Value alias : aliases)
    for (Operation *user : alias.getUsers()) {
      if (user == epilogue || user == contraction ||
          isa<ViewLikeOpInterface>(user))
        continue;
      if (user->getBlock() != contraction->getBlock() ||
          !user->isBeforeInBlock(contraction))
        return false;
    }
  return true;
}

struct FormKernelsPass : impl::FormKernelsPassBase<FormKernelsPass> {
  using FormKernelsPassBase::FormKernelsPassBase;

  void runOnOperation() override {
    Builder builder(&getContext());
    for (Block &block : getOperation().getBody()) {
      SmallVector<Operation *> work;
      for (Operation &op : block)
        if (doesWork(&op))
          work.push_back(&op);
      int64_t next = 0;
      for (size_t i = 0; i < work.size(); ++i) {
        auto linalgOp = dyn_cast<linalg::LinalgOp>(work[i]);
        if (!linalgOp)
          continue;
        IntegerAttr number = builder.getI64IntegerAttr(next++);
        auto take = [&](Operation *op) { op->setAttr(kKernelAttr, number); };
        take(linalgOp);
        auto following = [&]() -> linalg::LinalgOp {
          return i + 1 < work.size() ? dyn_cast<linalg::LinalgOp>(work[i + 1])
                                     : linalg::LinalgOp();
        };
        if (std::optional<FillInfo> fill = asConstantFill(linalgOp)) {
          linalg::LinalgOp reduction = following();
          if (reduction && reduction.getNumReductionLoops() > 0 &&
              reduction.getNumDpsInits() == 1 &&
              reduction.getDpsInits()[0] == fill->target) {
            take(reduction);
            linalgOp = reduction;
            ++i;
          }
        }
        if (!epilogues || !isMatmulLike(linalgOp))
          continue;
        auto epilogue =
            dyn_cast_if_present<linalg::GenericOp>(following().getOperation());
        if (epilogue && isEpilogueOf(epilogue, linalgOp)) {
          take(epilogue);
          ++i;
        }
      }
    }
  }
};

} // namespace

} // namespace kiln::compiler
