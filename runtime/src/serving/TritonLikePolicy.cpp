//===- TritonLikePolicy.cpp - Baseline: Triton's dynamic batcher ----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// What Triton Inference Server does with a model that has a dynamic
// batcher and priority levels: one queue per model, strict priority
// between levels and first-come within one (no aging), batches as large as
// the model allows out of what is queued, held back up to the maximum
// queue delay (the pool's batch window) for more requests to join. Each
// replica pulls from its model's queue; a device that hosts several models
// runs the one whose next request has waited longest. No deadline
// admission, no high-priority stream, no adaptation: Triton's placement is
// static (its instance groups).
//
//===----------------------------------------------------------------------===//

#include "ExtractIf.h"
#include "Policies.h"

#include <algorithm>
#include <deque>

namespace kiln::rt::serving {

namespace {

class TritonLikePolicy final : public SchedulingPolicy {
public:
  TritonLikePolicy(const PoolOptions &options, int modelCount)
      : options_(options), levels_(std::max(1, options.queue.priorityLevels)),
        queues_(std::size_t(modelCount), std::vector<std::deque<Request>>(
                                             std::size_t(levels_))) {}

  const char *name() const override { return "triton"; }
  void onModelAdded(int modelCount) override {
    queues_.resize(std::size_t(modelCount),
                   std::vector<std::deque<Request>>(std::size_t(levels_)));
  }

  void enqueue(DevicePool &pool, Request request) override {
    auto &queue = levelOf(request);
    if (queue.size() >= options_.queue.capacityPerLevel)
      return pool.reject(request, RejectReason::kQueueFull);
    queue.push_back(std::move(request));
  }

  std::optional<Batch> nextBatch(DevicePool &pool, int device) override {
    // The servable model whose head request (highest level first) has
    // waited longest.
    int chosen = -1;
    const Request *chosenHead = nullptr;
    for (int model = 0; model < int(queues_.size()); ++model) {
      const Request *head = headOf(model);
      if (!head || !pool.canServe(device, model))
        continue;
      if (!chosenHead || head->priority < chosenHead->priority ||
          (head->priority == chosenHead->priority &&
           head->arrival < chosenHead->arrival)) {
        chosen = model;
        chosenHead = head;
      }
    }
    if (chosen < 0)
      return std::nullopt;
    int limit =
        options_.batching ? pool.model(chosen).profile.largestBatch() : 1;
    // Triton's max_queue_delay: an incomplete batch waits for more.
    if (options_.batchWindow > 0 && limit > 1 && pool.canWait() &&
        int(queuedFor(chosen)) < limit) {
      Micros windowEnd = chosenHead->arrival + options_.batchWindow;
      if (pool.now() < windowEnd && pool.wakeAt(windowEnd))
        return std::nullopt;
    }
    Batch batch;
    batch.model = chosen;
    for (auto &queue : queues_[std::size_t(chosen)])
      while (!queue.empty() && int(batch.requests.size()) < limit) {
        batch.requests.push_back(std::move(queue.front()));
        queue.pop_front();
      }
    return batch;
  }

  std::optional<Request> cancel(RequestId id) override {
    for (auto &levels : queues_)
      for (auto &queue : levels)
        if (std::optional<Request> request = takeFirstIf(
                queue, [&](const Request &r) { return r.id == id; }))
          return request;
    return std::nullopt;
  }

  std::size_t queuedFor(int model) const override {
    std::size_t count = 0;
    for (const auto &queue : queues_[std::size_t(model)])
      count += queue.size();
    return count;
  }

  std::vector<Request> takeAll(int model) override {
    std::vector<Request> taken;
    for (auto &queue : queues_[std::size_t(model)]) {
      taken.insert(taken.end(), std::make_move_iterator(queue.begin()),
                   std::make_move_iterator(queue.end()));
      queue.clear();
    }
    return taken;
  }

private:
  std::deque<Request> &levelOf(const Request &request) {
    int level = std::clamp(request.priority, 0, levels_ - 1);
    return queues_[std::size_t(request.modelIndex)][std::size_t(level)];
  }
  const Request *headOf(int model) const {
    for (const auto &queue : queues_[std::size_t(model)])
      if (!queue.empty())
        return &queue.front();
    return nullptr;
  }

  PoolOptions options_;
  int levels_;
  /// By model, then priority level.
  std::vector<std::vector<std::deque<Request>>> queues_;
};

} // namespace

std::unique_ptr<SchedulingPolicy>
makeTritonLikePolicy(const PoolOptions &options, int modelCount) {
  return std::make_unique<TritonLikePolicy>(options, modelCount);
}

} // namespace kiln::rt::serving
