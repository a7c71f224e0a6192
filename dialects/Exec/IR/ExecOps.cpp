//===- ExecOps.cpp - Verifiers of the exec schedule dialect ---------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// What a runtime relies on without checking again: every binding lies inside
// the program's buffers, inputs are never written, a dispatch's kernel
// exists with the device's calling convention, and sizes of copies, fills
// and collectives agree. (The artifact loader checks the serialised form
// independently: an artifact is untrusted input.)
//
//===----------------------------------------------------------------------===//

#include "dialects/Exec/IR/ExecOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace kiln::exec;

#include "dialects/Exec/IR/ExecOpInterfaces.cpp.inc"

#define GET_OP_CLASSES
#include "dialects/Exec/IR/ExecOps.cpp.inc"

//===----------------------------------------------------------------------===//
// ProgramOp
//===----------------------------------------------------------------------===//

LogicalResult ProgramOp::verify() {
  if (getNumInputsAttr().getInt() < 0 || getNumOutputsAttr().getInt() < 0 ||
      getArenaBytesAttr().getInt() < 0 || getConstantsBytesAttr().getInt() < 0)
    return emitOpError("counts and sizes must be non-negative");
  if (getDevice() == Device::cpu && getConstantsBytes() != 0)
    return emitOpError("a CPU program has no constants buffer (its kernels "
                       "embed their weights)");
  for (Operation &op : getBody().front())
    if (!isa<StepOpInterface>(op))
      return op.emitOpError("is not a step of an exec.program");
  return success();
}

LogicalResult ProgramOp::verifyBinding(Operation *step, BindingAttr binding) {
  uint64_t limit = 0;
  switch (binding.getBase()) {
  case BufferBase::input:
  case BufferBase::output: {
    bool input = binding.getBase() == BufferBase::input;
    int64_t count = input ? getNumInputs() : getNumOutputs();
    if (binding.getIndex() >= uint64_t(count))
      return step->emitOpError() << "binds " << (input ? "input " : "output ")
                                 << binding.getIndex() << " of a program with "
                                 << count << (input ? " inputs" : " outputs");
    if (input && binding.writes())
      return step->emitOpError() << "writes input " << binding.getIndex()
                                 << ": inputs are read-only";
    // Tensor sizes are the runtime's to check: the program only knows
    // their count.
    limit = ~uint64_t(0);
    break;
  }
  case BufferBase::arena:
    limit = uint64_t(getArenaBytes());
    break;
  case BufferBase::constants:
    limit = uint64_t(getConstantsBytes());
    if (binding.writes())
      return step->emitOpError("writes the constants: they are read-only");
    break;
  }
  if (!binding.hasIndex() && binding.getIndex() != 0)
    return step->emitOpError("binds a single buffer with an index");
  if (binding.getOffset() > limit ||
      binding.getBytes() > limit - binding.getOffset())
    return step->emitOpError()
           << "binds bytes [" << binding.getOffset() << ", "
           << binding.getOffset() + binding.getBytes() << ") of the "
           << stringifyBufferBase(binding.getBase()) << ", which has " << limit
           << " bytes";
  return success();
}

/// Verifies what every step shares: its bindings lie inside its program.
static LogicalResult verifyStepBindings(StepOpInterface step) {
  auto program = step->getParentOfType<ProgramOp>();
  for (BindingAttr binding : step.getStepBindings())
    if (failed(program.verifyBinding(step, binding)))
      return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// DispatchOp
//===----------------------------------------------------------------------===//

int64_t DispatchOp::getWorkgroupCount() {
  int64_t count = 1;
  for (int32_t d : getGrid())
    count *= d;
  return count;
}

LogicalResult DispatchOp::verify() {
  if (getGrid().size() != 3 ||
      llvm::any_of(getGrid(), [](int32_t d) { return d < 1; }))
    return emitOpError("needs a grid of three positive dimensions");
  auto program = (*this)->getParentOfType<ProgramOp>();
  if (program.getDevice() == Device::cpu) {
    if (getBlock() || getSharedBytes() != 0)
      return emitOpError("a CPU dispatch has no thread block or shared "
                         "memory");
    if (getGrid()[1] != 1 || getGrid()[2] != 1)
      return emitOpError("a CPU dispatch has a one-dimensional grid");
  } else {
    if (!getBlock() || getBlock()->size() != 3 ||
        llvm::any_of(*getBlock(), [](int32_t d) { return d < 1; }))
      return emitOpError("a CUDA dispatch needs a thread block of three "
                         "positive dimensions");
    int64_t threads =
        int64_t((*getBlock())[0]) * (*getBlock())[1] * (*getBlock())[2];
    if (threads > 1024)
      return emitOpError() << "a thread block of " << threads
                           << " threads exceeds CUDA's 1024";
    if (getSharedBytesAttr().getInt() < 0)
      return emitOpError("needs non-negative shared memory");
  }
  if (getBindings().empty())
    return emitOpError("binds no buffer: a kernel that touches nothing does "
                       "nothing");
  if (failed(verifyStepBindings(*this)))
    return failure();
  return verifyResults();
}

LogicalResult DispatchOp::verifyResults() {
  if (!getResultRanges() && !getResultElements())
    return success();
  if (!getResultRanges() || !getResultElements() ||
      getResultRanges()->size() != getResultElements()->size())
    return emitOpError("needs one element type per result");
  for (auto [i, attr, typeAttr] : llvm::enumerate(
           getResultRanges()->getValue(), getResultElements()->getValue())) {
    auto result = cast<BindingAttr>(attr); // The attribute's constraint.
    Type type = cast<TypeAttr>(typeAttr).getValue();
    if (!type.isIntOrFloat() || type.getIntOrFloatBitWidth() == 0)
      return emitOpError() << "result #" << i << " has type " << type
                           << "; results hold integers or floats";
    uint64_t width = (type.getIntOrFloatBitWidth() + 7) / 8;
    if (result.getBytes() == 0 || result.getBytes() % width != 0)
      return emitOpError() << "result #" << i << " of " << result.getBytes()
                           << " bytes is not a whole number of " << type
                           << " elements";
    bool covered = llvm::any_of(
        getBindings().getAsRange<BindingAttr>(), [&](BindingAttr binding) {
          return binding.writes() && binding.getBase() == result.getBase() &&
                 binding.getIndex() == result.getIndex() &&
                 binding.getOffset() <= result.getOffset() &&
                 result.getOffset() + result.getBytes() <=
                     binding.getOffset() + binding.getBytes();
        });
    if (!covered)
      return emitOpError() << "result #" << i
                           << " is not inside a binding the dispatch writes";
  }
  return success();
}

LogicalResult DispatchOp::verifySymbolUses(SymbolTableCollection &symbols) {
  auto program = (*this)->getParentOfType<ProgramOp>();
  Operation *module = program->getParentOp();
  if (!module)
    return emitOpError("its program is not inside a module");
  Operation *callee = symbols.lookupSymbolIn(module, getCalleeAttr());
  if (!callee)
    return emitOpError() << "dispatches '" << getCallee()
                         << "', which is not defined";
  if (program.getDevice() == Device::cuda) {
    if (!isa<KernelOp>(callee))
      return emitOpError() << "dispatches '" << getCallee()
                           << "' on CUDA, which is not an exec.kernel";
    return success();
  }
  // Lowered to the LLVM dialect the callee's buffers are expanded: only a
  // func.func still shows the dispatch signature.
  if (isa<FunctionOpInterface>(callee) && !isa<func::FuncOp>(callee))
    return success();
  auto function = dyn_cast<func::FuncOp>(callee);
  if (!function)
    return emitOpError() << "dispatches '" << getCallee()
                         << "' on the CPU, which is not a function";
  // Inputs, outputs, the arena, then the workgroup range.
  FunctionType type = function.getFunctionType();
  unsigned buffers = program.getNumInputs() + program.getNumOutputs() + 1;
  auto index = IndexType::get(getContext());
  if (type.getNumInputs() != buffers + 2 || type.getNumResults() != 0 ||
      type.getInput(buffers) != index || type.getInput(buffers + 1) != index)
    return emitOpError() << "dispatches '" << getCallee() << "', whose type "
                         << type << " is not (" << buffers
                         << " buffers, index, index) -> ()";
  return success();
}

//===----------------------------------------------------------------------===//
// CopyOp, FillOp
//===----------------------------------------------------------------------===//

LogicalResult CopyOp::verify() {
  if (!getSource().reads() || !getTarget().writes())
    return emitOpError("reads its source and writes its target");
  if (getSource().getBytes() != getTarget().getBytes())
    return emitOpError() << "copies " << getSource().getBytes()
                         << " bytes into " << getTarget().getBytes();
  if (getSource().overlaps(getTarget()))
    return emitOpError("source and target overlap");
  return verifyStepBindings(*this);
}

LogicalResult FillOp::verify() {
  unsigned width = getPattern().getBitWidth();
  if (width != 8 && width != 16 && width != 32 && width != 64)
    return emitOpError() << "has a " << width
                         << "-bit pattern; patterns have 8, 16, 32 or 64 bits";
  if (!getTarget().writes())
    return emitOpError("writes its target");
  if (getTarget().getBytes() % (width / 8) != 0)
    return emitOpError() << "fills " << getTarget().getBytes()
                         << " bytes, not a multiple of its " << width / 8
                         << "-byte pattern";
  return verifyStepBindings(*this);
}

//===----------------------------------------------------------------------===//
// Communicate (a collective before scheduling)
//===----------------------------------------------------------------------===//

LogicalResult CommunicateOp::verify() {
  CollectiveKind kind = getKind();
  StringRef name = stringifyCollectiveKind(kind);
  if (kind != CollectiveKind::all_reduce &&
      kind != CollectiveKind::all_gather &&
      kind != CollectiveKind::reduce_scatter)
    return emitOpError() << name
                         << " is not a group collective (all_reduce, "
                            "all_gather or reduce_scatter)";
  if (int32_t(getRanks()) < 1)
    return emitOpError("needs at least one rank");
  bool reducing = kind != CollectiveKind::all_gather;
  if (reducing != (getReduction() != ReductionKind::none))
    return emitOpError() << name
                         << (reducing ? " needs a reduction"
                                      : " takes no reduction");
  auto input = cast<ShapedType>(getInput().getType());
  auto init = cast<ShapedType>(getInit().getType());
  if (isa<TensorType>(input) != isa<TensorType>(init))
    return emitOpError("takes tensors or buffers, not both");
  bool onTensors = isa<TensorType>(init);
  if (onTensors != (getNumResults() == 1) || getNumResults() > 1 ||
      (onTensors && getResult()[0].getType() != init))
    return emitOpError(onTensors ? "on tensors returns the type of its init"
                                 : "on buffers returns nothing");
  if (!input.hasStaticShape() || !init.hasStaticShape())
    return emitOpError("needs static shapes");
  if (input.getElementType() != init.getElementType())
    return emitOpError("sends ") << input.getElementType() << " but receives "
                                 << init.getElementType();
  int64_t ranks = getRanks();
  int64_t sent = input.getNumElements(), received = init.getNumElements();
  bool sizesMatch =
      kind == CollectiveKind::all_gather       ? received == sent * ranks
      : kind == CollectiveKind::reduce_scatter ? sent == received * ranks
                                               : sent == received;
  if (!sizesMatch)
    return emitOpError() << name << " over " << ranks << " ranks sends " << sent
                         << " elements but receives " << received;
  return success();
}

void CommunicateOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  // Communication itself: never dropped, merged or reordered.
  effects.emplace_back(MemoryEffects::Read::get());
  effects.emplace_back(MemoryEffects::Write::get());
  if (isa<MemRefType>(getInput().getType()))
    effects.emplace_back(MemoryEffects::Read::get(), &getInputMutable(),
                         SideEffects::DefaultResource::get());
  if (isa<MemRefType>(getInit().getType()))
    effects.emplace_back(MemoryEffects::Write::get(), &getInitMutable(),
                         SideEffects::DefaultResource::get());
}

//===----------------------------------------------------------------------===//
// CollectiveOp
//===----------------------------------------------------------------------===//

LogicalResult CollectiveOp::verify() {
  CollectiveKind kind = getKind();
  StringRef name = stringifyCollectiveKind(kind);
  if (getRanks() < 1)
    return emitOpError("needs at least one rank");
  bool reducing = kind == CollectiveKind::all_reduce ||
                  kind == CollectiveKind::reduce_scatter;
  if (reducing != (getReduction() != ReductionKind::none))
    return emitOpError() << name
                         << (reducing ? " needs a reduction"
                                      : " takes no reduction");
  Type element = getElement();
  // i0 too: zero bytes per element would divide by zero below.
  if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() == 0 ||
      element.getIntOrFloatBitWidth() % 8 != 0)
    return emitOpError() << "cannot exchange elements of " << element;
  uint64_t elementBytes = element.getIntOrFloatBitWidth() / 8;

  bool needsSend = kind != CollectiveKind::recv;
  bool needsRecv = kind != CollectiveKind::send;
  BindingAttr send = getSendAttr(), recv = getRecvAttr();
  if (needsSend != bool(send) || needsRecv != bool(recv))
    return emitOpError() << name << " takes "
                         << (needsSend && needsRecv ? "send and recv"
                             : needsSend            ? "only send"
                                                    : "only recv")
                         << " bindings";
  bool pointToPoint = kind == CollectiveKind::send ||
                      kind == CollectiveKind::recv ||
                      kind == CollectiveKind::broadcast;
  if (pointToPoint != getPeer().has_value())
    return emitOpError() << name
                         << (pointToPoint ? " needs a peer rank"
                                          : " takes no peer rank");
  if (getPeer() && (*getPeer() < 0 || *getPeer() >= getRanks()))
    return emitOpError() << "peer " << *getPeer() << " is not a rank of "
                         << getRanks();
  if (send && !send.reads())
    return emitOpError("reads its send binding");
  if (recv && !recv.writes())
    return emitOpError("writes its recv binding");
  for (BindingAttr binding : {send, recv})
    if (binding && binding.getBytes() % elementBytes != 0)
      return emitOpError() << "binds " << binding.getBytes()
                           << " bytes, not a whole number of " << element;

  if (send && recv) {
    uint64_t ranks = uint64_t(getRanks());
    uint64_t expected =
        kind == CollectiveKind::all_gather       ? send.getBytes() * ranks
        : kind == CollectiveKind::reduce_scatter ? send.getBytes() / ranks
                                                 : send.getBytes();
    bool divides =
        kind != CollectiveKind::reduce_scatter || send.getBytes() % ranks == 0;
    if (!divides || recv.getBytes() != expected)
      return emitOpError() << name << " over " << ranks << " ranks sends "
                           << send.getBytes() << " bytes but receives "
                           << recv.getBytes();
    // In place is fine for a reduction over the same bytes, never for a
    // partial overlap.
    if (send.overlaps(recv) && (send.getOffset() != recv.getOffset() ||
                                send.getBytes() != recv.getBytes()))
      return emitOpError("send and recv partly overlap");
  }
  return verifyStepBindings(*this);
}
