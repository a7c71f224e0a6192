//===- DeviceQueuePolicy.h - Baselines with a queue per device --*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Internal. What the dispatcher baselines share: each arriving request is
// sent to one replica of its model at once and waits in that device's own
// first-come queue; one request per execution, no priorities, no deadline
// admission, no adaptation. They differ only in which replica they pick.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_SRC_SERVING_DEVICEQUEUEPOLICY_H
#define KILN_RUNTIME_SRC_SERVING_DEVICEQUEUEPOLICY_H

#include "kiln/runtime/serving/DevicePool.h"

#include <deque>

namespace kiln::rt::serving {

class DeviceQueuePolicy : public SchedulingPolicy {
public:
  DeviceQueuePolicy(const PoolOptions &options, int deviceCount)
      : capacity_(options.queue.capacityPerLevel), queues_(deviceCount) {}

  void enqueue(DevicePool &pool, Request request) final;
  std::optional<Batch> nextBatch(DevicePool &pool, int device) final;
  std::optional<Request> cancel(RequestId id) final;
  std::size_t queuedFor(int model) const final;
  std::vector<Request> takeAll(int model) final;

protected:
  /// Which of `devices` (those hosting the request's model, never empty)
  /// the request waits on.
  virtual int chooseDevice(const DevicePool &pool, const Request &request,
                           const std::vector<int> &devices) = 0;
  std::size_t queuedOn(int device) const {
    return queues_[std::size_t(device)].size();
  }

private:
  std::size_t capacity_;
  std::vector<std::deque<Request>> queues_;
};

} // namespace kiln::rt::serving

#endif // KILN_RUNTIME_SRC_SERVING_DEVICEQUEUEPOLICY_H
