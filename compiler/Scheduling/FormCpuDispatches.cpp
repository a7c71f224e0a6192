//===- FormCpuDispatches.cpp - Planned CPU functions to exec programs -----===//
//
// SPDX-License-Identifier: Apache-2.0
//
// See Passes.td. The pass reads the entry's top-level ops in order: ops
// without memory effects (constants, views of the arena, globals) are
// cloned into whichever dispatch uses them; every other op is a kernel.
// Kernels become dispatches one by one, or a fusion group / a kernel of
// kiln-form-kernels (a fill with its accumulation) when one split fits all
// of its ops.
//
//===----------------------------------------------------------------------===//

#include "compiler/Fusion/KernelFormation.h"
#include "compiler/Scheduling/Passes.h"
#include "compiler/Scheduling/StepDebugInfo.h"
#include "compiler/Scheduling/StepDependencies.h"
#include "dialects/Exec/IR/ExecOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/RegionUtils.h"

#define DEBUG_TYPE "kiln-form-cpu-dispatches"

namespace kiln::compiler {
#define GEN_PASS_DEF_FORMCPUDISPATCHESPASS
#include "compiler/Scheduling/Passes.h.inc"
} // namespace kiln::compiler

using namespace mlir;
using namespace kiln;
using namespace kiln::exec;

namespace {

/// How a kernel's workgroups divide its iteration space: loop `dims[i]` of
/// op i is cut into chunks of `chunk` (the last one `remainder` long).
struct Split {
  SmallVector<unsigned> dims;
  int64_t workgroups = 1;
  int64_t chunk = 0;
  int64_t remainder = 0;
};

/// One dispatch: kernel ops in order, and how they split.
struct Kernel {
  SmallVector<Operation *> ops;
  Split split;
};

/// The entry's parameters: inputs, outputs, arena.
struct Interface {
  unsigned inputs = 0;
  unsigned outputs = 0;
  BlockArgument arena;
  int64_t arenaBytes = 0;
};

bool isKernel(Operation *op) {
  return !op->hasTrait<OpTrait::IsTerminator>() &&
         !(op->getNumRegions() == 0 && isMemoryEffectFree(op));
}

int64_t memrefBytes(MemRefType type) {
  int64_t width = (type.getElementTypeBitWidth() + 7) / 8;
  return type.getNumElements() * width;
}

//===----------------------------------------------------------------------===//
// Splits
//===----------------------------------------------------------------------===//

/// The result positions at which loop `dim` indexes each operand of `op`,
/// or failure when some operand uses it inside a compound expression (a
/// convolution window, an im2col gather) or more than once.
FailureOr<SmallVector<std::optional<unsigned>>>
slicePositions(linalg::LinalgOp op, unsigned dim) {
  SmallVector<std::optional<unsigned>> positions;
  for (AffineMap map : op.getIndexingMapsArray()) {
    std::optional<unsigned> position;
    for (auto [i, expr] : llvm::enumerate(map.getResults())) {
      if (!expr.isFunctionOfDim(dim))
        continue;
      auto plain = dyn_cast<AffineDimExpr>(expr);
      if (!plain || position)
        return failure();
      position = unsigned(i);
    }
    positions.push_back(position);
  }
  return positions;
}

/// Whether loop `dim` of `op` can be cut into independent slices.
bool isSplittable(linalg::LinalgOp op, unsigned dim) {
  if (op.getIteratorTypesArray()[dim] != utils::IteratorType::parallel)
    return false;
  // linalg.index would see slice-local indices.
  bool usesIndex = false;
  op->walk([&](linalg::IndexOp) { usesIndex = true; });
  return !usesIndex && succeeded(slicePositions(op, dim));
}

/// A statically shaped linalg op on buffers, the only kind we split.
linalg::LinalgOp splittableOp(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || !linalgOp.hasPureBufferSemantics() ||
      linalgOp.hasDynamicShape())
    return {};
  // Scalars (a fill's value) are fine; tensors would not be sliced.
  for (Value operand : op->getOperands())
    if (isa<TensorType>(operand.getType()))
      return {};
  return linalgOp;
}

/// Cuts `extent` into about `wanted` chunks that are multiples of `align`,
/// preferring a chunk that divides the extent (no remainder variant).
void chooseChunks(int64_t extent, int64_t wanted, int64_t align, Split &split) {
  int64_t chunk = llvm::divideCeil(extent, std::max<int64_t>(wanted, 1));
  chunk = llvm::alignTo(chunk, align);
  for (int64_t candidate = chunk; candidate <= 2 * chunk; candidate += align)
    if (extent % candidate == 0) {
      chunk = candidate;
      break;
    }
  if (chunk >= extent) {
    split.workgroups = 1;
    return;
  }
  split.chunk = chunk;
  split.workgroups = llvm::divideCeil(extent, chunk);
  split.remainder = extent - (split.workgroups - 1) * chunk;
}

/// Register tiles want rows in eights (contractions) and columns in 32s
/// (a contraction's columns, other ops' innermost loop). A contraction's
/// other column loops (panels of packed weights) cut anywhere.
int64_t alignmentFor(linalg::LinalgOp op, unsigned dim) {
  if (op.getNumReductionLoops() > 0 && linalg::isaContractionOpInterface(op))
    if (FailureOr<linalg::ContractionDimensions> dims =
            linalg::inferContractionDims(op);
        succeeded(dims) && llvm::is_contained(dims->n, dim))
      return dims->n.back() == dim ? 32 : 1;
  bool innermost = dim + 1 == op.getNumLoops();
  if (innermost)
    return 32;
  return op.getNumReductionLoops() > 0 ? 8 : 1;
}

struct Splitter {
  int64_t minWork;
  int64_t maxWorkgroups;

  int64_t wantedWorkgroups(int64_t work, int64_t extent) const {
    int64_t wanted =
        std::min(work / std::max<int64_t>(minWork, 1), maxWorkgroups);
    return std::min(wanted, extent);
  }

  /// Bytes of the inputs a split along `dim` does not cut: every workgroup
  /// reads them whole. A contraction split by rows reads all of B in each
  /// workgroup, by columns all of A. What stays in a core's L2 anyway
  /// (under 256 KiB) costs nothing to read again.
  static int64_t rereadBytes(linalg::LinalgOp op, unsigned dim) {
    constexpr int64_t kCacheResident = 256 * 1024;
    int64_t bytes = 0;
    for (OpOperand *input : op.getDpsInputOperands()) {
      auto type = dyn_cast<MemRefType>(input->get().getType());
      if (!type || !type.hasStaticShape() ||
          !type.getElementType().isIntOrFloat())
        continue;
      if (op.getMatchingIndexingMap(input).isFunctionOfDim(dim))
        continue;
      bytes += type.getNumElements() *
               llvm::divideCeil(type.getElementTypeBitWidth(), 8);
    }
    return bytes < kCacheResident ? 0 : bytes;
  }

  /// The best split of a single op: of its splittable loops, the one whose
  /// workgroups re-read the fewest input bytes, then the one that gives
  /// the most workgroups (the outermost of equals).
  Split forOp(Operation *op) const {
    Split best;
    int64_t bestReread = 0;
    linalg::LinalgOp linalgOp = splittableOp(op);
    if (!linalgOp)
      return best;
    SmallVector<int64_t> ranges = linalgOp.getStaticLoopRanges();
    int64_t work = kiln::compiler::loopIterations(linalgOp);
    for (unsigned dim = 0; dim < ranges.size(); ++dim) {
      if (!isSplittable(linalgOp, dim))
        continue;
      int64_t wanted = wantedWorkgroups(work, ranges[dim]);
      if (wanted < 2)
        continue;
      Split split;
      chooseChunks(ranges[dim], wanted, alignmentFor(linalgOp, dim), split);
      if (split.workgroups < 2)
        continue;
      int64_t reread = rereadBytes(linalgOp, dim) * split.workgroups;
      if (best.workgroups < 2 || reread < bestReread ||
          (reread == bestReread && split.workgroups > best.workgroups)) {
        split.dims = {dim};
        best = split;
        bestReread = reread;
      }
    }
    return best;
  }

  /// A split shared by several ops: each cuts the loop that indexes the
  /// first dimension of its first output, all those dimensions have one
  /// extent, and every buffer that one op writes and another touches is
  /// the same value, cut the same way. Failure: run them one by one.
  FailureOr<Split> forGroup(ArrayRef<Operation *> ops) const {
    Split split;
    int64_t extent = -1, work = 0, align = 1;
    DenseSet<Value> written;
    for (Operation *op : ops) {
      linalg::LinalgOp linalgOp = splittableOp(op);
      if (!linalgOp || linalgOp.getNumDpsInits() == 0)
        return failure();
      OpOperand *init = linalgOp.getDpsInitOperand(0);
      AffineMap map = linalgOp.getMatchingIndexingMap(init);
      if (map.getNumResults() == 0)
        return failure();
      auto dim = dyn_cast<AffineDimExpr>(map.getResult(0));
      if (!dim || !isSplittable(linalgOp, dim.getPosition()))
        return failure();
      int64_t size = linalgOp.getStaticLoopRanges()[dim.getPosition()];
      if (extent >= 0 && size != extent)
        return failure();
      extent = size;
      work += kiln::compiler::loopIterations(linalgOp);
      // Rows of a contraction's register tiles come in eights.
      if (linalgOp.getNumReductionLoops() > 0)
        align = 8;
      split.dims.push_back(dim.getPosition());
      for (OpOperand &operand : linalgOp.getDpsInitsMutable())
        written.insert(operand.get());
    }
    // Buffers written in the group must be cut at their first dimension by
    // every op that touches them, and seen through no other view.
    for (auto [op, dim] : llvm::zip(ops, split.dims)) {
      auto linalgOp = cast<linalg::LinalgOp>(op);
      auto positions = *slicePositions(linalgOp, dim);
      for (auto [operand, position] :
           llvm::zip(linalgOp->getOpOperands(), positions)) {
        Value value = operand.get();
        if (written.contains(value) && position != 0u)
          return failure();
        if (!written.contains(value))
          for (Value other : written)
            if (other != value && sameRoot(other, value))
              return failure();
      }
    }
    // A contraction that is better cut another way (by columns, when B is
    // the larger operand) runs on its own with that split.
    for (auto [op, dim] : llvm::zip(ops, split.dims)) {
      auto linalgOp = cast<linalg::LinalgOp>(op);
      if (linalgOp.getNumReductionLoops() == 0)
        continue;
      Split alone = forOp(op);
      if (alone.workgroups > 1 && alone.dims.front() != dim)
        return failure();
    }
    int64_t wanted = wantedWorkgroups(work, extent);
    if (wanted >= 2)
      chooseChunks(extent, wanted, align, split);
    if (split.workgroups < 2)
      split = Split();
    return split;
  }

  static Value root(Value value) {
    while (Operation *def = value.getDefiningOp()) {
      auto view = dyn_cast<ViewLikeOpInterface>(def);
      if (!view || isa<memref::ViewOp>(def))
        break;
      value = view.getViewSource();
    }
    return value;
  }
  /// Bytes [first, second) of the arena a view covers.
  static std::optional<std::pair<int64_t, int64_t>> arenaRange(Value value) {
    auto view = value.getDefiningOp<memref::ViewOp>();
    if (!view)
      return std::nullopt;
    std::optional<int64_t> shift = getConstantIntValue(view.getByteShift());
    auto type = cast<MemRefType>(view.getType());
    if (!shift || !type.hasStaticShape())
      return std::pair<int64_t, int64_t>(0, INT64_MAX);
    return std::pair<int64_t, int64_t>(*shift, *shift + memrefBytes(type));
  }
  /// Whether `a` and `b` may share memory.
  static bool sameRoot(Value a, Value b) {
    Value ra = root(a), rb = root(b);
    if (ra == rb)
      return true;
    auto va = arenaRange(ra), vb = arenaRange(rb);
    return va && vb && va->first < vb->second && vb->first < va->second;
  }
};

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

/// Whether `next` belongs with `op`: one fusion group, or one kernel of
/// kiln-form-kernels (a fill with the reduction it initialises).
bool belongsWith(Operation *op, Operation *next) {
  using kiln::compiler::kernelOf, kiln::compiler::kGroupAttr;
  auto group = op->getAttrOfType<StringAttr>(kGroupAttr);
  if (group && next->getAttr(kGroupAttr) == group)
    return true;
  std::optional<int64_t> kernel = kernelOf(op);
  return kernel && kernelOf(next) == kernel;
}

/// Loop iterations of a kernel; ops we cannot count count as `unknown`.
int64_t workOf(const Kernel &kernel, int64_t unknown) {
  int64_t work = 0;
  for (Operation *op : kernel.ops) {
    linalg::LinalgOp linalgOp = splittableOp(op);
    work += linalgOp ? kiln::compiler::loopIterations(linalgOp) : unknown;
  }
  return work;
}

/// Merges neighbours that run as one workgroup each while their work stays
/// under one workgroup's worth: a dispatch costs a hand-over between
/// threads, which small kernels do not repay.
SmallVector<Kernel> mergeSmallKernels(SmallVector<Kernel> kernels,
                                      int64_t minWork) {
  SmallVector<Kernel> merged;
  int64_t lastWork = 0;
  for (Kernel &kernel : kernels) {
    int64_t work = workOf(kernel, minWork);
    if (!merged.empty() && merged.back().split.workgroups == 1 &&
        kernel.split.workgroups == 1 && lastWork + work < minWork &&
        !isa<CommunicateOp>(kernel.ops.front()) &&
        !isa<CommunicateOp>(merged.back().ops.front())) {
      merged.back().ops.append(kernel.ops);
      merged.back().split.dims.clear();
      lastWork += work;
      continue;
    }
    merged.push_back(std::move(kernel));
    lastWork = work;
  }
  return merged;
}

/// Groups the entry's kernel ops into dispatches.
SmallVector<Kernel> formKernels(ArrayRef<Operation *> ops,
                                const Splitter &splitter) {
  SmallVector<Kernel> kernels;
  for (size_t i = 0; i < ops.size();) {
    size_t end = i + 1;
    while (end < ops.size() && !isa<CommunicateOp>(ops[i]) &&
           !isa<CommunicateOp>(ops[end]) && belongsWith(ops[end - 1], ops[end]))
      ++end;
    ArrayRef<Operation *> candidate = ops.slice(i, end - i);
    FailureOr<Split> shared = candidate.size() > 1
                                  ? splitter.forGroup(candidate)
                                  : FailureOr<Split>(failure());
    // Together but serial loses to apart and parallel.
    if (succeeded(shared) && shared->workgroups < 2 &&
        llvm::any_of(candidate, [&](Operation *op) {
          return splitter.forOp(op).workgroups > 1;
        }))
      shared = failure();
    if (succeeded(shared)) {
      kernels.push_back({SmallVector<Operation *>(candidate), *shared});
    } else {
      for (Operation *op : candidate)
        kernels.push_back({{op}, splitter.forOp(op)});
    }
    i = end;
  }
  return mergeSmallKernels(std::move(kernels), splitter.minWork);
}

//===----------------------------------------------------------------------===//
// Bindings
//===----------------------------------------------------------------------===//

/// The bytes `value` can reach, or failure for a buffer the schedule does
/// not know. Constants (globals) bind nothing.
FailureOr<std::optional<BindingAttr>> bindingOf(Value value, Access access,
                                                const Interface &interface) {
  MLIRContext *context = value.getContext();
  while (Operation *def = value.getDefiningOp()) {
    if (isa<memref::GetGlobalOp>(def))
      return std::optional<BindingAttr>();
    if (auto view = dyn_cast<memref::ViewOp>(def)) {
      std::optional<int64_t> shift = getConstantIntValue(view.getByteShift());
      auto type = cast<MemRefType>(view.getType());
      if (view.getSource() != interface.arena || !shift ||
          !type.hasStaticShape())
        return failure();
      return std::optional<BindingAttr>(
          BindingAttr::get(context, BufferBase::arena, 0, uint64_t(*shift),
                           uint64_t(memrefBytes(type)), access));
    }
    auto viewLike = dyn_cast<ViewLikeOpInterface>(def);
    if (!viewLike)
      return failure();
    value = viewLike.getViewSource();
  }
  auto argument = dyn_cast<BlockArgument>(value);
  auto type = dyn_cast<MemRefType>(value.getType());
  if (!argument || !type || !type.hasStaticShape())
    return failure();
  unsigned number = argument.getArgNumber();
  if (argument == interface.arena)
    return std::optional<BindingAttr>(
        BindingAttr::get(context, BufferBase::arena, 0, 0,
                         uint64_t(interface.arenaBytes), access));
  bool input = number < interface.inputs;
  return std::optional<BindingAttr>(BindingAttr::get(
      context, input ? BufferBase::input : BufferBase::output,
      input ? number : number - interface.inputs, 0,
      uint64_t(memrefBytes(type)), input ? Access::read : access));
}

/// Every buffer a kernel touches, merged per buffer and range.
FailureOr<SmallVector<BindingAttr>> bindingsOf(const Kernel &kernel,
                                               const Interface &interface) {
  SmallVector<std::pair<Value, Access>> uses;
  for (Operation *op : kernel.ops) {
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
      for (OpOperand &operand : op->getOpOperands()) {
        if (!isa<MemRefType>(operand.get().getType()))
          continue;
        bool init = linalgOp.isDpsInit(&operand);
        Access access = !init ? Access::read
                        : linalgOp.payloadUsesValueFromOperand(&operand)
                            ? Access::read_write
                            : Access::write;
        uses.push_back({operand.get(), access});
      }
    } else {
      for (Value operand : op->getOperands())
        if (isa<MemRefType>(operand.getType()))
          uses.push_back({operand, Access::read_write});
    }
    // Buffers a body reads directly (gathers) or writes (loops).
    SetVector<Value> captured;
    getUsedValuesDefinedAbove(op->getRegions(), captured);
    for (Value value : captured)
      if (isa<MemRefType>(value.getType()))
        uses.push_back({value, isa<linalg::LinalgOp>(op) ? Access::read
                                                         : Access::read_write});
  }
  SmallVector<BindingAttr> bindings;
  for (auto [value, access] : uses) {
    auto binding = bindingOf(value, access, interface);
    if (failed(binding))
      return failure();
    if (!*binding)
      continue;
    // Merge with an equal range: the access modes add up.
    bool merged = false;
    for (BindingAttr &existing : bindings) {
      BindingAttr b = **binding;
      if (existing.getBase() == b.getBase() &&
          existing.getIndex() == b.getIndex() &&
          existing.getOffset() == b.getOffset() &&
          existing.getBytes() == b.getBytes()) {
        bool reads = existing.reads() || b.reads();
        bool writes = existing.writes() || b.writes();
        existing = BindingAttr::get(b.getContext(), b.getBase(), b.getIndex(),
                                    b.getOffset(), b.getBytes(),
                                    reads && writes ? Access::read_write
                                    : writes        ? Access::write
                                                    : Access::read);
        merged = true;
        break;
      }
    }
    if (!merged)
      bindings.push_back(**binding);
  }
  return bindings;
}

/// A collective's send (read) and recv (written) buffers, kept apart even
/// when they are the same bytes (an all-reduce in place).
FailureOr<SmallVector<BindingAttr>>
collectiveBindings(CommunicateOp op, const Interface &interface) {
  auto send = bindingOf(op.getInput(), Access::read, interface);
  auto recv = bindingOf(op.getInit(), Access::write, interface);
  if (failed(send) || failed(recv) || !*send || !*recv)
    return failure();
  return SmallVector<BindingAttr>{**send, **recv};
}

//===----------------------------------------------------------------------===//
// Dispatch functions
//===----------------------------------------------------------------------===//

struct DispatchBuilder {
  func::FuncOp entry;
  Interface interface;

  /// The value `value` of the entry, inside the dispatch being built:
  /// parameters map to parameters, effect-free ops are cloned.
  Value materialize(OpBuilder &b, IRMapping &mapping, Value value) {
    if (Value mapped = mapping.lookupOrNull(value))
      return mapped;
    Operation *def = value.getDefiningOp();
    assert(def && "entry parameters are mapped up front");
    for (Value operand : def->getOperands())
      materialize(b, mapping, operand);
    b.clone(*def, mapping);
    return mapping.lookup(value);
  }

  /// Clones `op` with its operands cut to `size` elements of loop `dim`
  /// from `offset` (no cut without a size).
  void cloneCut(OpBuilder &b, IRMapping &mapping, Operation *op,
                std::optional<unsigned> dim, Value offset, int64_t size) {
    SetVector<Value> captured;
    getUsedValuesDefinedAbove(op->getRegions(), captured);
    for (Value value : captured)
      materialize(b, mapping, value);
    SmallVector<Value> operands;
    for (Value operand : op->getOperands())
      operands.push_back(materialize(b, mapping, operand));
    if (dim) {
      auto linalgOp = cast<linalg::LinalgOp>(op);
      auto positions = *slicePositions(linalgOp, *dim);
      for (auto [i, position] : llvm::enumerate(positions)) {
        if (!position)
          continue;
        auto type = cast<MemRefType>(operands[i].getType());
        SmallVector<OpFoldResult> offsets(type.getRank(), b.getIndexAttr(0));
        SmallVector<OpFoldResult> sizes,
            strides(type.getRank(), b.getIndexAttr(1));
        for (int64_t extent : type.getShape())
          sizes.push_back(b.getIndexAttr(extent));
        offsets[*position] = offset;
        sizes[*position] = b.getIndexAttr(size);
        operands[i] = memref::SubViewOp::create(b, op->getLoc(), operands[i],
                                                offsets, sizes, strides);
      }
    }
    Operation *clone = b.clone(*op, mapping);
    clone->setOperands(operands);
  }

  /// The ops of `kernel` for the workgroup at `offset` of size `size`.
  void emitSlice(OpBuilder &b, IRMapping &mapping, const Kernel &kernel,
                 Value offset, int64_t size) {
    // Views cloned for one slice stay in its block.
    IRMapping local = mapping;
    for (auto [i, op] : llvm::enumerate(kernel.ops)) {
      std::optional<unsigned> dim;
      if (!kernel.split.dims.empty())
        dim = kernel.split.dims[i];
      cloneCut(b, local, op, dim, offset, size);
    }
  }

  func::FuncOp build(OpBuilder &moduleBuilder, const Kernel &kernel,
                     StringRef name) {
    MLIRContext *context = entry.getContext();
    Location loc = kernel.ops.front()->getLoc();
    SmallVector<Type> types(entry.getArgumentTypes());
    types.push_back(IndexType::get(context));
    types.push_back(IndexType::get(context));
    auto function = func::FuncOp::create(moduleBuilder, loc, name,
                                         FunctionType::get(context, types, {}));
    function.setPrivate();
    Block *body = function.addEntryBlock();
    OpBuilder b = OpBuilder::atBlockBegin(body);
    IRMapping mapping;
    for (unsigned i = 0; i < entry.getNumArguments(); ++i)
      mapping.map(entry.getArgument(i), body->getArgument(i));
    Value begin = body->getArgument(entry.getNumArguments());
    Value end = body->getArgument(entry.getNumArguments() + 1);
    const Split &split = kernel.split;
    if (split.workgroups <= 1) {
      Kernel whole = kernel;
      whole.split.dims.clear();
      emitSlice(b, mapping, whole, Value(), 0);
    } else {
      Value one = arith::ConstantIndexOp::create(b, loc, 1);
      auto loop = scf::ForOp::create(b, loc, begin, end, one);
      b.setInsertionPointToStart(loop.getBody());
      Value workgroup = loop.getInductionVar();
      Value chunk = arith::ConstantIndexOp::create(b, loc, split.chunk);
      Value offset = arith::MulIOp::create(b, loc, workgroup, chunk);
      if (split.remainder == split.chunk) {
        emitSlice(b, mapping, kernel, offset, split.chunk);
      } else {
        Value last =
            arith::ConstantIndexOp::create(b, loc, split.workgroups - 1);
        Value isLast = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                             workgroup, last);
        auto branch = scf::IfOp::create(b, loc, isLast, /*withElse=*/true);
        OpBuilder thenBuilder = branch.getThenBodyBuilder();
        emitSlice(thenBuilder, mapping, kernel, offset, split.remainder);
        OpBuilder elseBuilder = branch.getElseBodyBuilder();
        emitSlice(elseBuilder, mapping, kernel, offset, split.chunk);
      }
      b.setInsertionPointAfter(loop);
    }
    func::ReturnOp::create(b, loc);
    return function;
  }
};

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

struct FormCpuDispatchesPass
    : kiln::compiler::impl::FormCpuDispatchesPassBase<FormCpuDispatchesPass> {
  using FormCpuDispatchesPassBase::FormCpuDispatchesPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<func::FuncOp> entries;
    for (auto function : module.getOps<func::FuncOp>())
      if (function->hasAttr(kiln::compiler::kEntryInterfaceAttr) &&
          !function.isExternal())
        entries.push_back(function);
    for (func::FuncOp entry : entries)
      if (failed(schedule(entry)))
        return signalPassFailure();
  }

  LogicalResult schedule(func::FuncOp entry) {
    std::optional<kiln::compiler::EntryInterface> recorded =
        kiln::compiler::readEntryInterface(entry);
    if (!recorded)
      return entry.emitError("exec.interface must be [inputs, results]");
    Interface interface;
    interface.inputs = recorded->inputs;
    interface.outputs = recorded->results;
    if (!entry.getBody().hasOneBlock() ||
        entry.getNumArguments() != interface.inputs + interface.outputs + 1)
      return entry.emitError("cannot schedule '")
             << entry.getName()
             << "': expected one block and parameters (inputs, outputs, "
                "arena) after memory planning";
    interface.arena = entry.getArgument(entry.getNumArguments() - 1);
    auto arenaType = dyn_cast<MemRefType>(interface.arena.getType());
    if (!arenaType || !arenaType.hasStaticShape() || arenaType.getRank() != 1)
      return entry.emitError("cannot schedule '")
             << entry.getName() << "': its last parameter is not the arena";
    interface.arenaBytes = memrefBytes(arenaType);

    SmallVector<Operation *> ops;
    for (Operation &op : entry.getBody().front())
      if (isKernel(&op))
        ops.push_back(&op);
    Splitter splitter{minWorkPerWorkgroup, maxWorkgroups};
    SmallVector<Kernel> kernels = formKernels(ops, splitter);
    SmallVector<SmallVector<BindingAttr>> bindings;
    for (const Kernel &kernel : kernels) {
      auto communicate = dyn_cast<CommunicateOp>(kernel.ops.front());
      auto bound = communicate ? collectiveBindings(communicate, interface)
                               : bindingsOf(kernel, interface);
      if (failed(bound) && communicate)
        return communicate.emitError(
            "cannot schedule a collective whose buffers are not inputs, "
            "outputs or arena views of static shape");
      if (failed(bound)) {
        if (llvm::any_of(ops, llvm::IsaPred<CommunicateOp>))
          return entry.emitError("cannot schedule '")
                 << entry.getName()
                 << "': a buffer has no place in the arena, and a program "
                    "with collectives cannot run as one dispatch";
        // A buffer we cannot place: one dispatch that binds everything.
        kernels = {Kernel{ops, Split()}};
        bindings = {wholeInterface(entry, interface)};
        break;
      }
      bindings.push_back(*bound);
    }

    OpBuilder moduleBuilder(entry);
    DispatchBuilder builder{entry, interface};
    SmallVector<func::FuncOp> functions;
    for (auto [index, kernel] : llvm::enumerate(kernels)) {
      if (isa<CommunicateOp>(kernel.ops.front())) {
        functions.push_back(nullptr);
        continue;
      }
      std::string name = (entry.getName() + "_d" + Twine(index)).str();
      functions.push_back(builder.build(moduleBuilder, kernel, name));
    }
    SmallVector<kiln::compiler::DispatchSpec> dispatches;
    for (auto [index, kernel] : llvm::enumerate(kernels)) {
      Location loc = kiln::compiler::stepSourceLoc(&getContext(), kernel.ops);
      if (auto communicate = dyn_cast<CommunicateOp>(kernel.ops.front())) {
        kiln::compiler::DispatchSpec spec{loc, ""};
        spec.bindings = bindings[index];
        spec.collective = kiln::compiler::CollectiveSpec{
            communicate.getKind(), communicate.getReduction(),
            int32_t(communicate.getRanks()),
            cast<ShapedType>(communicate.getInput().getType())
                .getElementType()};
        dispatches.push_back(std::move(spec));
        continue;
      }
      kiln::compiler::DispatchSpec spec{loc, functions[index].getName().str()};
      spec.grid[0] = int32_t(kernel.split.workgroups);
      spec.bindings = bindings[index];
      addResults(kernel, interface, spec);
      spec.flops = kiln::compiler::loopNestFlops(kernel.ops);
      dispatches.push_back(std::move(spec));
    }
    auto program =
        ProgramOp::create(moduleBuilder, entry.getLoc(), entry.getName(),
                          Device::cpu, int32_t(interface.inputs),
                          int32_t(interface.outputs), interface.arenaBytes,
                          /*constants_bytes=*/0);
    kiln::compiler::populateDispatches(program, dispatches);
    entry.erase();
    return success();
  }

  /// The outputs of the kernel's loop nests, typed (debug information).
  void addResults(const Kernel &kernel, const Interface &interface,
                  kiln::compiler::DispatchSpec &spec) {
    for (Operation *op : kernel.ops) {
      auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
      if (!linalgOp)
        continue;
      for (Value init : linalgOp.getDpsInits()) {
        // Only whole buffers: part of one (a subview) says nothing about
        // the bytes around it, which may not be written yet.
        Value whole = init;
        while (isa_and_present<memref::CollapseShapeOp, memref::ExpandShapeOp>(
            whole.getDefiningOp()))
          whole =
              cast<ViewLikeOpInterface>(whole.getDefiningOp()).getViewSource();
        if (!isa<BlockArgument>(whole) &&
            !isa_and_present<memref::ViewOp>(whole.getDefiningOp()))
          continue;
        auto type = dyn_cast<MemRefType>(init.getType());
        FailureOr<std::optional<BindingAttr>> binding =
            bindingOf(init, Access::write, interface);
        if (!type || !type.getElementType().isIntOrFloat() || failed(binding) ||
            !*binding || llvm::is_contained(spec.results, **binding))
          continue;
        spec.results.push_back(**binding);
        spec.resultElements.push_back(type.getElementType());
      }
    }
  }

  /// Every input (read), output and the arena (both ways).
  SmallVector<BindingAttr> wholeInterface(func::FuncOp entry,
                                          const Interface &interface) {
    SmallVector<BindingAttr> bindings;
    for (unsigned i = 0; i < interface.inputs + interface.outputs; ++i) {
      auto type = cast<MemRefType>(entry.getArgument(i).getType());
      bool input = i < interface.inputs;
      bindings.push_back(BindingAttr::get(
          &getContext(), input ? BufferBase::input : BufferBase::output,
          input ? i : i - interface.inputs, 0, uint64_t(memrefBytes(type)),
          input ? Access::read : Access::read_write));
    }
    bindings.push_back(BindingAttr::get(&getContext(), BufferBase::arena, 0, 0,
                                        uint64_t(interface.arenaBytes),
                                        Access::read_write));
    return bindings;
  }
};

} // namespace
