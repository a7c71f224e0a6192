//===- ArtifactListing.cpp - What kilnc inspect prints of an artifact -----===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "ArtifactListing.h"

#include "compiler/MemoryPlanning/PlanReport.h"
#include "kiln/runtime/CommunicatorCollectives.h"
#include "kiln/runtime/CudaModuleChoice.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

namespace kiln::tools {

namespace {

/// "2x1x1".
std::string formatDims(const uint32_t (&dims)[3]) {
  return std::to_string(dims[0]) + "x" + std::to_string(dims[1]) + "x" +
         std::to_string(dims[2]);
}

/// "input0+0:16 constants+256:16 arena+512:16" (base, offset, bytes).
std::string formatArgs(const std::vector<rt::KernelArg> &args) {
  std::string out;
  for (const rt::KernelArg &arg : args) {
    static const char *const bases[] = {"?", "input", "output", "arena",
                                        "constants"};
    uint32_t base = uint32_t(arg.base);
    out += out.empty() ? "" : " ";
    out += bases[base < 5 ? base : 0];
    if (arg.base == rt::KernelArg::Base::kInput ||
        arg.base == rt::KernelArg::Base::kOutput)
      out += std::to_string(arg.index);
    out += "+" + std::to_string(arg.offset) + ":" + std::to_string(arg.bytes);
  }
  return out.empty() ? "none" : out;
}

} // namespace

void printTensors(llvm::raw_ostream &os, const char *what,
                  const std::vector<rt::TensorSpec> &specs) {
  for (const rt::TensorSpec &spec : specs) {
    os << "  " << what << " '" << spec.name
       << "': " << rt::dtypeName(spec.dtype) << "[";
    for (auto [axis, dim] : llvm::enumerate(spec.shape))
      os << (axis ? ", " : "") << (int64_t(axis) == spec.lengthAxis ? "<=" : "")
         << dim;
    os << "]";
    if (spec.hasRuntimeLength())
      os << " (length in output #" << spec.lengthOutput << ")";
    os << "\n";
  }
}

void printArtifact(llvm::raw_ostream &os, const rt::Artifact &artifact) {
  os << "  target: " << artifact.target << "\n";
  printTensors(os, "input", artifact.program.inputs);
  printTensors(os, "output", artifact.program.outputs);
  for (auto [index, device] : llvm::enumerate(artifact.program.devices)) {
    bool cuda = device.kind == rt::DeviceProgram::Kind::kCuda;
    os << "  device " << index << (cuda ? " (cuda): " : " (cpu): ")
       << device.steps.size() << " step(s), arena " << device.arenaBytes
       << " bytes\n";
    for (auto [number, step] : llvm::enumerate(device.steps)) {
      os << "    #" << number << " ";
      switch (step.kind) {
      case rt::Step::Kind::kLaunchKernel:
        os << "launch " << step.kernel << " grid " << formatDims(step.grid)
           << " block " << formatDims(step.block) << " shared "
           << step.sharedBytes;
        break;
      case rt::Step::Kind::kDispatch:
        os << "dispatch " << step.kernel << " workgroups " << step.workgroups();
        break;
      case rt::Step::Kind::kCopy:
        os << "copy";
        break;
      case rt::Step::Kind::kFill:
        os << "fill";
        break;
      case rt::Step::Kind::kCollective:
        os << "collective " << rt::collectiveKindName(step.collective);
        if (step.reduction)
          os << " " << rt::reduceOpName(rt::ReduceOp(step.reduction));
        os << " ranks " << step.ranks << " " << rt::dtypeName(step.element);
        break;
      case rt::Step::Kind::kBarrier:
        os << "barrier";
        break;
      }
      if (!step.args.empty())
        os << " args " << formatArgs(step.args);
      if (!step.after.empty()) {
        os << " after";
        for (uint32_t dependency : step.after)
          os << " #" << dependency;
      }
      os << "\n";
    }
  }
  if (!artifact.cpuKernels.empty() || artifact.cudaModules.empty())
    os << "  kernels: " << artifact.cpuKernels.size()
       << " bytes (ELF shared object)\n";
  for (const rt::CudaModule &module : artifact.cudaModules)
    os << "  cuda module: " << rt::describeCudaModule(module) << ", "
       << module.image.size() << " bytes, kernels "
       << llvm::join(module.kernels, ", ") << "\n";
  for (const rt::GemmCall &call : artifact.gemmCalls)
    os << "  gemm call: " << call.describe() << "\n";
  if (!artifact.constants.empty())
    os << "  constants: " << artifact.constants.size() << " bytes\n";
  for (const rt::MemoryPlan &plan : artifact.memoryPlans) {
    // Indented under the artifact, like the lines above.
    std::string summary = plan::formatPlanSummary(plan);
    llvm::SmallVector<llvm::StringRef> lines;
    llvm::StringRef(summary).rtrim().split(lines, '\n');
    os << "  device " << plan.device << " ";
    for (llvm::StringRef line : lines)
      os << (line.data() == summary.data() ? "" : "  ") << line << "\n";
  }
  for (const rt::BatchVariant &variant : artifact.batchVariants) {
    const rt::Program &program = variant.artifact->program;
    uint64_t arena = 0;
    for (const rt::DeviceProgram &device : program.devices)
      arena += device.arenaBytes;
    os << "  batch variant " << variant.batch << ": " << program.inputs.size()
       << " inputs, " << program.outputs.size() << " outputs, "
       << variant.artifact->cpuKernels.size() << " bytes of kernels, " << arena
       << " bytes of arena\n";
  }
}

} // namespace kiln::tools
