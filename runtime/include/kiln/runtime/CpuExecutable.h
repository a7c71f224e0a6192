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
#include "kiln/runtime/CpuSchedule.h"
#include "kiln/runtime/DeviceExecutable.h"
#include "kiln/runtime/HostTensor.h"
#include "kiln/runtime/Status.h"

#include <functional>
#include <memory>
#include <mutex>

namespace kiln::rt {

/// A CPU program, loaded and ready to run on a thread pool.
///
/// Thread-safe: several host threads may run one executable at once. Each
/// run takes a working-memory arena of its own from the executable (one is
/// allocated at load; concurrent runs allocate more, kept for later runs),
/// and all runs share the process's pool of `threads` threads.
class CpuExecutable : public DeviceExecutable {
public:
  /// Loads the kernels of a decoded artifact (see readArtifactFile); `name`
  /// is used in messages.
  static StatusOr<std::unique_ptr<CpuExecutable>>
  load(Artifact artifact, const std::string &name,
       const ExecutableOptions &options = {});

  /// An executable over kernels that are already in memory (the JIT):
  /// `lookup` finds a dispatch entry by name; `owner` keeps them alive.
  static StatusOr<std::unique_ptr<CpuExecutable>>
  create(Program program, const std::function<void *(const std::string &)> &lookup,
         std::shared_ptr<void> owner, const std::string &name,
         const ExecutableOptions &options = {});

  ~CpuExecutable() override;
  CpuExecutable(const CpuExecutable &) = delete;
  CpuExecutable &operator=(const CpuExecutable &) = delete;

  const Program &program() const override { return program_; }
  std::string description() const override { return "cpu"; }
  /// Threads a run uses, the caller included.
  unsigned threads() const { return pool_ ? pool_->threads() : 1; }

  /// Checks `inputs` against the program and runs it; `outputs` is resized
  /// and allocated to the program's output shapes.
  Status run(const std::vector<HostTensor> &inputs,
             std::vector<HostTensor> &outputs) override;

  /// Runs on caller-owned buffers: checks count, dtype, shape and size of
  /// every input and output first.
  Status run(const std::vector<TensorRef> &inputs,
             const std::vector<TensorRef> &outputs) override;

  Status run(const std::vector<TensorRef> &inputs,
             const std::vector<TensorRef> &outputs,
             const RunOptions &options) override;
  Status run(const std::vector<HostTensor> &inputs,
             std::vector<HostTensor> &outputs,
             const RunOptions &options) override;

private:
  CpuExecutable(Program program, CpuSchedule schedule,
                std::shared_ptr<void> owner, std::shared_ptr<ThreadPool> pool);

  /// An arena for one run: a free one, or a new one.
  StatusOr<std::unique_ptr<Arena>> takeArena();
  void returnArena(std::unique_ptr<Arena> arena);

  Program program_;
  CpuSchedule schedule_;
  /// Keeps the kernels loaded (a dlopen handle or a JIT).
  std::shared_ptr<void> owner_;
  /// Null for one thread.
  std::shared_ptr<ThreadPool> pool_;
  std::mutex arenasMutex_;
  /// Working memory of the kernels, reused by later runs.
  std::vector<std::unique_ptr<Arena>> freeArenas_;
};

} // namespace kiln::rt

#endif // KILN_RUNTIME_CPUEXECUTABLE_H
