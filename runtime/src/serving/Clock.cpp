//===- Clock.cpp - Time source for the serving scheduler ------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/serving/Clock.h"

#include <cmath>

namespace kiln::rt::serving {

Micros millisToMicros(double millis) {
  return static_cast<Micros>(std::llround(millis * 1000.0));
}

double microsToMillis(Micros micros) { return double(micros) / 1000.0; }

Micros SteadyClock::now() const {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::steady_clock::now() - start_)
      .count();
}

} // namespace kiln::rt::serving
