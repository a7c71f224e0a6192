//===- ShortestQueuePolicy.cpp - Baseline: join the shortest queue --------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// A load balancer's usual step up from round-robin: each arriving request
// goes to the replica of its model with the least work waiting (queued
// requests, plus one for a device that is running something) and waits in
// that device's first-come queue. One request per execution, no
// priorities, no deadline admission, no adaptation.
//
//===----------------------------------------------------------------------===//

#include "DeviceQueuePolicy.h"
#include "Policies.h"

#include <algorithm>

namespace kiln::rt::serving {

namespace {

class ShortestQueuePolicy final : public DeviceQueuePolicy {
public:
  using DeviceQueuePolicy::DeviceQueuePolicy;

  const char *name() const override { return "jsq"; }
  void onModelAdded(int) override {}

private:
  int chooseDevice(const DevicePool &pool, const Request &,
                   const std::vector<int> &devices) override {
    auto waiting = [&](int device) {
      return queuedOn(device) + (pool.deviceIdle(device) ? 0 : 1);
    };
    // Ties go to the lower device index: deterministic.
    return *std::min_element(
        devices.begin(), devices.end(),
        [&](int a, int b) { return waiting(a) < waiting(b); });
  }
};

} // namespace

std::unique_ptr<SchedulingPolicy>
makeShortestQueuePolicy(const PoolOptions &options, int deviceCount) {
  return std::make_unique<ShortestQueuePolicy>(options, deviceCount);
}

} // namespace kiln::rt::serving
