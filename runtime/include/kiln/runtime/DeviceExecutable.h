//===- DeviceExecutable.h - A loaded artifact, whatever its device -*- C++ -*-//
//
// SPDX-License-Identifier: Apache-2.0
//
// kiln-run, kilnc and the C++ API load artifacts through loadExecutable(),
// which picks the CPU or the CUDA executable from the program's device.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_DEVICEEXECUTABLE_H
#define KILN_RUNTIME_DEVICEEXECUTABLE_H

#include "kiln/runtime/Artifact.h"
#include "kiln/runtime/HostTensor.h"
#include "kiln/runtime/Status.h"

#include <memory>
#include <string>
#include <vector>

namespace kiln::rt {

/// An artifact's program, loaded and ready to run. Inputs and outputs are
/// host memory for every device. Thread-compatible: one run at a time.
class DeviceExecutable {
public:
  virtual ~DeviceExecutable();

  virtual const Program &program() const = 0;

  /// Where it runs, e.g. "cpu" or "cuda:0 sm_90" (device 0, compute
  /// capability 9.0).
  virtual std::string description() const = 0;

  /// Checks `inputs` against the program and runs it; `outputs` is resized
  /// and allocated to the program's output shapes.
  virtual Status run(const std::vector<HostTensor> &inputs,
                     std::vector<HostTensor> &outputs) = 0;

  /// Runs on caller-owned host buffers (checked first).
  virtual Status run(const std::vector<TensorRef> &inputs,
                     const std::vector<TensorRef> &outputs) = 0;
};

/// Loads a decoded artifact on the device its program names (CPU, or CUDA
/// device 0). A CUDA artifact on a machine without a driver or GPU is
/// kUnavailable.
StatusOr<std::unique_ptr<DeviceExecutable>>
loadExecutable(Artifact artifact, const std::string &name);

} // namespace kiln::rt

#endif // KILN_RUNTIME_DEVICEEXECUTABLE_H
