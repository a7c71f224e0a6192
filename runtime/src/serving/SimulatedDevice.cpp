//===- SimulatedDevice.cpp - A device that exists in virtual time ---------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/serving/SimulatedDevice.h"

#include <algorithm>
#include <cmath>

namespace kiln::rt::serving {

namespace {
Micros scaled(Micros time, double speed) {
  return std::max<Micros>(1, Micros(std::llround(double(time) / speed)));
}
} // namespace

void SimulatedDevice::beginLoad(const ModelSpec &model, bool fromHost,
                                Done done) {
  events_.scheduleAfter(predictLoad(model, fromHost), std::move(done));
}

void SimulatedDevice::beginBatch(const ModelSpec &model,
                                 const std::vector<Request> &requests,
                                 Stream stream, Done done) {
  Micros latency = predictBatch(model, int(requests.size()));
  busyTime_ += latency;
  ++batches_;
  if (stream == Stream::kNormal) {
    normal_ = NormalBatch{true,    events_.clock().now(),
                          latency, scaled(model.stepTime, spec_.speed),
                          0,       std::move(done)};
    events_.scheduleAfter(latency, [this] { finishNormal(); });
    return;
  }
  // The high stream gets the device at the running batch's next step
  // boundary and holds it for its whole latency; the normal batch pauses.
  Micros delay = highStreamDelay();
  // A batch whose last step is running finishes before the high stream
  // gets in: nothing of it is left to pause.
  if (normal_.active && !normalEndsWithin(delay))
    normal_.paused += latency;
  events_.scheduleAfter(delay + latency, std::move(done));
}

Micros SimulatedDevice::highStreamDelay() const {
  if (!normal_.active)
    return 0;
  Micros progress = std::max<Micros>(0, events_.clock().now() - normal_.start -
                                            normal_.paused);
  Micros boundary = normal_.latency;
  if (normal_.step > 0)
    boundary = std::min(boundary, (progress + normal_.step - 1) / normal_.step *
                                      normal_.step);
  return std::max<Micros>(0, boundary - progress);
}

bool SimulatedDevice::normalEndsWithin(Micros delay) const {
  Micros progress = events_.clock().now() - normal_.start - normal_.paused;
  return progress + delay >= normal_.latency;
}

void SimulatedDevice::finishNormal() {
  // Preemptions since it started push the end back: wait for the rest.
  Micros end = normal_.start + normal_.latency + normal_.paused;
  if (events_.clock().now() < end) {
    events_.scheduleAt(end, [this] { finishNormal(); });
    return;
  }
  normal_.active = false;
  Done done = std::move(normal_.done);
  done();
}

Micros SimulatedDevice::predictBatch(const ModelSpec &model,
                                     int requests) const {
  return scaled(model.profile.latencyFor(requests), spec_.speed);
}

Micros SimulatedDevice::predictLoad(const ModelSpec &model,
                                    bool fromHost) const {
  // Loads are copies, not compute: speed does not apply.
  return fromHost ? model.reloadTime : model.coldLoadTime;
}

} // namespace kiln::rt::serving
