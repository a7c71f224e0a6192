//===- CudaExecutable.h - Run a .kiln artifact on a CUDA GPU ----*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// docs/cuda-runtime.md describes loading (driver, module choice, one device
// allocation), running (copies, launches, CUDA Graphs) and the errors.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_CUDAEXECUTABLE_H
#define KILN_RUNTIME_CUDAEXECUTABLE_H

#include "kiln/runtime/DeviceExecutable.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kiln::rt {

struct CudaLoadOptions {
  int device = 0; ///< CUDA device ordinal.
  /// Capture the launches into a CUDA Graph on the second run and replay it
  /// from then on. KILN_CUDA_GRAPHS=0 in the environment also turns it off.
  bool graphs = true;
  GemmPath gemm = GemmPath::kGenerated;
  /// kAuto's timing cache (a text file, created if absent); empty: the
  /// KILN_CUDA_GEMM_CACHE environment variable, else none (time each load).
  std::string gemmTimingCache;
};

/// What the executable did so far (for tests, benchmarks and tools).
struct CudaRunCounters {
  uint64_t runs = 0;
  uint64_t directRuns = 0;    ///< Runs that launched kernel by kernel.
  uint64_t hookedRuns = 0;    ///< Direct runs that stopped after each step.
  uint64_t graphCaptures = 0; ///< Runs that captured (and then launched).
  uint64_t graphLaunches = 0; ///< Runs that replayed the graph.
  /// Captures that failed; the run then launched directly, and so do the
  /// later ones (see CudaExecutable::warnings()).
  uint64_t graphCaptureFailures = 0;
  /// Modules loaded from PTX because this GPU's CUBIN failed to load.
  uint64_t cubinFallbacks = 0;
  /// Steps that run through cuBLASLt instead of their kernel.
  uint64_t blasLtSteps = 0;
  /// Collective steps run (by the run's collectives hook).
  uint64_t collectiveSteps = 0;
  /// GEMM calls whose paths kAuto timed on the device (not from the cache).
  uint64_t gemmTimings = 0;
};

/// One GPU as the driver describes it.
struct CudaDeviceInfo {
  int ordinal = 0;
  std::string name;     ///< "NVIDIA H200".
  int sm = 0;           ///< Compute capability, major * 10 + minor.
  int driverVersion = 0; ///< cuDriverGetVersion: 13000 is CUDA 13.0.
  int multiprocessors = 0;
  int clockKHz = 0;       ///< Peak SM clock.
  int memoryClockKHz = 0; ///< Peak memory clock.
  int maxThreadsPerBlock = 0;
  /// Shared memory one block may use after opting in (227 KiB on sm_90).
  int maxSharedBytesPerBlock = 0;
  uint64_t totalMemoryBytes = 0;
  /// Entry points this driver lacks and what stands in for them.
  std::vector<std::string> driverFallbacks;
};

/// Opens device `ordinal` (loading the driver) and describes it.
/// kUnavailable without a driver or GPU.
StatusOr<CudaDeviceInfo> describeCudaDevice(int ordinal = 0);

/// An artifact's CUDA program on one GPU. Owns its modules, one device
/// allocation (constants, inputs, outputs and the arena), a stream and the
/// captured graph. Thread-compatible: one run at a time.
class CudaExecutable : public DeviceExecutable {
public:
  /// Loads the program of a decoded artifact (its single device must be
  /// CUDA); `name` is used in messages. kUnavailable without a driver or
  /// GPU, kUnimplemented when no module fits this GPU.
  static StatusOr<std::unique_ptr<CudaExecutable>>
  load(Artifact artifact, const std::string &name,
       const CudaLoadOptions &options = {});

  ~CudaExecutable() override;
  CudaExecutable(const CudaExecutable &) = delete;
  CudaExecutable &operator=(const CudaExecutable &) = delete;

  const Program &program() const override;
  std::string description() const override;
  Status run(const std::vector<HostTensor> &inputs,
             std::vector<HostTensor> &outputs) override;
  /// Copies the host inputs in, launches every step on the stream (or
  /// replays the graph), copies the outputs out and waits.
  Status run(const std::vector<TensorRef> &inputs,
             const std::vector<TensorRef> &outputs) override;
  /// With step hooks, launches one step at a time (never the graph): each
  /// is timed with CUDA events and waited for, and what it wrote is copied
  /// to a host mirror of the device memory, which the hooks' RunBuffers
  /// point into. For profiling and numerics checks, not for speed.
  /// A program with collective steps (a rank of a sharded model) needs
  /// `options.collectives`: the stream drains before each such step and
  /// the hook exchanges its buffers, whose RunBuffers hold *device*
  /// addresses (a communicator on device memory: NCCL). Such programs run
  /// step by step, never from a graph (kFailedPrecondition without a hook).
  Status run(const std::vector<TensorRef> &inputs,
             const std::vector<TensorRef> &outputs,
             const RunOptions &options) override;
  Status run(const std::vector<HostTensor> &inputs,
             std::vector<HostTensor> &outputs,
             const RunOptions &options) override;

  /// Device time of `iterations` runs of the launches alone (no copies;
  /// replaying the graph when `graph`), in milliseconds per run, measured
  /// with CUDA events. For benchmarks such as scripts/gpu-check.sh.
  StatusOr<double> timeLaunches(int iterations, bool graph);
  /// Device time of one device-to-device copy of `bytes`, in milliseconds
  /// (mean over `iterations`): the bandwidth yardstick for kernels.
  StatusOr<double> timeDeviceCopy(uint64_t bytes, int iterations);
  /// Bytes the launches' pointer arguments span (read or written), summed
  /// over launches: the traffic a bandwidth figure divides.
  uint64_t launchArgumentBytes() const;

  /// The GPU's compute capability (major * 10 + minor).
  int sm() const;
  /// Per launched kernel (in first-launch order): "name: sm_90 CUBIN", or
  /// "name: compute_90 PTX (JIT), after the sm_90 CUBIN failed: REASON".
  const std::vector<std::string> &moduleChoices() const;
  const CudaRunCounters &counters() const;
  /// Per GEMM call, the path taken and why: "step #3: f32 GEMM 64x96x128:
  /// cuBLASLt (12.1 us, kernel 20.3 us)".
  const std::vector<std::string> &gemmChoices() const;
  const CudaDeviceInfo &deviceInfo() const;
  /// What went wrong but was worked around (a CUBIN that did not load, a
  /// graph capture that failed), in order; tools print them.
  const std::vector<std::string> &warnings() const;

  struct State;

private:
  explicit CudaExecutable(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

} // namespace kiln::rt

#endif // KILN_RUNTIME_CUDAEXECUTABLE_H
