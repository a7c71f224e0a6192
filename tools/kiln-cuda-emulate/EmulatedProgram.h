//===- EmulatedProgram.h - A CUDA program on emulated memory ----*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// One generated CUDA program (a model's, or one rank's of a sharded model)
// on host "device" memory: its inputs, outputs, arena and constants, its
// kernels compiled for the host, and its steps run one at a time. A
// collective step is left to the caller, which sees the program's buffers
// as the runtime's collectives hook would.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_KILN_CUDA_EMULATE_EMULATEDPROGRAM_H
#define KILN_TOOLS_KILN_CUDA_EMULATE_EMULATEDPROGRAM_H

#include "DeviceMemory.h"
#include "HostCompile.h"

#include "compiler/Codegen/CUDA/CudaCodegen.h"
#include "kiln/runtime/HostTensor.h"
#include "kiln/runtime/StepHooks.h"

#include "llvm/ADT/StringMap.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kiln::emu {

/// Why emulation stopped: a kilnc exit code and its message.
struct Failure {
  int code = 0;
  std::string message;
};

class EmulatedProgram {
public:
  /// Allocates the buffers (outputs and arena poisoned when `poison`),
  /// copies `inputs` and the constants in, and compiles the kernels for
  /// the host in a temporary folder. `name` prefixes messages ("rank 1").
  static std::optional<Failure>
  create(compiler::cuda::CudaProgram program,
         std::vector<rt::TensorSpec> outputSpecs, uint64_t arenaBytes,
         const std::vector<rt::HostTensor> &inputs,
         const EmulationOptions &options, bool poison, std::string name,
         std::unique_ptr<EmulatedProgram> &result);

  /// The schedule's steps, in order.
  const std::vector<rt::Step> &steps() const {
    return program_.schedule.steps;
  }
  /// Starts the program again on new `inputs` (the same shapes): the next
  /// launch is the first, outputs and arena poisoned again when `poison`.
  /// A pipeline stage runs once per micro-batch.
  std::optional<Failure> restart(const std::vector<rt::HostTensor> &inputs,
                                 bool poison);
  /// Runs launch step `step` (the next kernel in order).
  std::optional<Failure> launch(size_t step);
  /// The buffers as a collectives hook sees them (host addresses).
  const rt::RunBuffers &buffers() const { return buffers_; }
  /// Copies of the outputs, shaped as the signature says.
  std::vector<rt::HostTensor> outputs() const;

private:
  EmulatedProgram() = default;

  compiler::cuda::CudaProgram program_;
  std::vector<rt::TensorSpec> outputSpecs_;
  EmulationOptions options_;
  std::string name_;
  std::vector<DeviceBuffer> inputs_, outputs_;
  std::unique_ptr<DeviceBuffer> arena_, constants_;
  std::vector<uint8_t *> inputViews_, outputViews_;
  rt::RunBuffers buffers_;
  TempDir dir_;
  HostLibrary library_;
  llvm::StringMap<unsigned> bounds_;
  size_t nextKernel_ = 0;
};

} // namespace kiln::emu

#endif // KILN_TOOLS_KILN_CUDA_EMULATE_EMULATEDPROGRAM_H
