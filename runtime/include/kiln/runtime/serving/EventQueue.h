//===- EventQueue.h - Discrete events in virtual time -----------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The simulator's agenda: callbacks due at a virtual time. Events due at the
// same time run in the order they were scheduled, so a run depends only on
// its inputs and seed, never on heap layout.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_SERVING_EVENTQUEUE_H
#define KILN_RUNTIME_SERVING_EVENTQUEUE_H

#include "kiln/runtime/serving/Clock.h"
#include "kiln/runtime/serving/Timer.h"

#include <cstdint>
#include <functional>
#include <queue>
#include <vector>

namespace kiln::rt::serving {

/// A time-ordered queue of callbacks that drives a VirtualClock.
/// Thread-compatible.
class EventQueue final : public Timer {
public:
  using Action = std::function<void()>;

  explicit EventQueue(VirtualClock &clock) : clock_(clock) {}

  /// Runs `action` at `time` (clamped to now: nothing runs in the past).
  void scheduleAt(Micros time, Action action);
  void callAt(Micros time, std::function<void()> action) override {
    scheduleAt(time, std::move(action));
  }
  /// Runs `action` `delay` after now.
  void scheduleAfter(Micros delay, Action action) {
    scheduleAt(clock_.now() + delay, std::move(action));
  }

  /// Runs the earliest event, advancing the clock to it. False when empty.
  bool runNext();
  /// Runs events due at or before `time`, then moves the clock to `time`.
  void runUntil(Micros time);
  /// Runs every event, including those scheduled while running.
  void runAll();

  bool empty() const { return events_.empty(); }
  std::size_t size() const { return events_.size(); }
  const VirtualClock &clock() const { return clock_; }

private:
  struct Event {
    Micros time;
    std::uint64_t sequence; ///< Tie-break: scheduling order.
    Action action;
  };
  struct Later {
    bool operator()(const Event &a, const Event &b) const {
      if (a.time != b.time)
        return a.time > b.time;
      return a.sequence > b.sequence;
    }
  };

  VirtualClock &clock_;
  std::priority_queue<Event, std::vector<Event>, Later> events_;
  std::uint64_t nextSequence_ = 0;
};

} // namespace kiln::rt::serving

#endif // KILN_RUNTIME_SERVING_EVENTQUEUE_H
