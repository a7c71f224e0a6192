//===- RoundRobinPolicy.cpp - Baseline: per-device queues, turn by turn ---===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The dispatcher many deployments start with: each arriving request goes to
// the next replica of its model in turn and waits in that device's own
// first-come queue. One request per execution, no priorities, no deadline
// admission, no adaptation.
//
//===----------------------------------------------------------------------===//

#include "DeviceQueuePolicy.h"
#include "Policies.h"

namespace kiln::rt::serving {

namespace {

class RoundRobinPolicy final : public DeviceQueuePolicy {
public:
  RoundRobinPolicy(const PoolOptions &options, int modelCount, int deviceCount)
      : DeviceQueuePolicy(options, deviceCount), nextTurn_(modelCount, 0) {}

  const char *name() const override { return "round-robin"; }
  void onModelAdded(int modelCount) override {
    nextTurn_.resize(size_t(modelCount), 0);
  }

private:
  int chooseDevice(const DevicePool &, const Request &request,
                   const std::vector<int> &devices) override {
    return devices[nextTurn_[request.modelIndex]++ % devices.size()];
  }

  std::vector<std::size_t> nextTurn_;
};

} // namespace

std::unique_ptr<SchedulingPolicy>
makeRoundRobinPolicy(const PoolOptions &options, int modelCount,
                     int deviceCount) {
  return std::make_unique<RoundRobinPolicy>(options, modelCount, deviceCount);
}

} // namespace kiln::rt::serving
