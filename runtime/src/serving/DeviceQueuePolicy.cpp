//===- DeviceQueuePolicy.cpp - Baselines with a queue per device ----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "DeviceQueuePolicy.h"

#include "ExtractIf.h"

namespace kiln::rt::serving {

void DeviceQueuePolicy::enqueue(DevicePool &pool, Request request) {
  std::vector<int> devices = pool.hostingDevices(request.modelIndex);
  if (devices.empty())
    return pool.reject(request, RejectReason::kNoCapacity);
  auto &queue = queues_[std::size_t(chooseDevice(pool, request, devices))];
  if (queue.size() >= capacity_)
    return pool.reject(request, RejectReason::kQueueFull);
  queue.push_back(std::move(request));
}

std::optional<Batch> DeviceQueuePolicy::nextBatch(DevicePool &pool,
                                                  int device) {
  auto &queue = queues_[std::size_t(device)];
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
    // The replica went away under it: it is sent again.
    Request orphan = std::move(queue.front());
    queue.pop_front();
    enqueue(pool, std::move(orphan));
  }
  return std::nullopt;
}

std::optional<Request> DeviceQueuePolicy::cancel(RequestId id) {
  for (auto &queue : queues_)
    if (std::optional<Request> request = takeFirstIf(
            queue, [&](const Request &r) { return r.id == id; }))
      return request;
  return std::nullopt;
}

std::size_t DeviceQueuePolicy::queuedFor(int model) const {
  std::size_t count = 0;
  for (const auto &queue : queues_)
    for (const Request &r : queue)
      count += r.modelIndex == model;
  return count;
}

std::vector<Request> DeviceQueuePolicy::takeAll(int model) {
  std::vector<Request> taken;
  for (auto &queue : queues_) {
    std::vector<Request> mine = extractIf(
        queue, [&](const Request &r) { return r.modelIndex == model; });
    taken.insert(taken.end(), std::make_move_iterator(mine.begin()),
                 std::make_move_iterator(mine.end()));
  }
  return taken;
}

} // namespace kiln::rt::serving
