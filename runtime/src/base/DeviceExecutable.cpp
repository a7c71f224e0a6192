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

StatusOr<std::unique_ptr<DeviceExecutable>>
loadExecutable(Artifact artifact, const std::string &name) {
  if (artifact.program.devices.size() == 1 &&
      artifact.program.devices[0].kind == DeviceProgram::Kind::kCuda) {
    auto cuda = CudaExecutable::load(std::move(artifact), name);
    if (!cuda.isOk())
      return cuda.status();
    return std::unique_ptr<DeviceExecutable>(std::move(*cuda));
  }
  auto cpu = CpuExecutable::load(std::move(artifact), name);
  if (!cpu.isOk())
    return cpu.status();
  return std::unique_ptr<DeviceExecutable>(std::move(*cpu));
}

} // namespace kiln::rt
