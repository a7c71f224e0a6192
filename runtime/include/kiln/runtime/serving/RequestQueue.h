//===- RequestQueue.h - Bounded priority queue with aging -------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// One model's waiting requests. Priority levels bypass the levels below
// them; aging raises a waiting request one level per `agingStep`, so a
// request at level L waits at most about L * agingStep before it competes as
// level 0 (and, being older, wins its ties). Each level holds at most
// `capacityPerLevel` requests: beyond that a push is refused, which is the
// back-pressure a client sees as a rejection with a reason.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_SERVING_REQUESTQUEUE_H
#define KILN_RUNTIME_SERVING_REQUESTQUEUE_H

#include "kiln/runtime/Status.h"
#include "kiln/runtime/serving/Request.h"

#include <deque>
#include <functional>
#include <optional>
#include <vector>

namespace kiln::rt::serving {

struct QueueOptions {
  int priorityLevels = 2;
  std::size_t capacityPerLevel = 1024;
  /// Time after which a waiting request counts one level higher; 0: no aging.
  Micros agingStep = 0;
};

/// Thread-compatible.
class RequestQueue {
public:
  explicit RequestQueue(QueueOptions options = {});

  /// Queues `request`. INVALID_ARGUMENT for a priority outside the levels;
  /// RESOURCE_EXHAUSTED when its level is full.
  Status push(const Request &request);

  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }
  std::size_t sizeAtLevel(int level) const { return levels_[level].size(); }

  /// The level `request` competes at after aging.
  int effectivePriority(const Request &request, Micros now) const;
  /// The request popBest would return, or null when empty.
  const Request *peekBest(Micros now) const;
  /// Removes and returns the most urgent request: lowest effective level,
  /// then earliest arrival, then lowest id.
  std::optional<Request> popBest(Micros now);
  /// Puts back requests just taken by popBest, in the order taken: each
  /// returns to the head of its level, so the queue is as it was.
  void returnToFront(std::vector<Request> requests);
  /// Removes a queued request; nullopt when it is not queued here.
  std::optional<Request> cancel(RequestId id);
  /// Removes every request `drop` selects, in queue order.
  std::vector<Request>
  removeIf(const std::function<bool(const Request &)> &drop);
  /// Requests that would be served before a new one at `level` (aging
  /// ignored: a bound for admission, not a promise).
  std::size_t countAhead(int level) const;

private:
  int bestLevel(Micros now) const;

  QueueOptions options_;
  std::vector<std::deque<Request>> levels_;
  std::size_t size_ = 0;
};

} // namespace kiln::rt::serving

#endif // KILN_RUNTIME_SERVING_REQUESTQUEUE_H
