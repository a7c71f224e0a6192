//===- Timer.h - Wake-ups at a time on the scheduler's clock ----*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// How the pool asks to be called back later (to close a batching window)
// without knowing whether time is virtual (the simulator's EventQueue) or
// real (a driver thread).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_SERVING_TIMER_H
#define KILN_RUNTIME_SERVING_TIMER_H

#include "kiln/runtime/serving/Clock.h"

#include <functional>

namespace kiln::rt::serving {

class Timer {
public:
  virtual ~Timer() = default;
  /// Runs `action` at `time` (or as soon as possible after it), on the
  /// thread that drives the pool.
  virtual void callAt(Micros time, std::function<void()> action) = 0;
};

} // namespace kiln::rt::serving

#endif // KILN_RUNTIME_SERVING_TIMER_H
