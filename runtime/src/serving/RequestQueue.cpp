//===- RequestQueue.cpp - Bounded priority queue with aging ---------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/serving/RequestQueue.h"

#include "ExtractIf.h"

#include <algorithm>
#include <string>
#include <tuple>

namespace kiln::rt::serving {

RequestQueue::RequestQueue(QueueOptions options) : options_(options) {
  levels_.resize(std::max(1, options_.priorityLevels));
}

Status RequestQueue::push(const Request &request) {
  if (request.priority < 0 || request.priority >= int(levels_.size()))
    return invalidArgument("priority " + std::to_string(request.priority) +
                           " of request " + std::to_string(request.id) +
                           " is outside levels 0.." +
                           std::to_string(levels_.size() - 1));
  auto &level = levels_[request.priority];
  if (level.size() >= options_.capacityPerLevel)
    return Status(StatusCode::kResourceExhausted,
                  "queue of model '" + request.model + "' at priority " +
                      std::to_string(request.priority) + " is full (" +
                      std::to_string(level.size()) + " requests)");
  // Arrivals come in time order, so appending keeps each level FIFO.
  level.push_back(request);
  ++size_;
  return Status::ok();
}

int RequestQueue::effectivePriority(const Request &request, Micros now) const {
  if (options_.agingStep <= 0)
    return request.priority;
  Micros waited = std::max<Micros>(0, now - request.arrival);
  Micros promoted = waited / options_.agingStep;
  return int(std::max<Micros>(0, request.priority - promoted));
}

int RequestQueue::bestLevel(Micros now) const {
  // Each level is FIFO, so its head is its oldest and most aged request:
  // comparing heads is enough.
  int best = -1;
  std::tuple<int, Micros, RequestId> bestKey;
  for (int level = 0; level < int(levels_.size()); ++level) {
    if (levels_[level].empty())
      continue;
    const Request &head = levels_[level].front();
    std::tuple<int, Micros, RequestId> key{effectivePriority(head, now),
                                           head.arrival, head.id};
    if (best < 0 || key < bestKey) {
      best = level;
      bestKey = key;
    }
  }
  return best;
}

const Request *RequestQueue::peekBest(Micros now) const {
  int level = bestLevel(now);
  return level < 0 ? nullptr : &levels_[level].front();
}

std::optional<Request> RequestQueue::popBest(Micros now) {
  int level = bestLevel(now);
  if (level < 0)
    return std::nullopt;
  Request request = std::move(levels_[level].front());
  levels_[level].pop_front();
  --size_;
  return request;
}

void RequestQueue::returnToFront(std::vector<Request> requests) {
  // Taken in order, so each level's taken requests were its head: pushing
  // them back front-first in reverse restores that head exactly.
  for (auto it = requests.rbegin(); it != requests.rend(); ++it) {
    levels_[it->priority].push_front(std::move(*it));
    ++size_;
  }
}

std::optional<Request> RequestQueue::cancel(RequestId id) {
  for (auto &level : levels_) {
    auto it = std::find_if(level.begin(), level.end(),
                           [&](const Request &r) { return r.id == id; });
    if (it == level.end())
      continue;
    Request request = std::move(*it);
    level.erase(it);
    --size_;
    return request;
  }
  return std::nullopt;
}

std::vector<Request>
RequestQueue::removeIf(const std::function<bool(const Request &)> &drop) {
  std::vector<Request> removed;
  for (auto &level : levels_) {
    std::vector<Request> dropped = extractIf(level, drop);
    removed.insert(removed.end(), std::make_move_iterator(dropped.begin()),
                   std::make_move_iterator(dropped.end()));
  }
  size_ -= removed.size();
  return removed;
}

std::size_t RequestQueue::countAhead(int level) const {
  std::size_t ahead = 0;
  for (int l = 0; l <= level && l < int(levels_.size()); ++l)
    ahead += levels_[l].size();
  return ahead;
}

} // namespace kiln::rt::serving
