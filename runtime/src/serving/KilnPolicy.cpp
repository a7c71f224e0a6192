//===- KilnPolicy.cpp - Priorities, deadlines, batching, adaptation -------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Kiln's policy, from the lessons in shared/reference/resource-manager.md:
//  - admit by deadline: a request predicted to miss its SLO is rejected at
//    arrival, and queued ones are dropped once they cannot make it, so
//    capacity goes to requests that still count (goodput);
//  - priority levels bypass each other, with aging bounding starvation;
//  - an idle device runs the most urgent model it holds (level, then
//    earliest deadline) and batches as many of its requests as the
//    artifact's batch variants allow while every one still meets its
//    deadline, choosing the variant with the best throughput;
//  - high-priority batches are sized for latency instead: split over the
//    model's replicas, lower levels only in the padding, and run on a busy
//    device's high-priority stream (at the next step boundary) when no
//    idle device holds the model;
//  - a short batching window lets a burst arrive before it is split;
//  - while high-priority traffic of a model is about, its low-priority
//    batches are kept short: they share its one arena and cannot be
//    preempted;
//  - on tick: evict idle replicas, replicate a hot model (by measured
//    device time) onto free memory, or re-place (shrink or move a cooler
//    model) with a cooldown and a minimum gain.
//
//===----------------------------------------------------------------------===//

#include "Policies.h"

#include <algorithm>
#include <functional>
#include <queue>
#include <tuple>

namespace kiln::rt::serving {

namespace {

class KilnPolicy final : public SchedulingPolicy {
public:
  KilnPolicy(const PoolOptions &options, int modelCount)
      : options_(options), queues_(modelCount, RequestQueue(options.queue)) {}

  const char *name() const override { return "kiln"; }
  void onModelAdded(int modelCount) override {
    queues_.resize(size_t(modelCount), RequestQueue(options_.queue));
  }

  void enqueue(DevicePool &pool, Request request) override {
    if (options_.deadlineAdmission && request.deadline != kNoDeadline &&
        predictFinish(pool, request) > request.deadline)
      return pool.reject(request, RejectReason::kDeadlineInfeasible);
    if (!queues_[request.modelIndex].push(request).isOk())
      return pool.reject(request, RejectReason::kQueueFull);
  }

  std::optional<Batch> nextBatch(DevicePool &pool, int device) override;
  std::optional<Batch> nextHighPriorityBatch(DevicePool &pool,
                                             int device) override;

  std::optional<Request> cancel(RequestId id) override {
    for (auto &queue : queues_)
      if (std::optional<Request> request = queue.cancel(id))
        return request;
    return std::nullopt;
  }

  std::size_t queuedFor(int model) const override {
    return queues_[model].size();
  }

  std::vector<Request> takeAll(int model) override {
    return queues_[model].removeIf([](const Request &) { return true; });
  }

  void onTick(DevicePool &pool) override;

private:
  int batchLimit(const DevicePool &pool, int model) const {
    return options_.batching ? pool.model(model).profile.largestBatch() : 1;
  }
  Micros predictFinish(const DevicePool &pool, const Request &request) const;
  void dropExpired(DevicePool &pool, int model);
  Micros lowPriorityLatencyCap(const DevicePool &pool, int device,
                               int model) const;
  /// The most urgent model servable on `device` (skipping `exclude`), after
  /// dropping expired requests; with `levelZeroOnly`, only models whose
  /// most urgent request competes at level 0. -1 when none.
  int mostUrgentModel(DevicePool &pool, int device, int exclude,
                      bool levelZeroOnly);
  /// Sizes a batch led by `urgent` level-0 requests out of `taken`.
  int highPriorityBatchSize(const DevicePool &pool, int device, int model,
                            const std::vector<Request> &taken,
                            int urgent) const;
  /// Pops up to the batch limit, keeps `size(taken)` of them, returns the
  /// rest to the queue.
  template <typename ChooseSize>
  Batch takeBatch(DevicePool &pool, int model, ChooseSize chooseSize);
  int chooseBatchSize(const DevicePool &pool, int device, int model,
                      const std::vector<Request> &taken, Micros cap) const;

  /// Utilisation of each replica of `model` if it had `replicas` replicas:
  /// the device time it measurably used over the rate window (batching
  /// included) spread over that many.
  double utilisation(const DevicePool &pool, int model, int replicas) const {
    double busy =
        pool.measuredUtilisation(model) *
        double(std::max<std::size_t>(1, pool.servingDevices(model).size()));
    return busy / std::max(1, replicas);
  }
  bool coolingDown(const DevicePool &pool, int model) const {
    return pool.now() - pool.lastPlacementChange(model) < options_.cooldown;
  }
  bool evictIdle(DevicePool &pool);
  bool replicateOrReplace(DevicePool &pool);

  PoolOptions options_;
  std::vector<RequestQueue> queues_;
};

Micros KilnPolicy::predictFinish(const DevicePool &pool,
                                 const Request &request) const {
  int model = request.modelIndex;
  // Replay the queue ahead of this request onto the model's replicas, each
  // batch going to the replica free first. Other models sharing a device
  // are ignored: an optimistic guess, so what this rejects is truly late.
  using Slot = std::pair<Micros, int>; // (free at, device)
  std::priority_queue<Slot, std::vector<Slot>, std::greater<Slot>> free;
  for (int device : pool.hostingDevices(model)) {
    Micros start = request.priority == 0
                       ? pool.highPriorityStartAt(device, model)
                       : pool.deviceFreeAt(device);
    free.emplace(std::max(start, pool.replicaReadyAt(model, device)), device);
  }
  if (free.empty())
    return kNoDeadline;
  std::size_t remaining = queues_[model].countAhead(request.priority) + 1;
  std::size_t limit = std::size_t(batchLimit(pool, model));
  while (true) {
    auto [start, device] = free.top();
    free.pop();
    std::size_t take = std::min(remaining, limit);
    Micros finish = start + pool.predictBatch(device, model, int(take));
    remaining -= take;
    if (remaining == 0)
      return finish;
    free.emplace(finish, device);
  }
}

void KilnPolicy::dropExpired(DevicePool &pool, int model) {
  // Infeasible even alone on the fastest device: nothing can save it.
  Micros alone = pool.unloadedLatency(model);
  Micros now = pool.now();
  for (const Request &request : queues_[model].removeIf([&](const Request &r) {
         return r.deadline != kNoDeadline && now + alone > r.deadline;
       }))
    pool.reject(request, RejectReason::kDeadlineExpired);
}

Micros KilnPolicy::lowPriorityLatencyCap(const DevicePool &pool, int device,
                                         int model) const {
  // A high-priority request may arrive while the batch runs and wait for
  // it: keep the batch short against the quickest such model. With the
  // high-priority stream only the batch's own model waits (one arena per
  // replica); others get in at the next step boundary.
  Micros cap = kNoDeadline;
  for (int m = 0; m < pool.modelCount(); ++m) {
    if (pool.replicaState(m, device) == ReplicaState::kAbsent)
      continue;
    if (options_.priorityStream && m != model)
      continue;
    if (pool.now() - pool.lastHighPriorityArrival(m) > options_.rateWindow)
      continue;
    cap = std::min(cap, Micros(options_.lowPriorityBatchCap *
                               double(pool.predictBatch(device, m, 1))));
  }
  return cap;
}

int KilnPolicy::chooseBatchSize(const DevicePool &pool, int device, int model,
                                const std::vector<Request> &taken,
                                Micros cap) const {
  // The longest prefix of `taken` (most urgent first) in which everyone
  // still meets their deadline and the batch stays under `cap`.
  Micros now = pool.now();
  Micros earliestDeadline = kNoDeadline;
  int feasible = 1;
  for (int k = 1; k <= int(taken.size()); ++k) {
    earliestDeadline = std::min(earliestDeadline, taken[k - 1].deadline);
    Micros latency = pool.predictBatch(device, model, k);
    if (now + latency > earliestDeadline || (k > 1 && latency > cap))
      break;
    feasible = k;
  }
  // A padded variant can waste more than it gains: a smaller exact variant
  // with better throughput is preferred (the rest waits for the next turn).
  const LatencyProfile &profile = pool.model(model).profile;
  int best = feasible;
  double bestRate =
      double(feasible) / double(pool.predictBatch(device, model, feasible));
  for (int size : profile.batchSizes()) {
    if (size >= feasible)
      break;
    double rate = double(size) / double(pool.predictBatch(device, model, size));
    if (rate > bestRate) {
      best = size;
      bestRate = rate;
    }
  }
  return best;
}

int KilnPolicy::mostUrgentModel(DevicePool &pool, int device, int exclude,
                                bool levelZeroOnly) {
  Micros now = pool.now();
  int chosen = -1;
  std::tuple<int, Micros, Micros, RequestId> chosenKey;
  for (int m = 0; m < pool.modelCount(); ++m) {
    if (m == exclude || queues_[m].empty() || !pool.canServe(device, m))
      continue;
    if (options_.deadlineAdmission)
      dropExpired(pool, m);
    const Request *head = queues_[m].peekBest(now);
    if (!head)
      continue;
    int level = queues_[m].effectivePriority(*head, now);
    if (levelZeroOnly && level != 0)
      continue;
    // Level first (levels bypass), then earliest deadline across models.
    std::tuple<int, Micros, Micros, RequestId> key{level, head->deadline,
                                                   head->arrival, head->id};
    if (chosen < 0 || key < chosenKey) {
      chosen = m;
      chosenKey = key;
    }
  }
  return chosen;
}

int KilnPolicy::highPriorityBatchSize(const DevicePool &pool, int device,
                                      int model,
                                      const std::vector<Request> &taken,
                                      int urgent) const {
  // Split the level-0 requests over the replicas so the last of them
  // finishes first: this device takes k now, the other replicas share the
  // rest as they free up (a burst of 16 on 4 replicas runs as 4 batches of
  // 4, not one of 16). Lower levels ride along only in the chosen variant's
  // padding, where they cost nothing.
  Micros now = pool.now();
  std::vector<Micros> others;
  for (int other : pool.servingDevices(model))
    if (other != device)
      others.push_back(pool.highPriorityStartAt(other, model));
  std::sort(others.begin(), others.end());
  auto spreadFinish = [&](int remaining) {
    Micros best = kNoDeadline;
    for (std::size_t used = 1; used <= others.size(); ++used) {
      int share = int((std::size_t(remaining) + used - 1) / used);
      Micros last = 0;
      for (std::size_t j = 0; j < used; ++j)
        last =
            std::max(last, others[j] + pool.predictBatch(device, model, share));
      best = std::min(best, last);
    }
    return best;
  };
  int bestCount = urgent;
  Micros bestMakespan = kNoDeadline;
  for (int k = 1; k <= urgent; ++k) {
    Micros mine = now + pool.predictBatch(device, model, k);
    int remaining = urgent - k;
    Micros makespan = mine;
    if (remaining > 0)
      makespan = std::max(
          mine, others.empty()
                    ? mine + pool.predictBatch(device, model, remaining)
                    : spreadFinish(remaining));
    if (makespan <= bestMakespan) { // Ties: the fuller batch.
      bestMakespan = makespan;
      bestCount = k;
    }
  }
  int slots = pool.model(model).profile.variantFor(bestCount);
  std::vector<Request> head(taken.begin(),
                            taken.begin() + std::min<int>(slots, taken.size()));
  return chooseBatchSize(pool, device, model, head, kNoDeadline);
}

template <typename ChooseSize>
Batch KilnPolicy::takeBatch(DevicePool &pool, int model,
                            ChooseSize chooseSize) {
  RequestQueue &queue = queues_[model];
  std::vector<Request> taken;
  int limit = batchLimit(pool, model);
  while (int(taken.size()) < limit && !queue.empty())
    taken.push_back(*queue.popBest(pool.now()));
  int size = chooseSize(taken);
  std::vector<Request> rest(std::make_move_iterator(taken.begin() + size),
                            std::make_move_iterator(taken.end()));
  taken.resize(size);
  queue.returnToFront(std::move(rest));
  return Batch{model, std::move(taken)};
}

std::optional<Batch> KilnPolicy::nextBatch(DevicePool &pool, int device) {
  Micros now = pool.now();
  int chosen = mostUrgentModel(pool, device, /*exclude=*/-1,
                               /*levelZeroOnly=*/false);
  if (chosen < 0)
    return std::nullopt;
  RequestQueue &queue = queues_[chosen];
  int limit = batchLimit(pool, chosen);
  // Batching window: a burst arrives over a few hundred microseconds; wait
  // that long for the first request's peers unless the batch is full
  // already or waiting would cost a deadline. The device waits for its
  // most urgent model rather than starting something longer meanwhile.
  if (options_.batchWindow > 0 && limit > 1 && pool.canWait() &&
      int(queue.size()) < limit) {
    const Request &head = *queue.peekBest(now);
    Micros windowEnd = head.arrival + options_.batchWindow;
    Micros finishAfterWait =
        windowEnd + pool.predictBatch(device, chosen, int(queue.size()));
    if (now < windowEnd && finishAfterWait <= head.deadline &&
        pool.wakeAt(windowEnd))
      return std::nullopt;
  }
  return takeBatch(pool, chosen, [&](const std::vector<Request> &taken) {
    // Taken most urgent first, so the requests at level 0 lead.
    int urgent = int(std::count_if(taken.begin(), taken.end(), [&](auto &r) {
      return queue.effectivePriority(r, now) == 0;
    }));
    if (urgent > 0)
      return highPriorityBatchSize(pool, device, chosen, taken, urgent);
    return chooseBatchSize(pool, device, chosen, taken,
                           lowPriorityLatencyCap(pool, device, chosen));
  });
}

std::optional<Batch> KilnPolicy::nextHighPriorityBatch(DevicePool &pool,
                                                       int device) {
  int chosen = mostUrgentModel(pool, device, pool.runningModel(device),
                               /*levelZeroOnly=*/true);
  if (chosen < 0)
    return std::nullopt;
  Micros now = pool.now();
  RequestQueue &queue = queues_[chosen];
  return takeBatch(pool, chosen, [&](const std::vector<Request> &taken) {
    int urgent = int(std::count_if(taken.begin(), taken.end(), [&](auto &r) {
      return queue.effectivePriority(r, now) == 0;
    }));
    return highPriorityBatchSize(pool, device, chosen, taken, urgent);
  });
}

// --- Adaptation -------------------------------------------------------------

bool KilnPolicy::evictIdle(DevicePool &pool) {
  if (options_.idleEviction <= 0)
    return false;
  Micros now = pool.now();
  bool evicted = false;
  for (int d = 0; d < pool.deviceCount(); ++d)
    for (int m = 0; m < pool.modelCount(); ++m) {
      if (!pool.canServe(d, m) || pool.isRunning(d, m) || !queues_[m].empty())
        continue;
      if (now - pool.replicaLastUsed(m, d) < options_.idleEviction ||
          now - pool.lastArrival(m) < options_.idleEviction)
        continue;
      evicted |= pool.evictModel(pool.model(m).name, d).isOk();
    }
  return evicted;
}

bool KilnPolicy::replicateOrReplace(DevicePool &pool) {
  // The hottest model not in its cooldown.
  int hot = -1;
  double hotUtil = options_.hotUtilisation;
  for (int m = 0; m < pool.modelCount(); ++m) {
    double util = utilisation(pool, m, int(pool.hostingDevices(m).size()));
    if (util > hotUtil && !coolingDown(pool, m)) {
      hot = m;
      hotUtil = util;
    }
  }
  if (hot < 0)
    return false;
  const ModelSpec &hotSpec = pool.model(hot);
  int hotReplicas = int(pool.hostingDevices(hot).size());

  // Load on a device as a whole: the utilisation its models bring.
  auto deviceLoad = [&](int d) {
    double load = 0;
    for (int m = 0; m < pool.modelCount(); ++m)
      if (pool.replicaState(m, d) != ReplicaState::kAbsent)
        load += utilisation(pool, m, int(pool.hostingDevices(m).size()));
    return load;
  };

  // Replication: free memory on a device without it, least loaded first.
  int target = -1;
  for (int d = 0; d < pool.deviceCount(); ++d) {
    if (pool.replicaState(hot, d) != ReplicaState::kAbsent ||
        !pool.ledger(d).fits(hotSpec.footprint))
      continue;
    if (target < 0 || deviceLoad(d) < deviceLoad(target))
      target = d;
  }
  if (target >= 0 && pool.loadModel(hotSpec.name, target).isOk()) {
    pool.notePlacementChange(hot, /*isMove=*/false);
    return true;
  }

  // Re-placement: make room on a device by shrinking a cooler model that
  // has other replicas, or by moving it (make-before-break) to a device
  // with room. Only when the predicted hottest utilisation drops by
  // minGain; never for a model in its cooldown.
  struct Plan {
    double gain = 0;
    int device = -1, victim = -1, moveTo = -1;
  } best;
  double hotAfter = utilisation(pool, hot, hotReplicas + 1);
  for (int d = 0; d < pool.deviceCount(); ++d) {
    if (pool.replicaState(hot, d) != ReplicaState::kAbsent)
      continue;
    for (int c = 0; c < pool.modelCount(); ++c) {
      if (c == hot || !pool.canServe(d, c) || coolingDown(pool, c))
        continue;
      const ModelSpec &victim = pool.model(c);
      if (pool.ledger(d).freeBytes() + victim.footprint.total() <
          hotSpec.footprint.total())
        continue;
      int victimReplicas = int(pool.hostingDevices(c).size());
      int moveTo = -1;
      double victimAfter;
      if (victimReplicas > 1) {
        victimAfter = utilisation(pool, c, victimReplicas - 1);
      } else {
        for (int e = 0; e < pool.deviceCount() && moveTo < 0; ++e)
          if (e != d && pool.replicaState(c, e) == ReplicaState::kAbsent &&
              pool.ledger(e).fits(victim.footprint))
            moveTo = e;
        if (moveTo < 0)
          continue; // Its only replica, and nowhere to move it.
        victimAfter = utilisation(pool, c, 1);
      }
      double before = std::max(hotUtil, utilisation(pool, c, victimReplicas));
      double after = std::max(hotAfter, victimAfter);
      double gain = before - after;
      if (gain >= options_.minGain && gain > best.gain)
        best = Plan{gain, d, c, moveTo};
    }
  }
  if (best.device < 0)
    return false;
  const std::string &victimName = pool.model(best.victim).name;
  Status made = best.moveTo >= 0
                    ? pool.moveReplica(victimName, best.device, best.moveTo)
                    : pool.unloadModel(victimName, best.device);
  if (!made.isOk())
    return false;
  pool.notePlacementChange(best.victim, /*isMove=*/true);
  // A moved victim frees its memory only once its new replica is up.
  if (pool.loadWhenFree(hotSpec.name, best.device).isOk())
    pool.notePlacementChange(hot, /*isMove=*/false);
  return true;
}

void KilnPolicy::onTick(DevicePool &pool) {
  // One placement change per tick keeps the pool from flapping.
  evictIdle(pool);
  replicateOrReplace(pool);
}

} // namespace

std::unique_ptr<SchedulingPolicy> makeKilnPolicy(const PoolOptions &options,
                                                 int modelCount) {
  return std::make_unique<KilnPolicy>(options, modelCount);
}

} // namespace kiln::rt::serving
