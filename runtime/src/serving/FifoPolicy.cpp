//===- FifoPolicy.cpp - Baseline: one global first-come queue -------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Baseline B0 of the test plan: every request joins one queue in arrival
// order, whatever its priority or deadline; an idle device runs the oldest
// request it holds a replica for, one at a time. No batching, no admission
// beyond the bounded queue, no adaptation.
//
//===----------------------------------------------------------------------===//

#include "ExtractIf.h"
#include "Policies.h"

#include <algorithm>
#include <deque>

namespace kiln::rt::serving {

namespace {

class FifoPolicy final : public SchedulingPolicy {
public:
  explicit FifoPolicy(const PoolOptions &options)
      : capacity_(options.queue.capacityPerLevel *
                  std::max(1, options.queue.priorityLevels)) {}

  const char *name() const override { return "fifo"; }
  void onModelAdded(int) override {}

  void enqueue(DevicePool &pool, Request request) override {
    if (queue_.size() >= capacity_)
      return pool.reject(request, RejectReason::kQueueFull);
    queue_.push_back(std::move(request));
  }

  std::optional<Batch> nextBatch(DevicePool &pool, int device) override {
    auto it = std::find_if(queue_.begin(), queue_.end(), [&](const Request &r) {
      return pool.canServe(device, r.modelIndex);
    });
    if (it == queue_.end())
      return std::nullopt;
    Batch batch;
    batch.model = it->modelIndex;
    batch.requests.push_back(std::move(*it));
    queue_.erase(it);
    return batch;
  }

  std::optional<Request> cancel(RequestId id) override {
    return takeFirstIf(queue_, [&](const Request &r) { return r.id == id; });
  }

  std::size_t queuedFor(int model) const override {
    std::size_t count = 0;
    for (const Request &r : queue_)
      count += modelOf(r) == model;
    return count;
  }

  std::vector<Request> takeAll(int model) override {
    return extractIf(queue_,
                     [&](const Request &r) { return modelOf(r) == model; });
  }

private:
  static int modelOf(const Request &request) { return request.modelIndex; }

  std::size_t capacity_;
  std::deque<Request> queue_;
};

} // namespace

std::unique_ptr<SchedulingPolicy> makeFifoPolicy(const PoolOptions &options) {
  return std::make_unique<FifoPolicy>(options);
}

} // namespace kiln::rt::serving
