//===- ScheduleToProgram.cpp - exec programs in the runtime's form --------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Enum values of the exec dialect and of rt::Step are the same numbers
// (both are part of the artifact format); the static_asserts keep them so.
//
//===----------------------------------------------------------------------===//

#include "compiler/Scheduling/ScheduleToProgram.h"

#include "compiler/MemoryPlanning/BufferLiveness.h"
#include "compiler/MemoryPlanning/EntrySignature.h"

#include "dialects/Exec/IR/ExecOps.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace kiln::exec;

namespace kiln::compiler {

namespace {
static_assert(uint32_t(BufferBase::input) ==
                  uint32_t(rt::KernelArg::Base::kInput) &&
              uint32_t(BufferBase::constants) ==
                  uint32_t(rt::KernelArg::Base::kConstants));
static_assert(uint32_t(Access::read) ==
                  uint32_t(rt::KernelArg::Access::kRead) &&
              uint32_t(Access::read_write) ==
                  uint32_t(rt::KernelArg::Access::kReadWrite));
static_assert(uint32_t(CollectiveKind::recv) ==
              uint32_t(rt::Step::CollectiveKind::kRecv));

rt::KernelArg toArg(BindingAttr binding) {
  rt::KernelArg arg;
  arg.base = rt::KernelArg::Base(uint32_t(binding.getBase()));
  arg.index = binding.getIndex();
  arg.offset = binding.getOffset();
  arg.bytes = binding.getBytes();
  arg.access = rt::KernelArg::Access(uint32_t(binding.getAccess()));
  return arg;
}

/// What a dispatch computes and where it comes from: a location fused from
/// its ops' (metadata: their fusion group) and its typed results.
LogicalResult recordDebugInfo(DispatchOp dispatch, rt::Step &step) {
  Location loc = dispatch.getLoc();
  step.source = describeLocation(loc);
  if (auto fused = dyn_cast<FusedLoc>(loc))
    if (auto group = dyn_cast_if_present<StringAttr>(fused.getMetadata()))
      step.source = group.str() + (step.source.empty() ? "" : ": ") +
                    step.source;
  step.flops = uint64_t(dispatch.getFlops().value_or(0));
  if (!dispatch.getResultRanges())
    return success();
  for (auto [range, type] :
       llvm::zip(dispatch.getResultRanges()->getAsRange<BindingAttr>(),
                 dispatch.getResultElements()->getAsValueRange<TypeAttr>())) {
    std::optional<rt::DType> element = toDType(type);
    if (!element)
      return dispatch.emitOpError("computes a result of type ")
             << type << ", which artifacts cannot describe";
    rt::Step::Result result{toArg(range), *element};
    result.range.access = rt::KernelArg::Access::kWrite;
    step.results.push_back(result);
  }
  return success();
}

} // namespace

FailureOr<rt::DeviceProgram> extractProgram(ModuleOp module, StringRef entry) {
  auto program = module.lookupSymbol<ProgramOp>(entry);
  if (!program)
    return module.emitError("no exec.program named '") << entry << "'";
  rt::DeviceProgram device;
  device.kind = program.getDevice() == Device::cpu
                    ? rt::DeviceProgram::Kind::kCpu
                    : rt::DeviceProgram::Kind::kCuda;
  device.arenaBytes = uint64_t(program.getArenaBytes());
  DenseMap<Operation *, uint32_t> indices;
  // Steps no later step waits for (yet): what a bare barrier waits for.
  SetVector<uint32_t> sinks;
  for (Operation &op : program.getBody().front()) {
    auto stepOp = cast<StepOpInterface>(op);
    rt::Step step;
    for (BindingAttr binding : stepOp.getStepBindings())
      step.args.push_back(toArg(binding));
    for (Value token : stepOp.getAfter())
      step.after.push_back(indices.lookup(token.getDefiningOp()));
    LogicalResult converted =
        TypeSwitch<Operation *, LogicalResult>(&op)
            .Case([&](DispatchOp dispatch) {
              step.kind = device.kind == rt::DeviceProgram::Kind::kCpu
                              ? rt::Step::Kind::kDispatch
                              : rt::Step::Kind::kLaunchKernel;
              step.kernel = dispatch.getCallee().str();
              for (int d = 0; d < 3; ++d)
                step.grid[d] = uint32_t(dispatch.getGrid()[d]);
              if (auto block = dispatch.getBlock())
                for (int d = 0; d < 3; ++d)
                  step.block[d] = uint32_t((*block)[d]);
              step.sharedBytes = uint32_t(dispatch.getSharedBytes());
              return recordDebugInfo(dispatch, step);
            })
            .Case([&](CopyOp) {
              step.kind = rt::Step::Kind::kCopy;
              return success();
            })
            .Case([&](FillOp fill) {
              step.kind = rt::Step::Kind::kFill;
              step.pattern = fill.getPattern().getZExtValue();
              step.patternBytes = fill.getPattern().getBitWidth() / 8;
              return success();
            })
            .Case([&](CollectiveOp collective) -> LogicalResult {
              step.kind = rt::Step::Kind::kCollective;
              step.collective =
                  rt::Step::CollectiveKind(uint32_t(collective.getKind()));
              step.reduction = uint32_t(collective.getReduction());
              step.ranks = uint32_t(collective.getRanks());
              step.peer = uint32_t(collective.getPeer().value_or(0));
              std::optional<rt::DType> element =
                  toDType(collective.getElement());
              if (!element)
                return collective.emitOpError("exchanges elements the "
                                              "runtime has no type for");
              step.element = *element;
              return success();
            })
            .Case([&](BarrierOp barrier) {
              step.kind = rt::Step::Kind::kBarrier;
              if (barrier.getAfter().empty())
                step.after.assign(sinks.begin(), sinks.end());
              return success();
            })
            .Default([](Operation *other) {
              return other->emitOpError("is not a step");
            });
    if (failed(converted))
      return failure();
    uint32_t index = uint32_t(device.steps.size());
    for (uint32_t dependency : step.after)
      sinks.remove(dependency);
    sinks.insert(index);
    indices[&op] = index;
    device.steps.push_back(std::move(step));
  }
  // One executable runs one entry: the other public functions' programs go
  // too (their dispatch functions stay, unused).
  for (auto other : llvm::make_early_inc_range(module.getOps<ProgramOp>()))
    other.erase();
  return device;
}

} // namespace kiln::compiler
