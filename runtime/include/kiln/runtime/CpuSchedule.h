//===- CpuSchedule.h - Run a CPU device program on a thread pool -*- C++
//-*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// A CPU program is a list of steps with explicit dependencies (the exec
// dialect, serialised). Each dispatch calls a kernel over ranges of its
// workgroups; the compiler fixed the workgroups, so any split of them over
// threads computes the same bytes. A step starts once the steps it waits
// for are done; independent steps run concurrently.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_CPUSCHEDULE_H
#define KILN_RUNTIME_CPUSCHEDULE_H

#include "kiln/runtime/Artifact.h"
#include "kiln/runtime/StepHooks.h"
#include "kiln/runtime/ThreadPool.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace kiln::rt {

/// A CPU dispatch's entry: the packed model arguments (inputs, outputs,
/// arena; kiln/runtime/CpuCallingConvention.h) and workgroups [begin, end).
using CpuDispatchFn = void (*)(void **arguments, int64_t begin, int64_t end);

/// The name of the entry of dispatch function `function`.
std::string cpuDispatchEntryName(const std::string &function);

/// A CPU device program with its kernels resolved. Immutable once built:
/// runs from several threads at once are safe (each brings its buffers).
class CpuSchedule {
public:
  /// Resolves every dispatch's kernel with `lookup` (null: missing) and
  /// indexes the dependencies. `name` is used in messages.
  static StatusOr<CpuSchedule>
  create(const DeviceProgram &program,
         const std::function<void *(const std::string &)> &lookup,
         const std::string &name);

  /// Runs every step. `arguments` are the packed model arguments; `buffers`
  /// resolve bindings for copies, fills, collectives and hooks. With a pool
  /// of one thread (or none) steps run in order on the calling thread. The
  /// first step that fails (a collective) ends the run: steps not started
  /// yet are skipped, and its error is returned.
  Status run(ThreadPool *pool, void **arguments, const RunBuffers &buffers,
             const RunOptions &options) const;

  const std::vector<Step> &steps() const { return steps_; }

private:
  friend struct ScheduleRun;
  /// Runs `step` (not a dispatch) on the calling thread.
  Status runOther(uint32_t index, const RunBuffers &buffers,
                  const RunOptions &options) const;

  std::vector<Step> steps_;
  std::vector<CpuDispatchFn> kernels_; ///< Null for other kinds of step.
  std::vector<std::vector<uint32_t>> dependents_;
  std::vector<uint32_t> roots_; ///< Steps that wait for nothing.
  bool hasCollectives_ = false;
  /// Whether any dispatch has several workgroups: programs of one-workgroup
  /// kernels only (tiny models) run in order, where a hand-over between
  /// threads would cost more than the work.
  bool splits_ = false;
};

} // namespace kiln::rt

#endif // KILN_RUNTIME_CPUSCHEDULE_H
