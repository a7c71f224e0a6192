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

#include "ExtractIf.h"
#include "Policies.h"

#include <algorithm>
#include <deque>

namespace kiln::rt::serving {

namespace {

class RoundRobinPolicy final : public SchedulingPolicy {
public:
  RoundRobinPolicy(const PoolOptions &options, int modelCount, int deviceCount)
      : capacity_(options.queue.capacityPerLevel), nextTurn_(modelCount, 0),
        queues_(deviceCount) {}

  const char *name() const override { return "round-robin"; }
  void onModelAdded(int modelCount) override {
    nextTurn_.resize(size_t(modelCount), 0);
  }

  void enqueue(DevicePool &pool, Request request) override {
    std::vector<int> devices = pool.hostingDevices(request.modelIndex);
    if (devices.empty())
      return pool.reject(request, RejectReason::kNoCapacity);
    int device = devices[nextTurn_[request.modelIndex]++ % devices.size()];
    if (queues_[device].size() >= capacity_)
      return pool.reject(request, RejectReason::kQueueFull);
    queues_[device].push_back(std::move(request));
  }

  std::optional<Batch> nextBatch(DevicePool &pool, int device) override {
    auto &queue = queues_[device];
    while (!queue.empty()) {
      int model = queue.front().modelIndex;
      if (pool.canServe(device, model)) {
        Batch batch;
        batch.model = model;
        batch.requests.push_back(std::move(queue.front()));
        queue.pop_front();
        return batch;
      }
      if (pool.replicaState(model, device) == ReplicaState::kLoading)
        return std::nullopt; // Waits for its replica, in order.
      // The replica went away under it: send it to another turn.
      Request orphan = std::move(queue.front());
      queue.pop_front();
      enqueue(pool, std::move(orphan));
    }
    return std::nullopt;
  }

  std::optional<Request> cancel(RequestId id) override {
    for (auto &queue : queues_) {
      auto it = std::find_if(queue.begin(), queue.end(),
                             [&](const Request &r) { return r.id == id; });
      if (it == queue.end())
        continue;
      Request request = std::move(*it);
      queue.erase(it);
      return request;
    }
    return std::nullopt;
  }

  std::size_t queuedFor(int model) const override {
    std::size_t count = 0;
    for (const auto &queue : queues_)
      for (const Request &r : queue)
        count += r.modelIndex == model;
    return count;
  }

  std::vector<Request> takeAll(int model) override {
    std::vector<Request> taken;
    for (auto &queue : queues_) {
      std::vector<Request> mine = extractIf(
          queue, [&](const Request &r) { return r.modelIndex == model; });
      taken.insert(taken.end(), std::make_move_iterator(mine.begin()),
                   std::make_move_iterator(mine.end()));
    }
    return taken;
  }

private:
  std::size_t capacity_;
  std::vector<std::size_t> nextTurn_;
  std::vector<std::deque<Request>> queues_;
};

} // namespace

std::unique_ptr<SchedulingPolicy>
makeRoundRobinPolicy(const PoolOptions &options, int modelCount,
                     int deviceCount) {
  return std::make_unique<RoundRobinPolicy>(options, modelCount, deviceCount);
}

} // namespace kiln::rt::serving
