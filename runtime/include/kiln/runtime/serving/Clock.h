//===- Clock.h - Time source for the serving scheduler ----------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The scheduler reads time only through this interface, so the same code
// runs in virtual time (the simulator, deterministic tests) and in real time
// (CPU and CUDA devices).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_SERVING_CLOCK_H
#define KILN_RUNTIME_SERVING_CLOCK_H

#include <chrono>
#include <cstdint>

namespace kiln::rt::serving {

/// Time in microseconds. Integers keep simulations bit-for-bit reproducible.
using Micros = std::int64_t;

/// Milliseconds (as used in configs and reports) to Micros, rounded.
Micros millisToMicros(double millis);
/// Micros to milliseconds for reports.
double microsToMillis(Micros micros);

/// A monotonic time source. Implementations state their thread-safety.
class Clock {
public:
  virtual ~Clock() = default;
  /// Current time; never decreases.
  virtual Micros now() const = 0;
};

/// Time that moves only when told to: the simulator's clock.
/// Thread-compatible.
class VirtualClock final : public Clock {
public:
  Micros now() const override { return now_; }
  /// Moves time forward to `time`; earlier times are ignored (monotonic).
  void advanceTo(Micros time) {
    if (time > now_)
      now_ = time;
  }

private:
  Micros now_ = 0;
};

/// Wall-clock time from std::chrono::steady_clock, counted from construction.
/// Thread-safe.
class SteadyClock final : public Clock {
public:
  SteadyClock() : start_(std::chrono::steady_clock::now()) {}
  Micros now() const override;

private:
  std::chrono::steady_clock::time_point start_;
};

} // namespace kiln::rt::serving

#endif // KILN_RUNTIME_SERVING_CLOCK_H
