//===- ShareIdenticalKernels.cpp - One kernel per distinct dispatch body --===//
//
// SPDX-License-Identifier: Apache-2.0
//
// See Passes.td. Two dispatches of the same op on the same shapes differ
// only in where their buffers are: the arena offsets the memory plan chose
// and the weights' globals. With those as parameters their bodies are the
// same text, compiled once.
//
//===----------------------------------------------------------------------===//

#include "compiler/Codegen/CPU/Passes.h"
#include "compiler/Fusion/KernelFormation.h"
#include "dialects/Exec/IR/ExecOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/StringMap.h"

namespace kiln::compiler {
#define GEN_PASS_DEF_SHAREIDENTICALKERNELSPASS
#include "compiler/Codegen/CPU/Passes.h.inc"
} // namespace kiln::compiler

using namespace mlir;

namespace {

/// A buffer a dispatch reaches by address rather than by computation: a
/// view of one of its parameters (the arena) at a constant byte offset, a
/// global, or one of its buffer parameters as a whole (a model input or
/// output); or a static window (subview) of one of those, such as the rows
/// one convolution chunk writes.
struct BufferSource {
  MemRefType type;
  unsigned parameter = 0;
  int64_t shift = 0;
  /// The parameter itself, not a view of it.
  bool wholeParameter = false;
  FlatSymbolRefAttr global;
  /// The window, when there is one: its offsets, sizes and strides into
  /// the buffer and its type there (a static layout offset).
  SmallVector<int64_t> offsets, sizes, strides;
  MemRefType windowType;

  bool operator==(const BufferSource &other) const {
    return type == other.type && parameter == other.parameter &&
           shift == other.shift && wholeParameter == other.wholeParameter &&
           global == other.global && offsets == other.offsets &&
           sizes == other.sizes && strides == other.strides &&
           windowType == other.windowType;
  }

  /// The type the kernel sees: a window's layout offset is left open, so
  /// that windows at different offsets give the same kernel.
  MemRefType parameterType() const {
    return windowType ? withOpenOffset(windowType) : type;
  }

  /// The buffer `op` stands for, if it is one.
  static std::optional<BufferSource> of(Operation *op, Block &body) {
    BufferSource source;
    if (auto get = dyn_cast<memref::GetGlobalOp>(op)) {
      source.type = get.getType();
      source.global = get.getNameAttr();
      return source;
    }
    auto view = dyn_cast<memref::ViewOp>(op);
    if (!view || !view.getSizes().empty())
      return std::nullopt;
    auto parameter = dyn_cast<BlockArgument>(view.getSource());
    std::optional<int64_t> shift = getConstantIntValue(view.getByteShift());
    if (!parameter || parameter.getOwner() != &body || !shift)
      return std::nullopt;
    source.type = view.getType();
    source.parameter = parameter.getArgNumber();
    source.shift = *shift;
    return source;
  }

  /// `value` as a whole parameter, if it is a buffer parameter of `body`.
  static std::optional<BufferSource> ofParameter(Value value, Block &body) {
    auto parameter = dyn_cast<BlockArgument>(value);
    auto type = dyn_cast<MemRefType>(value.getType());
    if (!parameter || parameter.getOwner() != &body || !type)
      return std::nullopt;
    BufferSource source;
    source.type = type;
    source.parameter = parameter.getArgNumber();
    source.wholeParameter = true;
    return source;
  }

  /// The window `op` stands for, if it is a static subview of a buffer
  /// whose users all take the open offset.
  static std::optional<BufferSource> windowOf(Operation *op, Block &body) {
    auto subview = dyn_cast<memref::SubViewOp>(op);
    if (!subview || !subview.getOffsets().empty() ||
        !subview.getSizes().empty() || !subview.getStrides().empty())
      return std::nullopt;
    Operation *buffer = subview.getSource().getDefiningOp();
    std::optional<BufferSource> source =
        buffer ? of(buffer, body) : ofParameter(subview.getSource(), body);
    if (!source || !takesOpenOffset(subview.getResult()))
      return std::nullopt;
    source->offsets = llvm::to_vector(subview.getStaticOffsets());
    source->sizes = llvm::to_vector(subview.getStaticSizes());
    source->strides = llvm::to_vector(subview.getStaticStrides());
    source->windowType = subview.getType();
    return source;
  }

  /// Builds the buffer at `b` in a function whose parameters are `params`.
  Value build(OpBuilder &b, Location loc, ValueRange params) const {
    Value buffer;
    if (wholeParameter) {
      buffer = params[parameter];
    } else if (global) {
      buffer = memref::GetGlobalOp::create(b, loc, type, global);
    } else {
      Value offset = arith::ConstantIndexOp::create(b, loc, shift);
      buffer = memref::ViewOp::create(b, loc, type, params[parameter], offset,
                                      ValueRange());
    }
    if (!windowType)
      return buffer;
    Value window = memref::SubViewOp::create(b, loc, windowType, buffer,
                                             offsets, sizes, strides);
    return memref::CastOp::create(b, loc, parameterType(), window);
  }

private:
  static MemRefType withOpenOffset(MemRefType type) {
    auto [strides, offset] = type.getStridesAndOffset();
    return MemRefType::get(type.getShape(), type.getElementType(),
                           StridedLayoutAttr::get(type.getContext(),
                                                  ShapedType::kDynamic,
                                                  strides),
                           type.getMemorySpace());
  }

  /// Whether every user of `window` works unchanged on the same window
  /// with its layout offset open: ops that only access it, and subviews
  /// whose type has an open offset already.
  static bool takesOpenOffset(TypedValue<MemRefType> window) {
    MemRefType open = withOpenOffset(window.getType());
    return llvm::all_of(window.getUsers(), [&](Operation *user) {
      if (auto subview = dyn_cast<memref::SubViewOp>(user))
        return subview.getSource() == window &&
               memref::SubViewOp::inferRankReducedResultType(
                   subview.getType().getShape(), open,
                   subview.getMixedOffsets(), subview.getMixedSizes(),
                   subview.getMixedStrides()) == subview.getType();
      return isa<linalg::LinalgOp, memref::CopyOp, memref::LoadOp,
                 memref::StoreOp, vector::TransferReadOp,
                 vector::TransferWriteOp>(user);
    });
  }
};

/// A dispatch's body with the dispatch parameters it still uses, then its
/// buffer sources, as parameters: detached, named `kernel` until it is
/// kept.
struct Abstracted {
  func::FuncOp kernel;
  /// The dispatch's parameters the kernel takes, in order.
  SmallVector<unsigned> parameters;
  std::vector<BufferSource> sources;
};

/// Erases ops whose results nothing uses (the offsets of hoisted views).
void eraseDeadOps(func::FuncOp function) {
  bool erased = true;
  while (erased) {
    erased = false;
    function.walk([&](Operation *op) {
      if (op != function.getOperation() && isOpTriviallyDead(op)) {
        op->erase();
        erased = true;
      }
    });
  }
}

/// Replaces each op of `found` by a parameter of `kernel` for its source
/// (one per distinct source).
/// The kernel parameter for `source`: the one an equal source got, or a
/// new one.
Value parameterFor(Abstracted &result, unsigned dispatchParameters,
                   const BufferSource &source, Location loc) {
  Block &body = result.kernel.getBody().front();
  auto known = llvm::find(result.sources, source);
  if (known != result.sources.end())
    return body.getArgument(dispatchParameters +
                            (known - result.sources.begin()));
  result.sources.push_back(source);
  return body.addArgument(source.parameterType(), loc);
}

void replaceBySources(Abstracted &result, unsigned dispatchParameters,
                      ArrayRef<std::pair<Operation *, BufferSource>> found) {
  for (auto &[op, source] : found) {
    op->getResult(0).replaceAllUsesWith(
        parameterFor(result, dispatchParameters, source, op->getLoc()));
    op->erase();
  }
}

Abstracted abstractSources(func::FuncOp dispatch) {
  Abstracted result;
  result.kernel = dispatch.clone();
  Block &body = result.kernel.getBody().front();
  // Windows first: a buffer used only through windows then goes away.
  SmallVector<std::pair<Operation *, BufferSource>> windows, buffers;
  result.kernel.walk([&](Operation *op) {
    // Which fusion group or kernel an op came from named the dispatch
    // (step debug information, recorded); it says nothing about the code.
    op->removeAttr(kiln::compiler::kGroupAttr);
    op->removeAttr(kiln::compiler::kKernelAttr);
    if (std::optional<BufferSource> window = BufferSource::windowOf(op, body))
      windows.push_back({op, *window});
  });
  replaceBySources(result, dispatch.getNumArguments(), windows);
  eraseDeadOps(result.kernel);
  result.kernel.walk([&](Operation *op) {
    if (std::optional<BufferSource> buffer = BufferSource::of(op, body))
      buffers.push_back({op, *buffer});
  });
  replaceBySources(result, dispatch.getNumArguments(), buffers);
  eraseDeadOps(result.kernel);
  // What still uses a buffer parameter directly (a model output written in
  // place) takes it as a parameter of its own, so that dispatches that
  // differ only in which output they write share a kernel.
  for (unsigned i = 0, e = dispatch.getNumArguments(); i < e; ++i) {
    BlockArgument argument = body.getArgument(i);
    std::optional<BufferSource> whole =
        BufferSource::ofParameter(argument, body);
    if (!whole || argument.use_empty())
      continue;
    argument.replaceAllUsesWith(
        parameterFor(result, e, *whole, argument.getLoc()));
  }
  // A model with many inputs and outputs gives every dispatch a parameter
  // per buffer field; passed on to a kernel that ignores them, they made
  // each call hundreds of operands (a model returning 73 activations spent
  // a minute in LLVM).
  llvm::BitVector unused(body.getNumArguments());
  for (unsigned i = 0, e = dispatch.getNumArguments(); i < e; ++i) {
    if (body.getArgument(i).use_empty())
      unused.set(i);
    else
      result.parameters.push_back(i);
  }
  body.eraseArguments(unused);
  result.kernel.setType(
      FunctionType::get(dispatch.getContext(), body.getArgumentTypes(), {}));
  result.kernel.setName("kernel");
  return result;
}

/// Whether `dispatch` already only calls a kernel (the pass ran before):
/// sharing it again would add a call and save nothing.
bool isOnlyACall(func::FuncOp dispatch) {
  bool calls = false, computes = false;
  for (Operation &op : dispatch.getBody().front()) {
    if (isa<func::CallOp>(op))
      calls = true;
    else if (!op.hasTrait<OpTrait::IsTerminator>() && !isMemoryEffectFree(&op))
      computes = true;
  }
  return calls && !computes;
}

/// The text that decides identity: the whole function, locations left out.
std::string identityOf(func::FuncOp kernel) {
  std::string text;
  llvm::raw_string_ostream os(text);
  kernel.print(os, OpPrintingFlags().useLocalScope());
  return text;
}

/// Replaces the body of `dispatch` by a call of `kernel` with the
/// parameters it takes and its buffers.
void callKernel(func::FuncOp dispatch, func::FuncOp kernel,
                ArrayRef<unsigned> parameters, ArrayRef<BufferSource> sources) {
  Block &body = dispatch.getBody().front();
  for (Operation &op : body)
    op.dropAllReferences();
  while (!body.empty())
    body.back().erase();
  OpBuilder b = OpBuilder::atBlockBegin(&body);
  Location loc = dispatch.getLoc();
  SmallVector<Value> operands;
  for (unsigned parameter : parameters)
    operands.push_back(body.getArgument(parameter));
  for (const BufferSource &source : sources)
    operands.push_back(source.build(b, loc, body.getArguments()));
  func::CallOp::create(b, loc, kernel, operands);
  func::ReturnOp::create(b, loc);
}

struct ShareIdenticalKernelsPass
    : kiln::compiler::impl::ShareIdenticalKernelsPassBase<
          ShareIdenticalKernelsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    // Dispatch functions in program order, grouped by identical bodies.
    SetVector<func::FuncOp> dispatches;
    module.walk([&](kiln::exec::DispatchOp dispatch) {
      auto function =
          symbols.lookup<func::FuncOp>(dispatch.getCalleeAttr().getValue());
      if (function && !function.isExternal())
        dispatches.insert(function);
    });
    llvm::StringMap<unsigned> classOf;
    SmallVector<SmallVector<std::pair<func::FuncOp, Abstracted>>> classes;
    for (func::FuncOp dispatch : dispatches) {
      if (isOnlyACall(dispatch))
        continue;
      Abstracted abstracted = abstractSources(dispatch);
      auto [it, inserted] =
          classOf.try_emplace(identityOf(abstracted.kernel), classes.size());
      if (inserted)
        classes.emplace_back();
      classes[it->second].push_back({dispatch, std::move(abstracted)});
    }
    for (auto &members : classes) {
      // The first member's copy becomes the kernel; the others' copies
      // were only needed for the comparison.
      func::FuncOp kernel = members.front().second.kernel;
      for (auto &[dispatch, abstracted] : llvm::drop_begin(members))
        abstracted.kernel.erase();
      if (members.size() == 1) {
        // Alone, the dispatch keeps its body: constant offsets and globals
        // tell LLVM more than parameters do.
        kernel.erase();
        continue;
      }
      func::FuncOp first = members.front().first;
      kernel.setName((first.getName() + "_kernel").str());
      kernel.setPrivate();
      // Inlined into its callers, it would be compiled once per caller.
      // (The LLVM function attribute: convert-to-llvm keeps `passthrough`.)
      kernel->setAttr(
          "passthrough",
          ArrayAttr::get(&getContext(),
                         {StringAttr::get(&getContext(), "noinline")}));
      symbols.insert(kernel, Block::iterator(first));
      for (auto &[dispatch, abstracted] : members)
        callKernel(dispatch, kernel, abstracted.parameters, abstracted.sources);
    }
  }
};

} // namespace
