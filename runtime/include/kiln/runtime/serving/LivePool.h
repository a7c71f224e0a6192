//===- LivePool.h - The device pool in wall-clock time ----------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// DevicePool is thread-compatible and never blocks; the simulator drives it
// from one event loop. LivePool drives the same pool from real threads: one
// lock serialises every entry (submissions from server threads, device
// completions, timers), a timer thread closes batching windows and runs the
// adaptation tick, and each request's Response reaches the callback given
// with it.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_SERVING_LIVEPOOL_H
#define KILN_RUNTIME_SERVING_LIVEPOOL_H

#include "kiln/runtime/serving/Clock.h"
#include "kiln/runtime/serving/CpuDevice.h"
#include "kiln/runtime/serving/DevicePool.h"
#include "kiln/runtime/serving/Timer.h"

#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace kiln::rt::serving {

/// Thread-safe.
class LivePool {
public:
  using ResponseCallback = std::function<void(const Response &)>;

  /// `tickPeriod`: how often the policy's adaptation runs (0: never).
  LivePool(PoolOptions options, Micros tickPeriod);
  /// Stops the devices and threads; requests still in flight are answered
  /// as cancelled.
  ~LivePool();
  LivePool(const LivePool &) = delete;
  LivePool &operator=(const LivePool &) = delete;

  // --- Set-up, before start() -------------------------------------------
  /// Adds a CPU device that brings models up through `load`.
  int addCpuDevice(CpuDeviceOptions options, ExecutableLoader load);
  Status addModel(ModelSpec model);
  void start();

  // --- Serving -----------------------------------------------------------
  /// Stamps `request` with an id and its arrival time (now), and its
  /// deadline with `timeout` after that (0: none), and submits it; `done`
  /// gets its one Response, on some pool thread, holding the pool's lock
  /// (so it must not call back into the pool). Returns the id.
  RequestId submit(Request request, ResponseCallback done, Micros timeout = 0);
  bool cancel(RequestId id);
  Status loadModel(const std::string &model, int device);
  Status unloadModel(const std::string &model, int device);
  /// A new version of a registered model; see DevicePool::reloadModel.
  Status reloadModel(ModelSpec model);

  /// Runs `read` on the pool under its lock: for metrics and status.
  void inspect(const std::function<void(const DevicePool &)> &read) const;
  const Clock &clock() const { return clock_; }
  /// Busy time of each device so far.
  std::vector<Micros> deviceBusyTimes() const;
  /// Refine single-variant latency profiles from measured executions: every
  /// `window` completed executions of a model, its batch-1 latency becomes
  /// their mean (0: never; the default is 128). Profiles measured alone at
  /// load are optimistic under load (caches shared, weights evicted by the
  /// other models), and the scheduler's predictions should not be.
  void setLatencyLearning(std::size_t window);
  /// Stops devices and timers; idempotent.
  void shutdown();

private:
  /// Timer for the pool: actions run on the timer thread under the lock.
  class ThreadTimer final : public Timer {
  public:
    explicit ThreadTimer(LivePool &owner) : owner_(owner) {}
    void callAt(Micros time, std::function<void()> action) override;
    void run();
    void stop();

  private:
    LivePool &owner_;
    std::mutex mutex_;
    std::condition_variable changed_;
    std::multimap<Micros, std::function<void()>> agenda_;
    bool stopping_ = false;
  };

  void onResponse(const Response &response);
  void learnLatency(const Response &response);
  void scheduleTick();

  SteadyClock clock_;
  Micros tickPeriod_;
  mutable std::mutex mutex_;
  ThreadTimer timer_;
  /// Declared before the pool, so they outlive the pool that names them.
  std::vector<std::unique_ptr<CpuDevice>> cpuDevices_;
  std::unique_ptr<DevicePool> pool_;
  std::map<RequestId, ResponseCallback> waiting_;
  std::size_t learningWindow_ = 128;
  /// Execution times measured since the last refinement, by model index.
  std::map<int, std::vector<Micros>> executions_;
  RequestId nextId_ = 1;
  bool started_ = false;
  bool stopped_ = false;
  std::thread timerThread_;
};

} // namespace kiln::rt::serving

#endif // KILN_RUNTIME_SERVING_LIVEPOOL_H
