//===- CpuExecutable.h - Run a .kiln artifact on the CPU --------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_CPUEXECUTABLE_H
#define KILN_RUNTIME_CPUEXECUTABLE_H

#include "kiln/runtime/Arena.h"
#include "kiln/runtime/Artifact.h"
#include "kiln/runtime/Bindings.h"
#include "kiln/runtime/CpuCallingConvention.h"
#include "kiln/runtime/DeviceExecutable.h"
#include "kiln/runtime/HostTensor.h"
#include "kiln/runtime/Status.h"

#include <memory>

namespace kiln::rt {

/// An artifact's CPU program, loaded and ready to run. Owns the loaded
/// kernel library. Thread-compatible: one run at a time.
class CpuExecutable : public DeviceExecutable {
public:
  /// Loads the kernels of a decoded artifact (see readArtifactFile); `name`
  /// is used in messages.
  static StatusOr<std::unique_ptr<CpuExecutable>>
  load(Artifact artifact, const std::string &name);

  ~CpuExecutable() override;
  CpuExecutable(const CpuExecutable &) = delete;
  CpuExecutable &operator=(const CpuExecutable &) = delete;

  const Program &program() const override { return program_; }
  std::string description() const override { return "cpu"; }

  /// Checks `inputs` against the program and runs it; `outputs` is resized
  /// and allocated to the program's output shapes.
  Status run(const std::vector<HostTensor> &inputs,
             std::vector<HostTensor> &outputs) override;

  /// Runs on caller-owned buffers: checks count, dtype, shape and size of
  /// every input and output first. Not thread-safe (one arena per
  /// executable): callers serialise runs of one executable.
  Status run(const std::vector<TensorRef> &inputs,
             const std::vector<TensorRef> &outputs) override;

private:
  CpuExecutable(Program program, void *library,
                std::vector<PackedKernel> kernels);

  Program program_;
  void *library_;
  std::vector<PackedKernel> kernels_;
  /// Working memory of the kernels, allocated once and reused by every run.
  Arena arena_;
};

} // namespace kiln::rt

#endif // KILN_RUNTIME_CPUEXECUTABLE_H
