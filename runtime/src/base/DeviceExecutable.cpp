//===- DeviceExecutable.cpp - A loaded artifact, whatever its device ------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/DeviceExecutable.h"
#include "kiln/runtime/CpuExecutable.h"
#include "kiln/runtime/CudaExecutable.h"

namespace kiln::rt {

DeviceExecutable::~DeviceExecutable() = default;

Status DeviceExecutable::run(const std::vector<TensorRef> &inputs,
                             const std::vector<TensorRef> &outputs,
                             const RunOptions &options) {
  if (options.hooks || options.collectives)
    return unimplemented(description() +
                         ": this device runs no step or collectives hooks");
  return run(inputs, outputs);
}

Status DeviceExecutable::run(const std::vector<HostTensor> &inputs,
                             std::vector<HostTensor> &outputs,
                             const RunOptions &options) {
  if (options.hooks || options.collectives)
    return unimplemented(description() +
                         ": this device runs no step or collectives hooks");
  return run(inputs, outputs);
}

std::optional<GemmPath> parseGemmPath(const std::string &name) {
  if (name == "generated")
    return GemmPath::kGenerated;
  if (name == "cublaslt")
    return GemmPath::kCublasLt;
  if (name == "auto")
    return GemmPath::kAuto;
  return std::nullopt;
}

StatusOr<std::unique_ptr<DeviceExecutable>>
loadExecutable(Artifact artifact, const std::string &name,
               const ExecutableOptions &options) {
  if (artifact.program.devices.size() == 1 &&
      artifact.program.devices[0].kind == DeviceProgram::Kind::kCuda) {
    CudaLoadOptions cudaOptions;
    cudaOptions.device = options.device;
    cudaOptions.gemm = options.gemm;
    cudaOptions.gemmTimingCache = options.gemmTimingCache;
    auto cuda = CudaExecutable::load(std::move(artifact), name, cudaOptions);
    if (!cuda.isOk())
      return cuda.status();
    return std::unique_ptr<DeviceExecutable>(std::move(*cuda));
  }
  auto cpu = CpuExecutable::load(std::move(artifact), name, options);
  if (!cpu.isOk())
    return cpu.status();
  return std::unique_ptr<DeviceExecutable>(std::move(*cpu));
}

} // namespace kiln::rt
