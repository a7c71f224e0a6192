//===- SchedulingPolicy.h - What to queue, what to run next -----*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// DevicePool owns the mechanics (ledger, replicas, device state, exactly one
// response per request); a policy owns the decisions: whether to admit a
// request, which requests an idle device runs next, and (for adaptive
// policies) how placement follows load. Kiln's policy and the baselines
// (FIFO, round-robin, join-the-shortest-queue, Triton-like) implement this
// one interface, so comparisons differ in decisions only.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_SERVING_SCHEDULINGPOLICY_H
#define KILN_RUNTIME_SERVING_SCHEDULINGPOLICY_H

#include "kiln/runtime/serving/Request.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kiln::rt::serving {

class DevicePool;
struct PoolOptions;

/// Requests of one model that run as one execution.
struct Batch {
  int model = -1;
  std::vector<Request> requests;
};

/// Thread-compatible; called by DevicePool only.
class SchedulingPolicy {
public:
  virtual ~SchedulingPolicy() = default;
  virtual const char *name() const = 0;

  /// Queues `request` or answers it with pool.reject(). The pool has checked
  /// that its model exists and has (or is getting) a replica.
  virtual void enqueue(DevicePool &pool, Request request) = 0;
  /// The next batch for idle `device`, or nullopt to leave it idle. May
  /// reject queued requests that can no longer make their deadline.
  virtual std::optional<Batch> nextBatch(DevicePool &pool, int device) = 0;
  /// A batch of high-priority requests for `device`'s high-priority stream
  /// while its normal stream is busy, or nullopt. Never the model running
  /// on the normal stream: a replica has one arena.
  virtual std::optional<Batch> nextHighPriorityBatch(DevicePool &, int) {
    return std::nullopt;
  }
  /// Removes a queued request; nullopt when it is not queued.
  virtual std::optional<Request> cancel(RequestId id) = 0;
  /// Requests waiting for `model`.
  virtual std::size_t queuedFor(int model) const = 0;
  /// Removes every request of `model` still queued (the pool answers them).
  virtual std::vector<Request> takeAll(int model) = 0;
  /// Periodic placement decisions (replication, moves, eviction).
  virtual void onTick(DevicePool &) {}
  /// A model joined the running pool: it now has `modelCount` models.
  virtual void onModelAdded(int modelCount) = 0;
};

/// Kiln's policy and four baselines: one global FIFO, per-device queues
/// filled in turn, join-the-shortest-queue, and Triton's dynamic batcher.
enum class PolicyKind {
  kKiln,
  kFifo,
  kRoundRobin,
  kShortestQueue,
  kTritonLike
};

/// "kiln", "fifo", "round-robin", "jsq", "triton".
const char *policyKindName(PolicyKind kind);
std::optional<PolicyKind> parsePolicyKind(const std::string &name);

std::unique_ptr<SchedulingPolicy> makePolicy(PolicyKind kind,
                                             const PoolOptions &options,
                                             int modelCount, int deviceCount);

} // namespace kiln::rt::serving

#endif // KILN_RUNTIME_SERVING_SCHEDULINGPOLICY_H
