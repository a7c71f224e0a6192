//===- CpuDevice.h - A set of CPU cores running Kiln artifacts --*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The first real Device: it loads `.kiln` CPU artifacts and runs the
// requests of each batch on a worker thread of its own (optionally pinned to
// its cores). A model with one variant (batch 1) runs a batch one request
// at a time; its two streams are two job slots, and between two executions
// of a normal batch a waiting high-priority batch runs first, so a request
// execution is this device's step. A model with batch-size variants runs a
// batch as one execution of the smallest variant that holds it: inputs
// stacked along axis 0 (padded with zeros), outputs split back. Loads run on a
// second thread, so a replica comes up while the device serves others.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_SERVING_CPUDEVICE_H
#define KILN_RUNTIME_SERVING_CPUDEVICE_H

#include "kiln/runtime/DeviceExecutable.h"
#include "kiln/runtime/serving/Device.h"
#include "kiln/runtime/serving/InferenceData.h"

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

namespace kiln::rt::serving {

/// Where the artifact of a model's batch-size variant is: its own file, or
/// a file that packs it (the loader picks the variant of that batch size).
using ArtifactLocator = std::function<StatusOr<std::string>(
    const std::string &model, int batchSize)>;
/// Brings the executable of a model's batch-size variant up (on the loader
/// thread).
using ExecutableLoader =
    std::function<StatusOr<std::shared_ptr<DeviceExecutable>>(
        const std::string &model, int batchSize)>;
/// The usual loader: the artifact `locate` names, loaded with `threads`
/// threads per execution (more than 1: the process's pool of that size,
/// shared by every device that asks for it).
ExecutableLoader artifactLoader(ArtifactLocator locate, unsigned threads);
/// Runs a device's completion callback where the pool may be entered: on
/// any thread, holding the pool's lock.
using CompletionGate = std::function<void(std::function<void()>)>;

struct CpuDeviceOptions {
  DeviceSpec spec;
  /// Cores the worker thread is pinned to; empty: not pinned.
  std::vector<int> cores;
};

/// Thread-safe: the pool calls it under its lock, its threads call back
/// through the gate.
class CpuDevice final : public Device {
public:
  CpuDevice(CpuDeviceOptions options, ExecutableLoader load,
            const Clock &clock, CompletionGate gate);
  /// Stops and joins its threads; callbacks not yet delivered are dropped.
  ~CpuDevice() override;

  const DeviceSpec &spec() const override { return options_.spec; }
  void beginLoad(const ModelSpec &model, bool fromHost, Done done) override;
  void unload(const ModelSpec &model) override;
  void beginBatch(const ModelSpec &model, const std::vector<Request> &requests,
                  Stream stream, Done done) override;
  Micros highStreamDelay() const override;
  Micros predictBatch(const ModelSpec &model, int requests) const override;
  Micros predictLoad(const ModelSpec &model, bool fromHost) const override;

  /// Stops taking work and joins the threads. The owner calls it before
  /// the pool the gate leads to goes away.
  void stop();
  /// Time spent executing requests (utilisation's numerator).
  Micros busyTime() const;
  std::uint64_t batches() const;

private:
  /// One stream's batch: one execution per request (`variant` 1), or one
  /// execution of the variant that holds them all.
  struct Job {
    std::shared_ptr<DeviceExecutable> executable;
    int variant = 1;
    Status loadError;
    std::vector<std::shared_ptr<InferenceData>> requests;
    std::size_t next = 0;
    Micros stepLatency = 0;
    Done done;
    bool active() const { return bool(done); }
  };
  struct LoadJob {
    std::string model;
    std::vector<int> variants;
    Done done;
  };
  void runWorker();
  void runLoader();
  void pinToCores();
  Job makeJob(const ModelSpec &model, const std::vector<Request> &requests,
              Done done);

  CpuDeviceOptions options_;
  ExecutableLoader load_;
  const Clock &clock_;
  CompletionGate gate_;

  mutable std::mutex mutex_;
  std::condition_variable workAvailable_;
  std::condition_variable loadAvailable_;
  bool stopping_ = false;
  /// By model, then batch-size variant.
  std::map<std::string, std::map<int, std::shared_ptr<DeviceExecutable>>>
      executables_;
  std::map<std::string, Status> loadErrors_;
  Job normal_, high_;
  /// When the request now executing started, and its predicted latency.
  bool executing_ = false;
  Micros executionStart_ = 0;
  Micros executionLatency_ = 0;
  std::deque<LoadJob> loads_;
  Micros busyTime_ = 0;
  std::uint64_t batches_ = 0;
  std::thread worker_;
  std::thread loader_;
};

/// Runs `requests` (each holding one batch-1 input set) as one execution of
/// `executable`, a `variant`-row variant: inputs stacked along axis 0 and
/// zero-padded, outputs split back into each request. Each request's status
/// is the execution's.
void runStacked(DeviceExecutable &executable, int variant,
                const std::vector<std::shared_ptr<InferenceData>> &requests);

/// Loads the artifact at `path`, checks it is a CPU program, and measures
/// what the pool needs: its footprint (weights = the file, arena = the
/// plan), load time, and the median latency of `runs` executions on zero
/// inputs with `threads` threads (after one warm-up). The result is model
/// `name` with a batch-1 profile and a step of one execution; `program`,
/// when given, receives the artifact's program (its inputs and outputs).
StatusOr<ModelSpec> profileCpuModel(const std::string &name,
                                    const std::string &path, unsigned threads,
                                    int runs, Program *program = nullptr);

/// profileCpuModel on an artifact already read (a batch variant packed in
/// another): `weightsBytes` is its footprint's weights, and the load time
/// counts from `readStart` (when reading its file began).
StatusOr<ModelSpec>
profileCpuArtifact(const std::string &name, Artifact artifact,
                   uint64_t weightsBytes, unsigned threads, int runs,
                   std::chrono::steady_clock::time_point readStart,
                   Program *program = nullptr);

} // namespace kiln::rt::serving

#endif // KILN_RUNTIME_SERVING_CPUDEVICE_H
