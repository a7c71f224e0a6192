//===- DevicePool.cpp - Several models sharing a pool of devices ----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/serving/DevicePool.h"

#include <algorithm>
#include <cassert>

namespace kiln::rt::serving {

DevicePool::DevicePool(const Clock &clock, PoolOptions options,
                       ResponseSink sink, Timer *timer)
    : clock_(clock), options_(std::move(options)), sink_(std::move(sink)),
      timer_(timer) {}

DevicePool::~DevicePool() = default;

int DevicePool::addDevice(Device &device) {
  const DeviceSpec &spec = device.spec();
  DeviceSlot slot{
      &device,
      MemoryLedger(spec.name, spec.memoryBytes, spec.contextReserveBytes),
      std::vector<Replica>(models_.size()),
      {},
      {}};
  devices_.push_back(std::move(slot));
  return int(devices_.size()) - 1;
}

Status DevicePool::addModel(ModelSpec model) {
  if (model.name.empty())
    return invalidArgument("model name is empty");
  if (modelIndex_.count(model.name))
    return invalidArgument("model '" + model.name + "' is already registered");
  if (model.profile.empty())
    return invalidArgument("model '" + model.name + "' has no latency profile");
  modelIndex_[model.name] = int(models_.size());
  ModelSlot slot;
  slot.spec = std::move(model);
  models_.push_back(std::move(slot));
  for (auto &device : devices_)
    device.replicas.emplace_back();
  if (policy_)
    policy_->onModelAdded(modelCount());
  return Status::ok();
}

Status DevicePool::setProfile(int model, LatencyProfile profile) {
  if (model < 0 || model >= modelCount())
    return invalidArgument("no model " + std::to_string(model));
  if (profile.empty())
    return invalidArgument("model '" + models_[model].spec.name +
                           "': empty latency profile");
  models_[model].spec.profile = std::move(profile);
  return Status::ok();
}

void DevicePool::start() {
  policy_ = makePolicy(options_.policy, options_, modelCount(), deviceCount());
}

int DevicePool::modelIndex(const std::string &name) const {
  auto it = modelIndex_.find(name);
  return it == modelIndex_.end() ? -1 : it->second;
}

ReplicaState DevicePool::replicaState(int model, int device) const {
  return devices_[device].replicas[model].state;
}

std::vector<int> DevicePool::servingDevices(int model) const {
  std::vector<int> result;
  for (int d = 0; d < deviceCount(); ++d)
    if (canServe(d, model))
      result.push_back(d);
  return result;
}

std::vector<int> DevicePool::hostingDevices(int model) const {
  std::vector<int> result;
  for (int d = 0; d < deviceCount(); ++d) {
    ReplicaState state = replicaState(model, d);
    const std::deque<int> &waiting = devices_[d].loadsAfterDrain;
    // A load waiting for memory there is a replica on its way.
    if (state == ReplicaState::kReady || state == ReplicaState::kLoading ||
        std::find(waiting.begin(), waiting.end(), model) != waiting.end())
      result.push_back(d);
  }
  return result;
}

Micros DevicePool::deviceFreeAt(int device) const {
  Micros free = now();
  for (const Lane &lane : devices_[device].lanes)
    if (lane.busy)
      free = std::max(free, lane.busyUntil);
  return free;
}

bool DevicePool::isRunning(int device, int model) const {
  for (const Lane &lane : devices_[device].lanes)
    if (lane.busy && lane.running.model == model)
      return true;
  return false;
}

Micros DevicePool::highPriorityStartAt(int device, int model) const {
  if (deviceIdle(device))
    return now();
  if (options_.priorityStream && highStreamFree(device) &&
      runningModel(device) != model)
    return now() + devices_[device].device->highStreamDelay();
  return deviceFreeAt(device);
}

Micros DevicePool::replicaReadyAt(int model, int device) const {
  const Replica &replica = devices_[device].replicas[model];
  return replica.state == ReplicaState::kLoading ? replica.readyAt : now();
}

Micros DevicePool::predictBatch(int device, int model, int requests) const {
  return devices_[device].device->predictBatch(models_[model].spec, requests);
}

Micros DevicePool::unloadedLatency(int model) const {
  if (devices_.empty())
    return models_[model].spec.profile.unloadedLatency();
  Micros best = predictBatch(0, model, 1);
  for (int d = 1; d < deviceCount(); ++d)
    best = std::min(best, predictBatch(d, model, 1));
  return best;
}

double DevicePool::arrivalRate(int model) const {
  const auto &arrivals = models_[model].recentArrivals;
  Micros since = now() - options_.rateWindow;
  auto first = std::upper_bound(arrivals.begin(), arrivals.end(), since);
  return double(arrivals.end() - first) * 1e6 / double(options_.rateWindow);
}

double DevicePool::measuredUtilisation(int model) const {
  Micros since = now() - options_.rateWindow;
  double busy = 0;
  for (const auto &[start, duration] : models_[model].recentBatches) {
    // Count only the part inside the window, and nothing not yet run.
    Micros from = std::max(start, since);
    Micros to = std::min(start + duration, now());
    if (to > from)
      busy += double(to - from);
  }
  std::size_t replicas = std::max<std::size_t>(1, servingDevices(model).size());
  return busy / double(options_.rateWindow) / double(replicas);
}

void DevicePool::notePlacementChange(int model, bool isMove) {
  models_[model].lastPlacementChange = now();
  if (isMove)
    ++counters_.moves;
  else
    ++counters_.replications;
}

std::size_t DevicePool::queued() const {
  std::size_t total = 0;
  for (int m = 0; m < modelCount(); ++m)
    total += policy_->queuedFor(m);
  return total;
}

std::size_t DevicePool::running() const {
  std::size_t total = 0;
  for (const auto &device : devices_)
    for (const Lane &lane : device.lanes)
      if (lane.busy)
        total += lane.running.requests.size();
  return total;
}

// --- Replica life cycle -----------------------------------------------------

Status DevicePool::loadModel(const std::string &model, int device) {
  int m = modelIndex(model);
  if (m < 0)
    return notFound("no model named '" + model + "'");
  if (device < 0 || device >= deviceCount())
    return invalidArgument("no device " + std::to_string(device));
  return beginLoad(m, device);
}

Status DevicePool::beginLoad(int model, int device) {
  DeviceSlot &slot = devices_[device];
  Replica &replica = slot.replicas[model];
  ModelSlot &modelSlot = models_[model];
  if (replica.state != ReplicaState::kAbsent)
    return Status(StatusCode::kFailedPrecondition,
                  "model '" + modelSlot.spec.name +
                      "' already has a replica on device '" +
                      slot.device->spec().name + "'");
  KILN_RETURN_IF_ERROR(
      slot.ledger.reserve(modelSlot.spec.name, modelSlot.spec.footprint));
  bool fromHost = modelSlot.onHost;
  replica.state = ReplicaState::kLoading;
  replica.readyAt = now() + slot.device->predictLoad(modelSlot.spec, fromHost);
  ++counters_.loads;
  if (fromHost)
    ++counters_.reloadsFromHost;
  slot.device->beginLoad(modelSlot.spec, fromHost,
                         [this, model, device] { onLoaded(model, device); });
  return Status::ok();
}

void DevicePool::onLoaded(int model, int device) {
  Replica &replica = devices_[device].replicas[model];
  if (replica.state != ReplicaState::kLoading)
    return;
  replica.state = ReplicaState::kReady;
  replica.lastUsed = now();
  // Make-before-break: the moved replica's old home drains only now.
  auto &moves = models_[model].pendingMoves;
  for (auto it = moves.begin(); it != moves.end();) {
    if (it->second == device) {
      int from = it->first;
      it = moves.erase(it);
      (void)beginDrain(model, from, /*keepOnHost=*/false);
    } else {
      ++it;
    }
  }
  dispatch();
}

Status DevicePool::unloadModel(const std::string &model, int device) {
  int m = modelIndex(model);
  if (m < 0)
    return notFound("no model named '" + model + "'");
  if (device < 0 || device >= deviceCount())
    return invalidArgument("no device " + std::to_string(device));
  KILN_RETURN_IF_ERROR(beginDrain(m, device, /*keepOnHost=*/false));
  ++counters_.unloads;
  return Status::ok();
}

Status DevicePool::evictModel(const std::string &model, int device) {
  int m = modelIndex(model);
  if (m < 0)
    return notFound("no model named '" + model + "'");
  if (device < 0 || device >= deviceCount())
    return invalidArgument("no device " + std::to_string(device));
  KILN_RETURN_IF_ERROR(beginDrain(m, device, /*keepOnHost=*/true));
  ++counters_.evictions;
  return Status::ok();
}

Status DevicePool::moveReplica(const std::string &model, int from, int to) {
  int m = modelIndex(model);
  if (m < 0)
    return notFound("no model named '" + model + "'");
  if (from < 0 || from >= deviceCount() || to < 0 || to >= deviceCount() ||
      from == to)
    return invalidArgument("a move needs two different devices");
  if (replicaState(m, from) != ReplicaState::kReady)
    return Status(StatusCode::kFailedPrecondition,
                  "model '" + model + "' has no ready replica on device '" +
                      devices_[from].device->spec().name + "' to move");
  KILN_RETURN_IF_ERROR(beginLoad(m, to));
  models_[m].pendingMoves.emplace_back(from, to);
  return Status::ok();
}

Status DevicePool::loadWhenFree(const std::string &model, int device) {
  int m = modelIndex(model);
  if (m < 0)
    return notFound("no model named '" + model + "'");
  if (device < 0 || device >= deviceCount())
    return invalidArgument("no device " + std::to_string(device));
  DeviceSlot &slot = devices_[device];
  if (slot.ledger.fits(models_[m].spec.footprint))
    return beginLoad(m, device);
  // Only memory held by draining replicas, or by replicas moving away, is
  // on its way back.
  std::uint64_t draining = 0;
  for (int other = 0; other < modelCount(); ++other) {
    bool movingAway = std::any_of(
        models_[other].pendingMoves.begin(), models_[other].pendingMoves.end(),
        [&](const std::pair<int, int> &move) { return move.first == device; });
    if (slot.replicas[other].state == ReplicaState::kDraining || movingAway)
      draining += models_[other].spec.footprint.total();
  }
  if (slot.ledger.freeBytes() + draining < models_[m].spec.footprint.total())
    return slot.ledger.reserve(models_[m].spec.name,
                               models_[m].spec.footprint); // The typed error.
  slot.loadsAfterDrain.push_back(m);
  return Status::ok();
}

Status DevicePool::reloadModel(ModelSpec spec) {
  int m = modelIndex(spec.name);
  if (m < 0)
    return notFound("no model named '" + spec.name + "'");
  if (spec.profile.empty())
    return invalidArgument("model '" + spec.name + "' has no latency profile");
  std::vector<int> ready;
  for (int d = 0; d < deviceCount(); ++d) {
    ReplicaState state = replicaState(m, d);
    if (state == ReplicaState::kLoading || state == ReplicaState::kDraining)
      return Status(
          StatusCode::kFailedPrecondition,
          "model '" + spec.name + "' is " +
              (state == ReplicaState::kLoading ? "loading" : "draining") +
              " on device '" + devices_[d].device->spec().name +
              "'; reload it once that is done");
    if (state == ReplicaState::kReady)
      ready.push_back(d);
  }
  ModelSlot &slot = models_[m];
  slot.spec = std::move(spec);
  slot.onHost = false;
  slot.pendingMoves.clear();
  ++counters_.reloads;
  for (int d : ready) {
    // Queued first: the drain may release the old replica at once, and the
    // release starts the loads waiting for its memory.
    devices_[d].loadsAfterDrain.push_back(m);
    KILN_RETURN_IF_ERROR(beginDrain(m, d, /*keepOnHost=*/false));
  }
  return Status::ok();
}

Status DevicePool::beginDrain(int model, int device, bool keepOnHost) {
  DeviceSlot &slot = devices_[device];
  Replica &replica = slot.replicas[model];
  if (replica.state != ReplicaState::kReady)
    return Status(StatusCode::kFailedPrecondition,
                  "model '" + models_[model].spec.name +
                      "' has no ready replica on device '" +
                      slot.device->spec().name + "'");
  replica.state = ReplicaState::kDraining;
  replica.keepOnHost = keepOnHost;
  // A running batch finishes first (stream priorities cannot preempt it);
  // onBatchDone releases the memory then.
  if (!isRunning(device, model))
    release(model, device);
  return Status::ok();
}

void DevicePool::release(int model, int device) {
  DeviceSlot &slot = devices_[device];
  Replica &replica = slot.replicas[model];
  ModelSlot &modelSlot = models_[model];
  Status released = slot.ledger.release(modelSlot.spec.name);
  assert(released.isOk() && "a draining replica holds a reservation");
  (void)released;
  slot.device->unload(modelSlot.spec);
  if (replica.keepOnHost)
    modelSlot.onHost = true;
  replica = Replica{};

  // Loads that waited for this memory.
  while (
      !slot.loadsAfterDrain.empty() &&
      slot.ledger.fits(models_[slot.loadsAfterDrain.front()].spec.footprint)) {
    int waiting = slot.loadsAfterDrain.front();
    slot.loadsAfterDrain.pop_front();
    (void)beginLoad(waiting, device);
  }

  // Requests still waiting for this model need a replica somewhere.
  if (hostingDevices(model).empty() && policy_ && policy_->queuedFor(model)) {
    if (!ensureReplica(model).isOk())
      for (const Request &request : policy_->takeAll(model))
        reject(request, RejectReason::kNoCapacity);
  }
}

Status DevicePool::ensureReplica(int model) {
  const Footprint &need = models_[model].spec.footprint;
  // Prefer a device where it fits as is, the one with the most free memory.
  int best = -1;
  for (int d = 0; d < deviceCount(); ++d) {
    if (replicaState(model, d) != ReplicaState::kAbsent ||
        !devices_[d].ledger.fits(need))
      continue;
    if (best < 0 ||
        devices_[d].ledger.freeBytes() > devices_[best].ledger.freeBytes())
      best = d;
  }
  if (best >= 0)
    return beginLoad(model, best);

  // Otherwise evict least recently used idle replicas of models that are
  // served elsewhere or have nobody waiting, on the first device where
  // that frees enough.
  for (int d = 0; d < deviceCount(); ++d) {
    DeviceSlot &slot = devices_[d];
    if (replicaState(model, d) != ReplicaState::kAbsent)
      continue;
    std::vector<int> victims;
    for (int other = 0; other < modelCount(); ++other) {
      if (other == model || slot.replicas[other].state != ReplicaState::kReady)
        continue;
      if (isRunning(d, other))
        continue;
      bool servedElsewhere = servingDevices(other).size() > 1;
      if (!servedElsewhere && policy_ && policy_->queuedFor(other))
        continue;
      victims.push_back(other);
    }
    std::sort(victims.begin(), victims.end(), [&](int a, int b) {
      return slot.replicas[a].lastUsed < slot.replicas[b].lastUsed;
    });
    std::uint64_t freeable = slot.ledger.freeBytes();
    std::size_t needed = 0;
    while (freeable < need.total() && needed < victims.size())
      freeable += models_[victims[needed++]].spec.footprint.total();
    if (freeable < need.total())
      continue;
    for (std::size_t i = 0; i < needed; ++i) {
      (void)beginDrain(victims[i], d, /*keepOnHost=*/true);
      ++counters_.evictions;
    }
    return beginLoad(model, d);
  }
  // Say what was needed and the most any device had free.
  if (devices_.empty())
    return Status(StatusCode::kUnavailable, "the pool has no devices");
  int roomiest = 0;
  for (int d = 1; d < deviceCount(); ++d)
    if (devices_[d].ledger.freeBytes() > devices_[roomiest].ledger.freeBytes())
      roomiest = d;
  return Status(StatusCode::kResourceExhausted,
                "cannot load model '" + models_[model].spec.name +
                    "' on any device: needs " + std::to_string(need.total()) +
                    " bytes, at most " +
                    std::to_string(devices_[roomiest].ledger.freeBytes()) +
                    " bytes free (device '" +
                    devices_[roomiest].device->spec().name +
                    "') and no idle replica to evict");
}

// --- Requests ---------------------------------------------------------------

void DevicePool::deliver(Response response) {
  ++counters_.responses;
  if (sink_)
    sink_(response);
}

void DevicePool::reject(const Request &request, RejectReason reason) {
  Response response;
  response.id = request.id;
  response.model = request.model;
  response.priority = request.priority;
  response.outcome = Outcome::kRejected;
  response.reason = reason;
  response.arrival = request.arrival;
  response.deadline = request.deadline;
  response.finish = now();
  deliver(std::move(response));
}

void DevicePool::submit(Request request) {
  assert(policy_ && "DevicePool::start() must run before submit()");
  int m = modelIndex(request.model);
  if (m < 0)
    return reject(request, RejectReason::kUnknownModel);
  if (request.priority < 0 ||
      request.priority >= std::max(1, options_.queue.priorityLevels))
    return reject(request, RejectReason::kInvalidPriority);
  request.modelIndex = m;
  ModelSlot &slot = models_[m];
  slot.lastArrival = now();
  if (request.priority == 0)
    slot.lastHighPriority = now();
  slot.recentArrivals.push_back(now());
  while (!slot.recentArrivals.empty() &&
         slot.recentArrivals.front() < now() - options_.rateWindow)
    slot.recentArrivals.pop_front();
  // Reload on demand: an evicted (or never loaded) model comes back.
  if (hostingDevices(m).empty() && !ensureReplica(m).isOk())
    return reject(request, RejectReason::kNoCapacity);
  policy_->enqueue(*this, std::move(request));
  dispatch();
}

bool DevicePool::cancel(RequestId id) {
  std::optional<Request> request = policy_->cancel(id);
  if (!request)
    return false;
  Response response;
  response.id = request->id;
  response.model = request->model;
  response.priority = request->priority;
  response.outcome = Outcome::kCancelled;
  response.arrival = request->arrival;
  response.deadline = request->deadline;
  response.finish = now();
  deliver(std::move(response));
  return true;
}

void DevicePool::tick() {
  policy_->onTick(*this);
  dispatch();
}

bool DevicePool::wakeAt(Micros time) {
  if (!timer_)
    return false;
  if (wakeups_.insert(time).second)
    timer_->callAt(time, [this, time] {
      wakeups_.erase(time);
      dispatch();
    });
  return true;
}

void DevicePool::dispatch() {
  // A batch may finish synchronously on some devices; one loop at a time.
  if (dispatching_)
    return;
  dispatching_ = true;
  bool started = true;
  while (started) {
    started = false;
    // Idle devices first: a high-priority request should run on an idle
    // device rather than interleave with another device's batch.
    for (int d = 0; d < deviceCount(); ++d) {
      if (!deviceIdle(d))
        continue;
      std::optional<Batch> batch = policy_->nextBatch(*this, d);
      if (!batch || batch->requests.empty())
        continue;
      startBatch(d, 0, std::move(*batch));
      started = true;
    }
    if (started || !options_.priorityStream)
      continue;
    for (int d = 0; d < deviceCount(); ++d) {
      if (!highStreamFree(d))
        continue;
      std::optional<Batch> batch = policy_->nextHighPriorityBatch(*this, d);
      if (!batch || batch->requests.empty())
        continue;
      startBatch(d, 1, std::move(*batch));
      started = true;
    }
  }
  dispatching_ = false;
}

void DevicePool::startBatch(int device, int lane, Batch batch) {
  DeviceSlot &slot = devices_[device];
  assert(canServe(device, batch.model) && "policies run only ready replicas");
  assert(!isRunning(device, batch.model) && "one arena per replica");
  int requests = int(batch.requests.size());
  Micros latency = predictBatch(device, batch.model, requests);
  Lane &target = slot.lanes[lane];
  target.busy = true;
  target.hasHighPriority =
      std::any_of(batch.requests.begin(), batch.requests.end(),
                  [](const Request &r) { return r.priority == 0; });
  if (lane == 1) {
    Micros delay = slot.device->highStreamDelay();
    target.busyUntil = now() + delay + latency;
    // The normal stream's batch pauses while this one runs, unless it ends
    // at the step boundary the high stream waits for.
    if (slot.lanes[0].busy && slot.lanes[0].busyUntil > now() + delay)
      slot.lanes[0].busyUntil += latency;
  } else {
    target.busyUntil = now() + latency;
  }
  slot.replicas[batch.model].lastUsed = now();
  auto &recent = models_[batch.model].recentBatches;
  recent.emplace_back(now(), latency);
  while (!recent.empty() && recent.front().first + recent.front().second <
                                now() - options_.rateWindow)
    recent.pop_front();
  ++counters_.batches;
  counters_.batchedRequests += requests;
  const ModelSpec &spec = models_[batch.model].spec;
  target.running = std::move(batch);
  slot.device->beginBatch(spec, target.running.requests,
                          lane == 1 ? Stream::kHigh : Stream::kNormal,
                          [this, device, lane] { onBatchDone(device, lane); });
}

void DevicePool::onBatchDone(int device, int lane) {
  DeviceSlot &slot = devices_[device];
  Batch batch = std::move(slot.lanes[lane].running);
  slot.lanes[lane] = Lane{};
  int batchSize = int(batch.requests.size());
  for (const Request &request : batch.requests) {
    Response response;
    response.id = request.id;
    response.model = request.model;
    response.priority = request.priority;
    response.outcome = Outcome::kCompleted;
    response.arrival = request.arrival;
    response.deadline = request.deadline;
    response.finish = now();
    response.batchSize = batchSize;
    response.device = device;
    response.data = request.data;
    deliver(std::move(response));
  }
  if (slot.replicas[batch.model].state == ReplicaState::kDraining &&
      !isRunning(device, batch.model))
    release(batch.model, device);
  dispatch();
}

} // namespace kiln::rt::serving
