//===- StepCodec.cpp - Encoding of program steps --------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "StepCodec.h"

namespace kiln::rt {

namespace {
constexpr size_t kMaxName = 4096;
constexpr size_t kMaxSource = 1 << 16;
constexpr uint32_t kMaxKernelArgs = 1024;
constexpr uint32_t kMaxDependencies = 1 << 16;
// CUDA's own limits on a launch (any architecture Kiln targets).
constexpr uint32_t kMaxThreadsPerBlock = 1024;
constexpr uint32_t kMaxBlockDim[3] = {1024, 1024, 64};
constexpr uint32_t kMaxGridDim[3] = {0x7FFFFFFFu, 65535, 65535};

Status stepError(const std::string &name, const std::string &what) {
  return dataLoss(name + ": corrupt program section: " + what);
}

bool isKind(uint32_t kind) {
  return kind >= uint32_t(Step::Kind::kDispatch) &&
         kind <= uint32_t(Step::Kind::kBarrier);
}

/// One binding, checked against the buffer it names.
Status decodeArg(ByteReader &r, const Program &program, uint64_t arenaBytes,
                 KernelArg &arg, const std::string &name,
                 const std::string &which) {
  uint32_t base = r.u32();
  arg.index = r.u32();
  arg.offset = r.u64();
  arg.bytes = r.u64();
  uint32_t access = r.u32();
  if (!r.ok())
    return stepError(name, "bad " + which);
  if (access < uint32_t(KernelArg::Access::kRead) ||
      access > uint32_t(KernelArg::Access::kReadWrite))
    return stepError(name, "unknown access " + std::to_string(access) + " of " +
                               which);
  arg.access = KernelArg::Access(access);
  uint64_t limit = 0;
  switch (base) {
  case uint32_t(KernelArg::Base::kInput):
    if (arg.index >= program.inputs.size())
      return stepError(name, "input index out of range in " + which);
    if (arg.writes())
      return stepError(name, which + " writes an input");
    limit = tensorBytes(program.inputs[arg.index]);
    break;
  case uint32_t(KernelArg::Base::kOutput):
    if (arg.index >= program.outputs.size())
      return stepError(name, "output index out of range in " + which);
    limit = tensorBytes(program.outputs[arg.index]);
    break;
  case uint32_t(KernelArg::Base::kArena):
    limit = arenaBytes;
    break;
  case uint32_t(KernelArg::Base::kConstants):
    limit = ~uint64_t(0); // Checked once the constants are known.
    break;
  default:
    return stepError(name,
                     "unknown base " + std::to_string(base) + " of " + which);
  }
  bool single = base == uint32_t(KernelArg::Base::kArena) ||
                base == uint32_t(KernelArg::Base::kConstants);
  if (single && arg.index != 0)
    return stepError(name, "index of a single buffer is not 0 in " + which);
  if (arg.offset > limit || arg.bytes > limit - arg.offset)
    return stepError(name, "bytes " + std::to_string(arg.offset) + "+" +
                               std::to_string(arg.bytes) +
                               " outside the buffer in " + which);
  arg.base = KernelArg::Base(base);
  return Status::ok();
}

/// What each kind needs beyond the common fields.
Status checkKind(const Step &step, const DeviceProgram &device,
                 const std::string &name, const std::string &where) {
  bool cpu = device.kind == DeviceProgram::Kind::kCpu;
  switch (step.kind) {
  case Step::Kind::kDispatch:
  case Step::Kind::kLaunchKernel: {
    // A CPU device dispatches kernels, a CUDA device launches them.
    if ((step.kind == Step::Kind::kDispatch) != cpu)
      return stepError(name, "bad kind " + std::to_string(uint32_t(step.kind)) +
                                 " of " + where + " for its device");
    if (step.kernel.empty())
      return stepError(name, where + " names no kernel");
    uint64_t threads = 1;
    for (int d = 0; d < 3; ++d) {
      if (step.grid[d] == 0 || step.grid[d] > kMaxGridDim[d] ||
          step.block[d] == 0 || step.block[d] > kMaxBlockDim[d])
        return stepError(name, "bad grid or block dimension in " + where);
      threads *= step.block[d];
    }
    if (threads > kMaxThreadsPerBlock)
      return stepError(name, "more than 1024 threads per block in " + where);
    if (cpu && (threads != 1 || step.grid[1] != 1 || step.grid[2] != 1 ||
                step.sharedBytes != 0))
      return stepError(name,
                       "a CPU dispatch with a CUDA launch shape in " + where);
    return Status::ok();
  }
  case Step::Kind::kCopy:
    if (step.args.size() != 2 || step.args[0].bytes != step.args[1].bytes ||
        !step.args[1].writes())
      return stepError(name, "a copy needs a source and a written target of "
                             "the same size in " +
                                 where);
    return Status::ok();
  case Step::Kind::kFill:
    if (step.args.size() != 1 || !step.args[0].writes() ||
        (step.patternBytes != 1 && step.patternBytes != 2 &&
         step.patternBytes != 4 && step.patternBytes != 8) ||
        step.args[0].bytes % step.patternBytes != 0)
      return stepError(name, "bad fill in " + where);
    return Status::ok();
  case Step::Kind::kCollective:
    if (step.ranks == 0 || step.args.empty() || step.args.size() > 2 ||
        uint32_t(step.collective) < 1 || uint32_t(step.collective) > 6 ||
        step.reduction > 4 || dtypeSize(step.element) == 0)
      return stepError(name, "bad collective in " + where);
    return Status::ok();
  case Step::Kind::kBarrier:
    if (!step.args.empty())
      return stepError(name, "a barrier with bindings in " + where);
    return Status::ok();
  }
  return stepError(name, "bad " + where);
}
} // namespace

uint64_t tensorBytes(const TensorSpec &spec) {
  uint64_t elements = 1;
  for (int64_t dim : spec.shape)
    elements *= uint64_t(dim); // Bounded by 2^62 at decoding.
  uint64_t size = dtypeSize(spec.dtype);
  if (size != 0 && elements > ~uint64_t(0) / size)
    return ~uint64_t(0);
  return elements * size;
}

namespace {
void encodeArg(ByteWriter &w, const KernelArg &arg) {
  w.u32(uint32_t(arg.base));
  w.u32(arg.index);
  w.u64(arg.offset);
  w.u64(arg.bytes);
  w.u32(uint32_t(arg.access));
}

/// Whether `inner` lies inside an argument of `step` that writes.
bool insideWrittenArg(const Step &step, const KernelArg &inner) {
  for (const KernelArg &arg : step.args)
    if (arg.writes() && arg.base == inner.base && arg.index == inner.index &&
        arg.offset <= inner.offset && inner.bytes <= arg.bytes &&
        inner.offset - arg.offset <= arg.bytes - inner.bytes)
      return true;
  return false;
}
} // namespace

void encodeStep(ByteWriter &w, const Step &step) {
  w.u32(uint32_t(step.kind));
  w.string(step.kernel);
  for (uint32_t d : step.grid)
    w.u32(d);
  for (uint32_t d : step.block)
    w.u32(d);
  w.u32(step.sharedBytes);
  w.u32(uint32_t(step.args.size()));
  for (const KernelArg &arg : step.args)
    encodeArg(w, arg);
  w.u32(uint32_t(step.after.size()));
  for (uint32_t dependency : step.after)
    w.u32(dependency);
  if (step.kind == Step::Kind::kFill) {
    w.u64(step.pattern);
    w.u32(step.patternBytes);
  }
  if (step.kind == Step::Kind::kCollective) {
    w.u32(uint32_t(step.collective));
    w.u32(step.reduction);
    w.u32(step.ranks);
    w.u32(step.peer);
    w.u32(uint32_t(step.element));
  }
  w.string(step.source);
  w.u32(uint32_t(step.results.size()));
  for (const Step::Result &result : step.results) {
    encodeArg(w, result.range);
    w.u32(uint32_t(result.element));
  }
  w.u64(step.flops);
}

Status decodeStep(ByteReader &r, const Program &program,
                  const DeviceProgram &device, uint32_t index, Step &step,
                  const std::string &name, const std::string &where) {
  uint32_t kind = r.u32();
  step.kernel = r.string(kMaxName);
  if (!r.ok() || !isKind(kind))
    return stepError(name, "bad kind " + std::to_string(kind) + " of " + where);
  step.kind = Step::Kind(kind);
  for (uint32_t &d : step.grid)
    d = r.u32();
  for (uint32_t &d : step.block)
    d = r.u32();
  step.sharedBytes = r.u32();
  uint32_t args = r.u32();
  if (!r.ok() || args > kMaxKernelArgs)
    return stepError(name, "bad bindings of " + where);
  for (uint32_t a = 0; a < args; ++a) {
    KernelArg arg;
    KILN_RETURN_IF_ERROR(
        decodeArg(r, program, device.arenaBytes, arg, name,
                  "argument #" + std::to_string(a) + " of " + where));
    step.args.push_back(arg);
  }
  uint32_t dependencies = r.u32();
  if (!r.ok() || dependencies > kMaxDependencies)
    return stepError(name, "bad dependencies of " + where);
  for (uint32_t d = 0; d < dependencies; ++d) {
    uint32_t dependency = r.u32();
    // Only earlier steps: the order is a valid execution order, and no
    // cycle can be encoded.
    if (!r.ok() || dependency >= index)
      return stepError(name, where + " waits for a step that is not before "
                                     "it");
    step.after.push_back(dependency);
  }
  if (step.kind == Step::Kind::kFill) {
    step.pattern = r.u64();
    step.patternBytes = r.u32();
  }
  if (step.kind == Step::Kind::kCollective) {
    step.collective = Step::CollectiveKind(r.u32());
    step.reduction = r.u32();
    step.ranks = r.u32();
    step.peer = r.u32();
    uint32_t element = r.u32();
    step.element = element > 255 ? DType(0) : DType(element);
  }
  step.source = r.string(kMaxSource);
  uint32_t results = r.u32();
  if (!r.ok() || results > kMaxKernelArgs)
    return stepError(name, "bad debug information of " + where);
  for (uint32_t i = 0; i < results; ++i) {
    Step::Result result;
    std::string which = "result #" + std::to_string(i) + " of " + where;
    KILN_RETURN_IF_ERROR(decodeArg(r, program, device.arenaBytes,
                                   result.range, name, which));
    uint32_t element = r.u32();
    size_t size = element > 255 ? 0 : dtypeSize(DType(element));
    if (!r.ok() || size == 0 || result.range.bytes % size != 0)
      return stepError(name, "bad element type of " + which);
    result.element = DType(element);
    if (!insideWrittenArg(step, result.range))
      return stepError(name, which + " is not inside a buffer the step "
                                     "writes");
    step.results.push_back(result);
  }
  step.flops = r.u64();
  if (!r.ok())
    return stepError(name, "bad " + where);
  return checkKind(step, device, name, where);
}

} // namespace kiln::rt
