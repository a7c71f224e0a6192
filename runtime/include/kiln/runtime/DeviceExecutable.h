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
#include "kiln/runtime/StepHooks.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kiln::rt {

/// How a loaded executable runs.
/// Which code runs the contractions the compiler recorded as GEMM calls
/// (GemmCall.h; CUDA programs); every other step is a generated kernel.
enum class GemmPath {
  kGenerated, ///< The compiler's kernels (always present).
  kCublasLt,  ///< cuBLASLt where it can express the GEMM (kUnavailable
              ///< when cuBLASLt cannot be loaded).
  kAuto,      ///< Both timed on the device at load; the faster is kept,
              ///< and remembered in the timing cache.
};

/// "generated", "cublaslt", "auto"; nothing for other names.
std::optional<GemmPath> parseGemmPath(const std::string &name);

struct ExecutableOptions {
  /// Threads that run a CPU program's steps, the calling thread included;
  /// 0 is every core the process may use (ThreadPool::availableThreads()).
  /// With 1 steps run in order on the calling thread.
  unsigned threads = 0;
  /// CUDA programs: see CudaLoadOptions.
  int device = 0; ///< CUDA device ordinal.
  GemmPath gemm = GemmPath::kGenerated;
  std::string gemmTimingCache;
};

/// An artifact's program, loaded and ready to run. Inputs and outputs are
/// host memory for every device. CPU executables are thread-safe (each run
/// takes a working-memory arena of its own); CUDA executables are
/// thread-compatible (one run at a time).
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

  /// Runs with per-step hooks and a collectives hook; devices without
  /// support for them say so (kUnimplemented) when one is given.
  virtual Status run(const std::vector<TensorRef> &inputs,
                     const std::vector<TensorRef> &outputs,
                     const RunOptions &options);
  /// The same on host tensors; `outputs` as in the first run().
  virtual Status run(const std::vector<HostTensor> &inputs,
                     std::vector<HostTensor> &outputs,
                     const RunOptions &options);
};

/// Loads a decoded artifact on the device its program names (CPU, or CUDA
/// device 0). A CUDA artifact on a machine without a driver or GPU is
/// kUnavailable.
StatusOr<std::unique_ptr<DeviceExecutable>>
loadExecutable(Artifact artifact, const std::string &name,
               const ExecutableOptions &options = {});

} // namespace kiln::rt

#endif // KILN_RUNTIME_DEVICEEXECUTABLE_H
