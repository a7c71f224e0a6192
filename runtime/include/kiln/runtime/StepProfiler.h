//===- StepProfiler.h - Wall time of every step of every run ----*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// A StepHooks that timestamps each step as it starts and ends (steady
// clock, nanoseconds) on whichever thread runs it, plus each whole run:
// what `kilnc profile` turns into per-kernel tables, rooflines and traces.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_STEPPROFILER_H
#define KILN_RUNTIME_STEPPROFILER_H

#include "kiln/runtime/StepHooks.h"

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace kiln::rt {

/// One interval on one thread, in nanoseconds since the profiler started.
struct ProfileSlice {
  uint32_t step = 0;   ///< Step index; runs have kRunSlice.
  uint32_t run = 0;    ///< Which run (0-based).
  uint32_t thread = 0; ///< Small number per host thread, 0 first seen.
  int64_t begin = 0;
  int64_t end = 0;
  /// Measured by the device (CUDA events), not the host clock: the slice
  /// ends when the host saw the step finish and lasts its device time (a
  /// GPU step begins after its host slice does, so the slice is inside it).
  bool device = false;
};
inline constexpr uint32_t kRunSlice = ~uint32_t(0);

/// Thread-safe. Time is taken with the hook overhead inside the step's
/// slice (a few tens of nanoseconds).
class StepProfiler : public StepHooks {
public:
  explicit StepProfiler(size_t steps);

  /// Brackets one run (the caller's thread).
  void beginRun();
  void endRun();

  void beforeStep(const StepEvent &event) override;
  void afterStep(const StepEvent &event) override;

  /// Every slice so far, runs and steps, in no particular order.
  std::vector<ProfileSlice> slices() const;
  /// Runs profiled.
  uint32_t runs() const { return run_; }

private:
  int64_t now() const;
  uint32_t threadNumber();

  std::chrono::steady_clock::time_point epoch_;
  std::unique_ptr<std::atomic<int64_t>[]> starts_;
  std::unique_ptr<std::atomic<uint32_t>[]> startThreads_;
  size_t steps_;
  uint32_t run_ = 0;
  int64_t runBegin_ = 0;
  mutable std::mutex mutex_;
  std::vector<ProfileSlice> slices_;
  std::vector<std::thread::id> threads_;
};

} // namespace kiln::rt

#endif // KILN_RUNTIME_STEPPROFILER_H
