//===- Artifact.cpp - The .kiln artifact container ------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Decoding checks, in order: header size, magic, version, declared file
// size, header and table CRCs, section bounds/alignment/overlap, section
// CRCs, required sections, then the program's own structure, then the
// memory plans against the program, then the CUDA modules and the launches
// against them and the constants. Every count and length read from the
// file is bounded before it is used.
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/Artifact.h"

#include "ByteIO.h"
#include "FileBytes.h"
#include "NestedArtifact.h"
#include "StepCodec.h"

#include <algorithm>
#include <array>
#include <iterator>
#include <limits>
#include <set>

namespace kiln::rt {

namespace {

constexpr size_t kHeaderSize = 64;
constexpr size_t kSectionEntrySize = 32;
constexpr size_t kSectionAlignment = 16;
constexpr uint32_t kMaxSections = 64;
// Structural limits of a program: generous for real models, small enough
// that a hostile file cannot make the loader allocate without bound.
constexpr uint32_t kMaxTensors = 4096;
constexpr uint32_t kMaxRank = 16;
constexpr uint32_t kMaxDevices = 64;
constexpr uint32_t kMaxSteps = 1 << 16;
constexpr size_t kMaxName = 4096;
constexpr uint32_t kMaxPlannedBuffers = 1 << 20;
constexpr uint32_t kMaxCudaModules = 4096;
constexpr uint32_t kMaxKernelsPerModule = 1 << 16;

constexpr size_t kHeaderCrcOffset = 32;

/// Slicing-by-8 tables: table[0] is the classic byte table, table[k][b]
/// the CRC of byte b followed by k zero bytes. Eight bytes per step instead
/// of one: checking a 100 MB artifact took 0.13 s byte by byte.
using CrcTables = std::array<std::array<uint32_t, 256>, 8>;
CrcTables makeCrcTables() {
  CrcTables tables{};
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t c = i;
    for (int k = 0; k < 8; ++k)
      c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    tables[0][i] = c;
  }
  for (uint32_t i = 0; i < 256; ++i)
    for (int k = 1; k < 8; ++k)
      tables[k][i] =
          tables[0][tables[k - 1][i] & 0xFF] ^ (tables[k - 1][i] >> 8);
  return tables;
}

//===----------------------------------------------------------------------===//
// Program encoding
//===----------------------------------------------------------------------===//

void encodeTensors(ByteWriter &w, const std::vector<TensorSpec> &tensors) {
  w.u32(uint32_t(tensors.size()));
  for (const TensorSpec &t : tensors) {
    w.string(t.name);
    w.u32(uint32_t(t.dtype));
    w.u32(uint32_t(t.shape.size()));
    for (int64_t dim : t.shape)
      w.i64(dim);
    w.u32(uint32_t(t.lengthAxis));
    w.u32(t.lengthOutput);
  }
}

std::vector<uint8_t> encodeProgram(const Program &program) {
  ByteWriter w;
  encodeTensors(w, program.inputs);
  encodeTensors(w, program.outputs);
  w.u32(uint32_t(program.devices.size()));
  for (const DeviceProgram &device : program.devices) {
    w.u32(uint32_t(device.kind));
    w.u64(device.arenaBytes);
    w.u32(uint32_t(device.steps.size()));
    for (const Step &step : device.steps)
      encodeStep(w, step);
  }
  return std::move(w.bytes());
}

Status programError(const std::string &name, const std::string &what) {
  return dataLoss(name + ": corrupt program section: " + what);
}

Status decodeTensors(ByteReader &r, const std::string &name, const char *what,
                     std::vector<TensorSpec> &tensors) {
  uint32_t count = r.u32();
  if (!r.ok() || count > kMaxTensors)
    return programError(name, std::string("bad ") + what + " count");
  for (uint32_t i = 0; i < count; ++i) {
    TensorSpec t;
    t.name = r.string(kMaxName);
    uint32_t dtype = r.u32();
    uint32_t rank = r.u32();
    if (!r.ok() || rank > kMaxRank || dtype > 255 ||
        dtypeSize(DType(dtype)) == 0)
      return programError(name, std::string("bad ") + what + " #" +
                                    std::to_string(i));
    t.dtype = DType(dtype);
    uint64_t elements = 1;
    for (uint32_t d = 0; d < rank; ++d) {
      int64_t dim = r.i64();
      if (!r.ok() || dim < 0 ||
          (dim != 0 && elements > (uint64_t(1) << 62) / uint64_t(dim)))
        return programError(name, std::string("bad shape of ") + what + " #" +
                                      std::to_string(i));
      elements *= uint64_t(dim);
      t.shape.push_back(dim);
    }
    t.lengthAxis = int32_t(r.u32());
    t.lengthOutput = r.u32();
    if (!r.ok() || t.lengthAxis < -1 || t.lengthAxis >= int32_t(rank) ||
        (t.lengthAxis < 0 && t.lengthOutput != 0))
      return programError(name, std::string("bad run-time length of ") + what +
                                    " #" + std::to_string(i));
    tensors.push_back(std::move(t));
  }
  return Status::ok();
}

/// Inputs have static shapes; an output's run-time length is another output,
/// an i64 scalar without a length of its own.
Status checkRuntimeLengths(const std::string &name, const Program &program) {
  for (const TensorSpec &input : program.inputs)
    if (input.hasRuntimeLength())
      return programError(name,
                          "input '" + input.name + "' has a run-time length");
  for (const TensorSpec &output : program.outputs) {
    if (!output.hasRuntimeLength())
      continue;
    const TensorSpec *length = output.lengthOutput < program.outputs.size()
                                   ? &program.outputs[output.lengthOutput]
                                   : nullptr;
    if (!length || length == &output || length->dtype != DType::kI64 ||
        !length->shape.empty() || length->hasRuntimeLength())
      return programError(name, "output '" + output.name +
                                    "' has no i64 scalar length output");
  }
  return Status::ok();
}

StatusOr<Program> decodeProgram(const uint8_t *bytes, size_t size,
                                const std::string &name) {
  ByteReader r(bytes, size);
  Program program;
  KILN_RETURN_IF_ERROR(decodeTensors(r, name, "input", program.inputs));
  KILN_RETURN_IF_ERROR(decodeTensors(r, name, "output", program.outputs));
  KILN_RETURN_IF_ERROR(checkRuntimeLengths(name, program));
  uint32_t devices = r.u32();
  if (!r.ok() || devices == 0 || devices > kMaxDevices)
    return programError(name, "bad device count");
  for (uint32_t i = 0; i < devices; ++i) {
    DeviceProgram device;
    uint32_t kind = r.u32();
    uint64_t arenaBytes = r.u64();
    uint32_t steps = r.u32();
    if (!r.ok() || (kind != uint32_t(DeviceProgram::Kind::kCpu) &&
                    kind != uint32_t(DeviceProgram::Kind::kCuda)))
      return programError(name, "unknown device kind in device #" +
                                    std::to_string(i));
    if (steps > kMaxSteps)
      return programError(name, "bad step count");
    // Working memory beyond what any machine has is corruption.
    if (arenaBytes > (uint64_t(1) << 40))
      return programError(name, "implausible arena size");
    device.kind = DeviceProgram::Kind(kind);
    device.arenaBytes = arenaBytes;
    for (uint32_t s = 0; s < steps; ++s) {
      Step step;
      std::string where =
          "step #" + std::to_string(s) + " of device #" + std::to_string(i);
      KILN_RETURN_IF_ERROR(
          decodeStep(r, program, device, s, step, name, where));
      device.steps.push_back(std::move(step));
    }
    program.devices.push_back(std::move(device));
  }
  if (!r.ok() || r.remaining() != 0)
    return programError(name, "trailing bytes");
  return program;
}

//===----------------------------------------------------------------------===//
// Memory plan encoding
//===----------------------------------------------------------------------===//

std::vector<uint8_t> encodeMemoryPlans(const std::vector<MemoryPlan> &plans) {
  ByteWriter w;
  w.u32(uint32_t(plans.size()));
  for (const MemoryPlan &plan : plans) {
    w.u32(plan.device);
    w.u64(plan.peakBytes);
    w.u64(plan.lowerBoundBytes);
    w.u64(plan.unplannedKernelBuffersBytes);
    w.u32(plan.steps);
    w.u32(plan.kernels);
    w.u32(uint32_t(plan.buffers.size()));
    for (const PlannedBuffer &b : plan.buffers) {
      w.u64(b.offset);
      w.u64(b.size);
      w.u32(b.firstStep);
      w.u32(b.lastStep);
      w.u32(b.inPlaceOf);
      w.string(b.producer);
      w.string(b.location);
    }
  }
  return std::move(w.bytes());
}

Status planError(const std::string &name, const std::string &what) {
  return dataLoss(name + ": corrupt memory plan section: " + what);
}

/// Decodes the plans and checks them against `program`: each names an
/// existing device once and keeps every buffer inside that device's arena.
StatusOr<std::vector<MemoryPlan>> decodeMemoryPlans(const uint8_t *bytes,
                                                    size_t size,
                                                    const Program &program,
                                                    const std::string &name) {
  ByteReader r(bytes, size);
  std::vector<MemoryPlan> plans;
  uint32_t count = r.u32();
  if (!r.ok() || count > program.devices.size())
    return planError(name, "bad plan count");
  std::vector<bool> planned(program.devices.size(), false);
  for (uint32_t p = 0; p < count; ++p) {
    MemoryPlan plan;
    plan.device = r.u32();
    plan.peakBytes = r.u64();
    plan.lowerBoundBytes = r.u64();
    plan.unplannedKernelBuffersBytes = r.u64();
    plan.steps = r.u32();
    plan.kernels = r.u32();
    uint32_t buffers = r.u32();
    if (!r.ok() || plan.device >= program.devices.size() ||
        planned[plan.device])
      return planError(name, "bad device of plan #" + std::to_string(p));
    planned[plan.device] = true;
    uint64_t arena = program.devices[plan.device].arenaBytes;
    if (plan.peakBytes > arena ||
        plan.lowerBoundBytes > plan.unplannedKernelBuffersBytes ||
        plan.kernels > plan.steps || buffers > kMaxPlannedBuffers)
      return planError(name,
                       "inconsistent figures in plan #" + std::to_string(p));
    for (uint32_t i = 0; i < buffers; ++i) {
      PlannedBuffer b;
      b.offset = r.u64();
      b.size = r.u64();
      b.firstStep = r.u32();
      b.lastStep = r.u32();
      b.inPlaceOf = r.u32();
      b.producer = r.string(kMaxName);
      b.location = r.string(kMaxName);
      if (!r.ok() || b.offset > arena || b.size > arena - b.offset ||
          b.firstStep > b.lastStep || b.lastStep >= plan.steps ||
          (b.inPlaceOf != PlannedBuffer::kNotInPlace &&
           (b.inPlaceOf >= buffers || b.inPlaceOf == i)))
        return planError(name, "bad buffer #" + std::to_string(i) +
                                   " in plan #" + std::to_string(p));
      plan.buffers.push_back(std::move(b));
    }
    plans.push_back(std::move(plan));
  }
  if (!r.ok() || r.remaining() != 0)
    return planError(name, "trailing bytes");
  return plans;
}

//===----------------------------------------------------------------------===//
// CUDA modules encoding
//===----------------------------------------------------------------------===//

std::vector<uint8_t> encodeCudaModules(const std::vector<CudaModule> &modules) {
  ByteWriter w;
  w.u32(uint32_t(modules.size()));
  for (const CudaModule &module : modules) {
    w.u32(uint32_t(module.format));
    w.u32(module.arch);
    w.u32(uint32_t(module.kernels.size()));
    for (const std::string &kernel : module.kernels)
      w.string(kernel);
    w.u64(module.image.size());
    w.raw(module.image.data(), module.image.size());
  }
  return std::move(w.bytes());
}

Status cudaError(const std::string &name, const std::string &what) {
  return dataLoss(name + ": corrupt CUDA kernels section: " + what);
}

StatusOr<std::vector<CudaModule>>
decodeCudaModules(const uint8_t *bytes, size_t size, const std::string &name) {
  ByteReader r(bytes, size);
  std::vector<CudaModule> modules;
  uint32_t count = r.u32();
  if (!r.ok() || count > kMaxCudaModules)
    return cudaError(name, "bad module count");
  for (uint32_t m = 0; m < count; ++m) {
    std::string which = "module #" + std::to_string(m);
    CudaModule module;
    uint32_t format = r.u32();
    module.arch = r.u32();
    uint32_t kernels = r.u32();
    if (!r.ok() || (format != uint32_t(CudaModule::Format::kPtx) &&
                    format != uint32_t(CudaModule::Format::kCubin)))
      return cudaError(name, "unknown format of " + which);
    // sm_10 .. sm_999: anything else is not an architecture.
    if (module.arch < 10 || module.arch > 999)
      return cudaError(name, "bad architecture " + std::to_string(module.arch) +
                                 " of " + which);
    if (kernels == 0 || kernels > kMaxKernelsPerModule)
      return cudaError(name, "bad kernel count of " + which);
    module.format = CudaModule::Format(format);
    for (uint32_t k = 0; k < kernels; ++k) {
      std::string kernel = r.string(kMaxName);
      if (!r.ok() || kernel.empty())
        return cudaError(name, "bad kernel name #" + std::to_string(k) +
                                   " in " + which);
      module.kernels.push_back(std::move(kernel));
    }
    uint64_t imageSize = r.u64();
    if (!r.ok() || imageSize == 0 || imageSize > r.remaining())
      return cudaError(name, "bad image size of " + which);
    module.image.resize(size_t(imageSize));
    r.raw(module.image.data(), module.image.size());
    // The driver reads PTX up to its NUL and CUBIN as ELF; check both here
    // so that a damaged image is a clear error, not a driver crash.
    if (module.format == CudaModule::Format::kPtx && module.image.back() != 0)
      return cudaError(name, "PTX of " + which + " is not NUL-terminated");
    if (module.format == CudaModule::Format::kCubin &&
        (imageSize < 4 || std::memcmp(module.image.data(),
                                      "\x7f"
                                      "ELF",
                                      4) != 0))
      return cudaError(name, "CUBIN of " + which + " is not an ELF image");
    modules.push_back(std::move(module));
  }
  if (!r.ok() || r.remaining() != 0)
    return cudaError(name, "trailing bytes");
  return modules;
}

/// Cross-section checks of CUDA devices: every launched kernel has a PTX
/// module (the portable fallback) and constant arguments lie inside the
/// constants.
Status checkCudaPrograms(const Artifact &artifact, const std::string &name) {
  std::set<std::string> portable;
  for (const CudaModule &module : artifact.cudaModules)
    if (module.format == CudaModule::Format::kPtx)
      portable.insert(module.kernels.begin(), module.kernels.end());
  for (size_t i = 0; i < artifact.program.devices.size(); ++i) {
    const DeviceProgram &device = artifact.program.devices[i];
    if (device.kind != DeviceProgram::Kind::kCuda)
      continue;
    for (size_t s = 0; s < device.steps.size(); ++s) {
      const Step &step = device.steps[s];
      std::string where =
          "step #" + std::to_string(s) + " of device #" + std::to_string(i);
      if (step.kind == Step::Kind::kLaunchKernel &&
          !portable.count(step.kernel))
        return dataLoss(name + ": kernel '" + step.kernel + "' of " + where +
                        " is in no PTX module");
      for (const KernelArg &arg : step.args)
        if (arg.base == KernelArg::Base::kConstants &&
            (arg.offset > artifact.constants.size() ||
             arg.bytes > artifact.constants.size() - arg.offset))
          return dataLoss(name + ": an argument of " + where +
                          " lies outside the constants section");
    }
  }
  return Status::ok();
}

/// Kind 7: the plans' unplanned baselines, for the plans that have one.
std::vector<uint8_t> encodePlanBaselines(const std::vector<MemoryPlan> &plans) {
  ByteWriter w;
  uint32_t count = 0;
  for (const MemoryPlan &plan : plans)
    count += plan.unplannedBytes.has_value();
  w.u32(count);
  for (const MemoryPlan &plan : plans)
    if (plan.unplannedBytes) {
      w.u32(plan.device);
      w.u64(*plan.unplannedBytes);
    }
  return std::move(w.bytes());
}

/// Attaches the baselines to the decoded `plans`: each names a planned
/// device, at most once.
Status decodePlanBaselines(const uint8_t *bytes, size_t size,
                           std::vector<MemoryPlan> &plans,
                           const std::string &name) {
  ByteReader r(bytes, size);
  uint32_t count = r.u32();
  if (!r.ok() || count > plans.size())
    return dataLoss(name + ": corrupt memory plan baseline section: bad count");
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t device = r.u32();
    uint64_t unplanned = r.u64();
    auto plan =
        std::find_if(plans.begin(), plans.end(),
                     [&](const MemoryPlan &p) { return p.device == device; });
    if (!r.ok() || plan == plans.end() || plan->unplannedBytes)
      return dataLoss(name +
                      ": corrupt memory plan baseline section: bad "
                      "entry #" +
                      std::to_string(i));
    plan->unplannedBytes = unplanned;
  }
  if (r.remaining() != 0)
    return dataLoss(name +
                    ": corrupt memory plan baseline section: trailing bytes");
  return Status::ok();
}

/// Kind 8: GEMM calls, each validated against the program.
std::vector<uint8_t> encodeGemmCalls(const std::vector<GemmCall> &calls) {
  ByteWriter w;
  w.u32(uint32_t(calls.size()));
  auto matrix = [&](const GemmCall::Matrix &m) {
    w.u32(m.arg);
    w.i64(m.offset);
    w.i64(m.rowStride);
    w.i64(m.colStride);
    w.i64(m.batchStride);
  };
  for (const GemmCall &call : calls) {
    w.u32(call.device);
    w.u32(call.step);
    w.u32(uint32_t(call.element));
    for (int64_t extent : {call.batch, call.m, call.n, call.k})
      w.i64(extent);
    matrix(call.a);
    matrix(call.b);
    matrix(call.d);
    w.u32(call.accumulate);
    w.u32(call.bias.has_value());
    if (call.bias)
      matrix(*call.bias);
    w.u32(uint32_t(call.activation));
  }
  return std::move(w.bytes());
}

StatusOr<std::vector<GemmCall>> decodeGemmCalls(const uint8_t *bytes,
                                                size_t size,
                                                const Program &program,
                                                const std::string &name) {
  auto corrupt = [&](const std::string &what) {
    return dataLoss(name + ": corrupt GEMM call section: " + what);
  };
  ByteReader r(bytes, size);
  uint32_t count = r.u32();
  // Each call takes at least 150 bytes: a count beyond that is damage.
  if (!r.ok() || count > size / 150)
    return corrupt("bad count");
  auto matrix = [&](GemmCall::Matrix &m) {
    m.arg = r.u32();
    m.offset = r.i64();
    m.rowStride = r.i64();
    m.colStride = r.i64();
    m.batchStride = r.i64();
  };
  std::vector<GemmCall> calls;
  std::set<std::pair<uint32_t, uint32_t>> steps;
  for (uint32_t i = 0; i < count; ++i) {
    GemmCall call;
    call.device = r.u32();
    call.step = r.u32();
    call.element = DType(r.u32());
    call.batch = r.i64();
    call.m = r.i64();
    call.n = r.i64();
    call.k = r.i64();
    matrix(call.a);
    matrix(call.b);
    matrix(call.d);
    uint32_t accumulate = r.u32(), hasBias = r.u32();
    if (accumulate > 1 || hasBias > 1)
      return corrupt("bad flags of call #" + std::to_string(i));
    call.accumulate = accumulate;
    if (hasBias)
      matrix(call.bias.emplace());
    call.activation = GemmCall::Activation(r.u32());
    if (!r.ok())
      return corrupt("truncated call #" + std::to_string(i));
    if (std::optional<std::string> why = checkGemmCall(call, program))
      return corrupt("call #" + std::to_string(i) + ": " + *why);
    if (!steps.insert({call.device, call.step}).second)
      return corrupt("two calls for step #" + std::to_string(call.step));
    calls.push_back(std::move(call));
  }
  if (r.remaining() != 0)
    return corrupt("trailing bytes");
  return calls;
}

struct SectionEntry {
  uint32_t kind;
  uint32_t flags;
  uint64_t offset;
  uint64_t size;
  uint32_t crc;
};

/// Kinds this reader knows (see SectionKind).
constexpr uint32_t kLastKnownKind = uint32_t(SectionKind::kBatchVariants);
bool isKnownKind(uint32_t kind) {
  switch (SectionKind(kind)) {
  case SectionKind::kTarget:
  case SectionKind::kProgram:
  case SectionKind::kCpuKernels:
  case SectionKind::kMemoryPlan:
  case SectionKind::kMemoryPlanBaseline:
  case SectionKind::kGemmCalls:
  case SectionKind::kPrecisionReport:
  case SectionKind::kBatchVariants:
  case SectionKind::kCudaKernels:
  case SectionKind::kConstants:
    return true;
  default:
    return false;
  }
}

} // namespace

uint32_t crc32(const uint8_t *bytes, size_t size) {
  static const CrcTables t = makeCrcTables();
  uint32_t c = 0xFFFFFFFFu;
  size_t i = 0;
  for (; i + 8 <= size; i += 8) {
    // Little-endian loads, spelled out so any host computes the same.
    uint32_t low =
        c ^ (uint32_t(bytes[i]) | uint32_t(bytes[i + 1]) << 8 |
             uint32_t(bytes[i + 2]) << 16 | uint32_t(bytes[i + 3]) << 24);
    uint32_t high = uint32_t(bytes[i + 4]) | uint32_t(bytes[i + 5]) << 8 |
                    uint32_t(bytes[i + 6]) << 16 | uint32_t(bytes[i + 7]) << 24;
    c = t[7][low & 0xFF] ^ t[6][(low >> 8) & 0xFF] ^ t[5][(low >> 16) & 0xFF] ^
        t[4][low >> 24] ^ t[3][high & 0xFF] ^ t[2][(high >> 8) & 0xFF] ^
        t[1][(high >> 16) & 0xFF] ^ t[0][high >> 24];
  }
  for (; i < size; ++i)
    c = t[0][(c ^ bytes[i]) & 0xFF] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

namespace {

/// One section's bytes: encoded here (`owned`), or the artifact's own
/// (kernels and constants, often most of the file, are not copied).
struct Section {
  SectionKind kind;
  std::vector<uint8_t> owned;
  const uint8_t *data = nullptr;
  size_t size = 0;

  Section(SectionKind kind, std::vector<uint8_t> bytes)
      : kind(kind), owned(std::move(bytes)), data(owned.data()),
        size(owned.size()) {}
  Section(SectionKind kind, const std::vector<uint8_t> &bytes, bool /*view*/)
      : kind(kind), data(bytes.data()), size(bytes.size()) {}
};

std::vector<Section> sectionsOf(const Artifact &artifact) {
  std::vector<Section> sections;
  sections.emplace_back(
      SectionKind::kTarget,
      std::vector<uint8_t>(artifact.target.begin(), artifact.target.end()));
  sections.emplace_back(SectionKind::kProgram, encodeProgram(artifact.program));
  if (!artifact.cpuKernels.empty())
    sections.emplace_back(SectionKind::kCpuKernels, artifact.cpuKernels,
                          /*view=*/true);
  if (!artifact.cudaModules.empty())
    sections.emplace_back(SectionKind::kCudaKernels,
                          encodeCudaModules(artifact.cudaModules));
  if (!artifact.constants.empty())
    sections.emplace_back(SectionKind::kConstants, artifact.constants,
                          /*view=*/true);
  if (!artifact.memoryPlans.empty())
    sections.emplace_back(SectionKind::kMemoryPlan,
                          encodeMemoryPlans(artifact.memoryPlans));
  if (std::any_of(
          artifact.memoryPlans.begin(), artifact.memoryPlans.end(),
          [](const MemoryPlan &p) { return p.unplannedBytes.has_value(); }))
    sections.emplace_back(SectionKind::kMemoryPlanBaseline,
                          encodePlanBaselines(artifact.memoryPlans));
  if (!artifact.gemmCalls.empty())
    sections.emplace_back(SectionKind::kGemmCalls,
                          encodeGemmCalls(artifact.gemmCalls));
  if (artifact.precisionReport)
    sections.emplace_back(SectionKind::kPrecisionReport,
                          encodePrecisionReport(*artifact.precisionReport));
  if (!artifact.batchVariants.empty())
    sections.emplace_back(SectionKind::kBatchVariants,
                          encodeBatchVariants(artifact.batchVariants));
  return sections;
}

size_t alignSection(size_t offset) {
  return (offset + kSectionAlignment - 1) / kSectionAlignment *
         kSectionAlignment;
}

/// The header and the section table, padded to where the first section
/// starts; `fileSize` is the whole file's.
std::vector<uint8_t> headerOf(const std::vector<Section> &sections,
                              size_t &fileSize) {
  // The plan is optional: readers that do not know it may skip it.
  auto flagsOf = [](SectionKind kind) {
    return kind == SectionKind::kMemoryPlan ||
                   kind == SectionKind::kMemoryPlanBaseline ||
                   kind == SectionKind::kGemmCalls ||
                   kind == SectionKind::kPrecisionReport ||
                   kind == SectionKind::kBatchVariants
               ? kSectionOptional
               : 0u;
  };
  size_t tableEnd = kHeaderSize + sections.size() * kSectionEntrySize;
  std::vector<SectionEntry> entries;
  size_t offset = alignSection(tableEnd);
  for (const Section &section : sections) {
    entries.push_back({uint32_t(section.kind), flagsOf(section.kind), offset,
                       section.size, crc32(section.data, section.size)});
    offset = alignSection(offset + section.size);
  }
  fileSize = offset;

  ByteWriter w;
  w.raw(kArtifactMagic, sizeof(kArtifactMagic));
  w.u32(kArtifactFormatVersion);
  w.u32(kHeaderSize);
  w.u32(uint32_t(sections.size()));
  w.u32(0); // flags
  w.u64(fileSize);
  w.u32(0); // header CRC, patched below
  ByteWriter table;
  for (const SectionEntry &e : entries) {
    table.u32(e.kind);
    table.u32(e.flags);
    table.u64(e.offset);
    table.u64(e.size);
    table.u32(e.crc);
    table.u32(0);
  }
  w.u32(crc32(table.bytes().data(), table.bytes().size()));
  w.padTo(kHeaderSize);
  uint32_t headerCrc = crc32(w.bytes().data(), kHeaderSize);
  for (int i = 0; i < 4; ++i)
    w.bytes()[kHeaderCrcOffset + i] = uint8_t(headerCrc >> (8 * i));
  w.raw(table.bytes().data(), table.bytes().size());
  w.padTo(kSectionAlignment);
  return std::move(w.bytes());
}

} // namespace

std::vector<uint8_t> encodeArtifact(const Artifact &artifact) {
  std::vector<Section> sections = sectionsOf(artifact);
  size_t fileSize = 0;
  std::vector<uint8_t> bytes = headerOf(sections, fileSize);
  bytes.reserve(fileSize);
  for (const Section &section : sections) {
    bytes.insert(bytes.end(), section.data, section.data + section.size);
    bytes.resize(alignSection(bytes.size()), 0);
  }
  return bytes;
}

namespace {
StatusOr<Artifact> decode(const uint8_t *bytes, size_t size,
                          const std::string &name, bool variantsAllowed) {
  if (size < kHeaderSize)
    return dataLoss(name + ": truncated artifact (" + std::to_string(size) +
                    " bytes, the header alone is 64)");
  if (std::memcmp(bytes, kArtifactMagic, sizeof(kArtifactMagic)) != 0)
    return invalidArgument(name + ": not a .kiln artifact (bad magic)");
  ByteReader header(bytes + 8, kHeaderSize - 8);
  uint32_t version = header.u32();
  uint32_t headerSize = header.u32();
  uint32_t sectionCount = header.u32();
  uint32_t flags = header.u32();
  uint64_t fileSize = header.u64();
  uint32_t headerCrc = header.u32();
  uint32_t tableCrc = header.u32();
  if (version != kArtifactFormatVersion)
    return unimplemented(
        name + ": artifact format version " + std::to_string(version) +
        "; this runtime reads " + std::to_string(kArtifactFormatVersion) +
        (version < kArtifactFormatVersion
             ? " (it was written by an older kilnc: rebuild it with kilnc "
               "compile)"
             : " (recompile the model)"));
  if (headerSize != kHeaderSize || flags != 0)
    return dataLoss(name + ": corrupt artifact header");
  if (fileSize != size)
    return dataLoss(name + ": artifact is " + std::to_string(size) +
                    " bytes, its header says " + std::to_string(fileSize) +
                    (size < fileSize ? " (truncated)" : ""));
  std::array<uint8_t, kHeaderSize> headerCopy;
  std::memcpy(headerCopy.data(), bytes, kHeaderSize);
  std::memset(headerCopy.data() + kHeaderCrcOffset, 0, 4);
  if (crc32(headerCopy.data(), kHeaderSize) != headerCrc)
    return dataLoss(name + ": artifact header checksum mismatch");
  if (sectionCount == 0 || sectionCount > kMaxSections ||
      kHeaderSize + size_t(sectionCount) * kSectionEntrySize > size)
    return dataLoss(name + ": corrupt section table");
  const uint8_t *tableBytes = bytes + kHeaderSize;
  size_t tableSize = size_t(sectionCount) * kSectionEntrySize;
  if (crc32(tableBytes, tableSize) != tableCrc)
    return dataLoss(name + ": section table checksum mismatch");

  ByteReader table(tableBytes, tableSize);
  std::vector<SectionEntry> entries;
  for (uint32_t i = 0; i < sectionCount; ++i) {
    SectionEntry e;
    e.kind = table.u32();
    e.flags = table.u32();
    e.offset = table.u64();
    e.size = table.u64();
    e.crc = table.u32();
    table.u32();
    size_t tableEnd = kHeaderSize + tableSize;
    if (e.flags & ~kSectionOptional)
      return dataLoss(name + ": section #" + std::to_string(i) +
                      " has unknown flags");
    if (e.offset < tableEnd || e.offset % kSectionAlignment != 0 ||
        e.offset > size || e.size > size - e.offset)
      return dataLoss(name + ": section #" + std::to_string(i) +
                      " lies outside the file");
    entries.push_back(e);
  }
  std::vector<SectionEntry> sorted = entries;
  std::sort(sorted.begin(), sorted.end(),
            [](const SectionEntry &a, const SectionEntry &b) {
              return a.offset < b.offset;
            });
  for (size_t i = 1; i < sorted.size(); ++i)
    if (sorted[i - 1].offset + sorted[i - 1].size > sorted[i].offset)
      return dataLoss(name + ": sections overlap");

  Artifact artifact;
  const SectionEntry *program = nullptr, *memoryPlan = nullptr,
                     *cudaKernels = nullptr, *baseline = nullptr,
                     *gemmCalls = nullptr, *variants = nullptr;
  bool seen[kLastKnownKind + 1] = {};
  for (const SectionEntry &e : entries) {
    const uint8_t *data = bytes + e.offset;
    if (crc32(data, e.size) != e.crc)
      return dataLoss(name + ": checksum mismatch in section of kind " +
                      std::to_string(e.kind));
    if (!isKnownKind(e.kind) && (e.flags & kSectionOptional))
      continue; // From a newer writer, and safe to ignore.
    if (!isKnownKind(e.kind))
      return unimplemented(name + ": unknown section kind " +
                           std::to_string(e.kind) +
                           " (written by a newer Kiln?)");
    if (seen[e.kind])
      return dataLoss(name + ": duplicate section of kind " +
                      std::to_string(e.kind));
    seen[e.kind] = true;
    switch (SectionKind(e.kind)) {
    case SectionKind::kTarget:
      artifact.target.assign(reinterpret_cast<const char *>(data), e.size);
      break;
    case SectionKind::kProgram:
      program = &e;
      break;
    case SectionKind::kCpuKernels:
      artifact.cpuKernels.assign(data, data + e.size);
      break;
    case SectionKind::kMemoryPlan:
      memoryPlan = &e;
      break;
    case SectionKind::kCudaKernels:
      cudaKernels = &e;
      break;
    case SectionKind::kConstants:
      artifact.constants.assign(data, data + e.size);
      break;
    case SectionKind::kMemoryPlanBaseline:
      baseline = &e;
      break;
    case SectionKind::kGemmCalls:
      gemmCalls = &e;
      break;
    case SectionKind::kPrecisionReport: {
      StatusOr<PrecisionReport> report =
          decodePrecisionReport(data, e.size, name);
      if (!report.isOk())
        return report.status();
      artifact.precisionReport = std::move(*report);
      break;
    }
    case SectionKind::kBatchVariants:
      if (!variantsAllowed)
        return dataLoss(name + ": a batch variant holds batch variants");
      variants = &e;
      break;
    default: // Not known: refused above.
      break;
    }
  }
  if (!program || !seen[uint32_t(SectionKind::kTarget)])
    return dataLoss(name + ": missing target or program section");
  StatusOr<Program> decoded =
      decodeProgram(bytes + program->offset, program->size, name);
  if (!decoded.isOk())
    return decoded.status();
  artifact.program = std::move(*decoded);
  if (memoryPlan) {
    StatusOr<std::vector<MemoryPlan>> plans = decodeMemoryPlans(
        bytes + memoryPlan->offset, memoryPlan->size, artifact.program, name);
    if (!plans.isOk())
      return plans.status();
    artifact.memoryPlans = std::move(*plans);
  }
  if (cudaKernels) {
    StatusOr<std::vector<CudaModule>> modules =
        decodeCudaModules(bytes + cudaKernels->offset, cudaKernels->size, name);
    if (!modules.isOk())
      return modules.status();
    artifact.cudaModules = std::move(*modules);
  }
  if (baseline)
    if (Status status =
            decodePlanBaselines(bytes + baseline->offset, baseline->size,
                                artifact.memoryPlans, name);
        !status.isOk())
      return status;
  if (gemmCalls) {
    StatusOr<std::vector<GemmCall>> calls = decodeGemmCalls(
        bytes + gemmCalls->offset, gemmCalls->size, artifact.program, name);
    if (!calls.isOk())
      return calls.status();
    artifact.gemmCalls = std::move(*calls);
  }
  for (const DeviceProgram &device : artifact.program.devices)
    if (device.kind == DeviceProgram::Kind::kCpu && artifact.cpuKernels.empty())
      return dataLoss(name + ": a CPU program without a kernels section");
  KILN_RETURN_IF_ERROR(checkCudaPrograms(artifact, name));
  if (variants) {
    StatusOr<std::vector<BatchVariant>> decodedVariants =
        decodeBatchVariants(bytes + variants->offset, variants->size,
                            artifact.program, artifact.target, name);
    if (!decodedVariants.isOk())
      return decodedVariants.status();
    artifact.batchVariants = std::move(*decodedVariants);
  }
  return artifact;
}
} // namespace

StatusOr<Artifact> decodeArtifact(const uint8_t *bytes, size_t size,
                                  const std::string &name) {
  return decode(bytes, size, name, /*variantsAllowed=*/true);
}

StatusOr<Artifact> decodeNestedArtifact(const uint8_t *bytes, size_t size,
                                        const std::string &name) {
  return decode(bytes, size, name, /*variantsAllowed=*/false);
}

const Artifact *artifactForBatch(const Artifact &artifact, int64_t batch) {
  StatusOr<int64_t> rows = programBatch(artifact.program);
  if (rows.isOk() && *rows == batch)
    return &artifact;
  for (const BatchVariant &variant : artifact.batchVariants)
    if (variant.batch == batch)
      return variant.artifact.get();
  return nullptr;
}

StatusOr<Artifact> readArtifactFile(const std::string &path) {
  StatusOr<std::vector<uint8_t>> contents = readFileBytes(path);
  if (!contents.isOk())
    return contents.status();
  return decodeArtifact(contents->data(), contents->size(), path);
}

Status writeArtifactFile(const std::string &path, const Artifact &artifact) {
  // Section by section from where the artifact holds them: a model's
  // weights are not copied into one buffer first.
  std::vector<Section> sections = sectionsOf(artifact);
  size_t fileSize = 0;
  std::vector<uint8_t> header = headerOf(sections, fileSize);
  std::vector<FileChunk> chunks = {{header.data(), header.size()}};
  static const uint8_t padding[kSectionAlignment] = {};
  for (const Section &section : sections) {
    chunks.push_back({section.data, section.size});
    chunks.push_back({padding, alignSection(section.size) - section.size});
  }
  return writeFileChunks(path, chunks);
}

} // namespace kiln::rt
