//===- DevicePool.h - Several models sharing a pool of devices --*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The resource manager's mechanics, written once against Device and Clock so
// the same code runs in the simulator and on real devices:
//  - a MemoryLedger per device: a replica is loaded only when its whole
//    footprint fits, so serving never runs a device out of memory;
//  - replica life cycle: loading -> ready -> draining -> released, with
//    make-before-break moves (the new replica is up before the old drains);
//  - eviction to host memory and reload on demand, paying the reload time;
//  - dispatch: whenever a device is idle it asks the policy for a batch;
//  - exactly one Response per submitted request.
// Decisions (admission, batching, priorities, adaptation) belong to the
// SchedulingPolicy.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_SERVING_DEVICEPOOL_H
#define KILN_RUNTIME_SERVING_DEVICEPOOL_H

#include "kiln/runtime/Status.h"
#include "kiln/runtime/serving/Clock.h"
#include "kiln/runtime/serving/Device.h"
#include "kiln/runtime/serving/MemoryLedger.h"
#include "kiln/runtime/serving/ModelSpec.h"
#include "kiln/runtime/serving/Request.h"
#include "kiln/runtime/serving/RequestQueue.h"
#include "kiln/runtime/serving/SchedulingPolicy.h"
#include "kiln/runtime/serving/Timer.h"

#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace kiln::rt::serving {

struct PoolOptions {
  PolicyKind policy = PolicyKind::kKiln;
  /// Priority levels, per-level capacity (back-pressure) and aging.
  QueueOptions queue;
  /// Kiln: run several requests per execution when the model has variants.
  bool batching = true;
  /// Kiln: reject at arrival what is predicted to miss its deadline, and
  /// drop queued requests once they can no longer make it.
  bool deadlineAdmission = true;
  /// Kiln: run level-0 batches on the device's high-priority stream while
  /// a lower-priority batch runs (they interleave at step boundaries).
  bool priorityStream = true;
  /// Kiln: how long the first request of a batch may wait for others (a
  /// burst arriving together then runs as batches on several devices
  /// instead of one request each). Needs a Timer; 0 never waits.
  Micros batchWindow = 0;
  /// Kiln: while priority-0 requests of a model arrive, batches without
  /// any run no longer than this multiple of the model's unloaded latency,
  /// so a high-priority arrival never waits behind a long batch.
  double lowPriorityBatchCap = 1.5;

  /// Kiln adaptation, run by tick(). Window over which arrival rates and
  /// device time are measured.
  Micros rateWindow = 10'000'000;
  /// A model whose measured device time per replica (busy fraction over
  /// the window) exceeds this is hot.
  double hotUtilisation = 0.6;
  /// A move must lower the hottest affected utilisation by at least this.
  double minGain = 0.1;
  /// No model is moved, replicated or shrunk twice within this time.
  Micros cooldown = 30'000'000;
  /// Replicas idle this long are evicted to host memory; 0 never.
  Micros idleEviction = 0;
};

/// Where a replica is in its life cycle.
enum class ReplicaState { kAbsent, kLoading, kReady, kDraining };

/// Counters the report prints.
struct PoolCounters {
  std::uint64_t loads = 0;
  std::uint64_t reloadsFromHost = 0;
  std::uint64_t unloads = 0;
  std::uint64_t evictions = 0;
  std::uint64_t replications = 0;
  std::uint64_t moves = 0;
  std::uint64_t reloads = 0; ///< New versions (reloadModel).
  std::uint64_t batches = 0;
  std::uint64_t batchedRequests = 0;
  std::uint64_t responses = 0;
};

/// Thread-compatible: callers (the simulator's event loop, or a device
/// thread holding a lock) serialise every call, device callbacks included.
class DevicePool {
public:
  using ResponseSink = std::function<void(const Response &)>;

  /// `clock`, `timer` and every added device must outlive the pool.
  /// Without a timer the pool never waits to fill a batch.
  DevicePool(const Clock &clock, PoolOptions options, ResponseSink sink,
             Timer *timer = nullptr);
  ~DevicePool();

  /// Adds a device (not owned); returns its index.
  int addDevice(Device &device);
  /// Registers a model (before or after start); it is loaded by loadModel
  /// or on demand.
  Status addModel(ModelSpec model);
  /// Fixes the policy once every device and model is added.
  void start();
  /// Replaces a model's latency profile (a live pool refines it from the
  /// executions it measures). INVALID_ARGUMENT for an empty profile.
  Status setProfile(int model, LatencyProfile profile);

  /// Reserves memory and starts loading a replica of `model` on `device`.
  /// RESOURCE_EXHAUSTED when it does not fit; FAILED_PRECONDITION when a
  /// replica is already there.
  Status loadModel(const std::string &model, int device);
  /// Drains and releases a replica: no new batches start on it; memory is
  /// returned once its running batch (if any) ends.
  Status unloadModel(const std::string &model, int device);
  /// As unloadModel, keeping the weights in host memory: the next load of
  /// this model pays its reload time instead of its cold load time.
  Status evictModel(const std::string &model, int device);
  /// Make-before-break: loads on `to`, and only once that replica is ready
  /// drains and releases the one on `from`.
  Status moveReplica(const std::string &model, int from, int to);

  /// Loads `model` on `device` as soon as draining replicas there have
  /// freed enough memory (now, when it already fits).
  Status loadWhenFree(const std::string &model, int device);
  /// A new version of a registered model (its file replaced, measured
  /// again): the spec is replaced and every ready replica drains and loads
  /// again in place, the new version once the old one's running batch has
  /// ended. Requests that arrive meanwhile wait for it; none is lost. A
  /// host copy of the old weights is dropped. NOT_FOUND for an unknown
  /// model; FAILED_PRECONDITION while a replica of it is loading or
  /// draining (its version would be unclear).
  Status reloadModel(ModelSpec model);

  /// Accepts a request; exactly one Response reaches the sink for it, now
  /// or later.
  void submit(Request request);
  /// Cancels a queued request (answered as cancelled). False when it is
  /// unknown, already running or answered.
  bool cancel(RequestId id);
  /// Periodic work: the policy's adaptation. Call every ~100 ms.
  void tick();

  // --- State, for policies, tests and reports ---------------------------
  Micros now() const { return clock_.now(); }
  const PoolOptions &options() const { return options_; }
  int deviceCount() const { return int(devices_.size()); }
  int modelCount() const { return int(models_.size()); }
  /// Index of a model by name, or -1.
  int modelIndex(const std::string &name) const;
  const ModelSpec &model(int index) const { return models_[index].spec; }
  const Device &device(int index) const { return *devices_[index].device; }
  const MemoryLedger &ledger(int device) const {
    return devices_[device].ledger;
  }
  ReplicaState replicaState(int model, int device) const;
  /// True when a batch of `model` may start on `device` now (ready, not
  /// draining).
  bool canServe(int device, int model) const {
    return replicaState(model, device) == ReplicaState::kReady;
  }
  /// Devices with a ready replica of `model`.
  std::vector<int> servingDevices(int model) const;
  /// Devices with a ready or loading replica of `model`.
  std::vector<int> hostingDevices(int model) const;
  /// Neither stream runs a batch.
  bool deviceIdle(int device) const {
    return !devices_[device].lanes[0].busy && !devices_[device].lanes[1].busy;
  }
  /// The normal stream runs a batch without high-priority requests (which
  /// must not be paused) and the high-priority stream is free.
  bool highStreamFree(int device) const {
    const DeviceSlot &slot = devices_[device];
    return slot.lanes[0].busy && !slot.lanes[0].hasHighPriority &&
           !slot.lanes[1].busy;
  }
  /// The model on `device`'s normal stream, or -1.
  int runningModel(int device) const {
    const Lane &lane = devices_[device].lanes[0];
    return lane.busy ? lane.running.model : -1;
  }
  /// True when either stream of `device` runs `model`.
  bool isRunning(int device, int model) const;
  /// When a level-0 batch of `model` could start on `device`: now when
  /// idle, at the running batch's next step boundary when the
  /// high-priority stream may take it, else when the device frees.
  Micros highPriorityStartAt(int device, int model) const;
  /// When the replica last started a batch (or became ready).
  Micros replicaLastUsed(int model, int device) const {
    return devices_[device].replicas[model].lastUsed;
  }
  /// When a request for `model` last arrived.
  Micros lastArrival(int model) const { return models_[model].lastArrival; }
  /// When `device` can start new work: now if idle, else its batch's end.
  Micros deviceFreeAt(int device) const;
  /// When `model` can first run on `device`: its replica's ready time.
  Micros replicaReadyAt(int model, int device) const;
  /// Predicted latency of `requests` requests of `model` on `device`.
  Micros predictBatch(int device, int model, int requests) const;
  /// The model's latency alone on the fastest device: its unloaded latency.
  Micros unloadedLatency(int model) const;
  /// Arrivals per second of `model` over the last rateWindow.
  double arrivalRate(int model) const;
  /// Device time `model` ran over the last rateWindow, per replica: its
  /// measured utilisation (batching included; 1 = saturated).
  double measuredUtilisation(int model) const;
  /// When a high-priority (level 0) request of `model` last arrived.
  Micros lastHighPriorityArrival(int model) const {
    return models_[model].lastHighPriority;
  }
  /// When `model` was last replicated, moved or shrunk (cooldown).
  Micros lastPlacementChange(int model) const {
    return models_[model].lastPlacementChange;
  }
  void notePlacementChange(int model, bool isMove);
  /// Requests waiting in the policy's queues, running, and in total
  /// answered.
  std::size_t queued() const;
  std::size_t running() const;
  const PoolCounters &counters() const { return counters_; }

  /// Asks for a dispatch round at `time` (a batching window closing); for
  /// policies. False without a timer: then the policy must not wait.
  bool wakeAt(Micros time);
  bool canWait() const { return timer_ != nullptr; }

  /// Answers a request as rejected; for policies.
  void reject(const Request &request, RejectReason reason);

private:
  struct Replica {
    ReplicaState state = ReplicaState::kAbsent;
    Micros readyAt = 0;
    Micros lastUsed = 0;
    bool keepOnHost = false; ///< Eviction: the weights stay in host memory.
  };
  /// One stream of a device: 0 normal, 1 high priority.
  struct Lane {
    bool busy = false;
    bool hasHighPriority = false; ///< Holds a level-0 request.
    Micros busyUntil = 0;
    Batch running;
  };
  struct DeviceSlot {
    Device *device;
    MemoryLedger ledger;
    std::vector<Replica> replicas; ///< Indexed by model.
    Lane lanes[2];
    /// Loads waiting for a draining replica to free memory here.
    std::deque<int> loadsAfterDrain;
  };
  struct ModelSlot {
    ModelSpec spec;
    bool onHost = false; ///< Weights cached in host memory.
    std::deque<Micros> recentArrivals;
    /// (start, duration) of its recent batches, for measuredUtilisation.
    std::deque<std::pair<Micros, Micros>> recentBatches;
    Micros lastHighPriority = -1'000'000'000;
    Micros lastArrival = -1'000'000'000;
    Micros lastPlacementChange = -1'000'000'000;
    /// Moves waiting for the new replica: (from device, to device).
    std::vector<std::pair<int, int>> pendingMoves;
  };

  void deliver(Response response);
  Status beginLoad(int model, int device);
  void onLoaded(int model, int device);
  Status beginDrain(int model, int device, bool keepOnHost);
  void release(int model, int device);
  /// Gets a replica of `model` loading somewhere, evicting idle replicas
  /// of other models if that is what it takes.
  Status ensureReplica(int model);
  void dispatch();
  void startBatch(int device, int lane, Batch batch);
  void onBatchDone(int device, int lane);

  const Clock &clock_;
  PoolOptions options_;
  ResponseSink sink_;
  Timer *timer_;
  std::set<Micros> wakeups_;
  std::unique_ptr<SchedulingPolicy> policy_;
  std::vector<DeviceSlot> devices_;
  std::vector<ModelSlot> models_;
  std::map<std::string, int> modelIndex_;
  PoolCounters counters_;
  bool dispatching_ = false;
};

} // namespace kiln::rt::serving

#endif // KILN_RUNTIME_SERVING_DEVICEPOOL_H
