//===- Simulator.cpp - The pool in virtual time ---------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/serving/Simulator.h"

#include "kiln/runtime/serving/EventQueue.h"
#include "kiln/runtime/serving/Placement.h"
#include "kiln/runtime/serving/SimulatedDevice.h"

#include <algorithm>
#include <memory>
#include <unordered_map>

namespace kiln::rt::serving {

std::vector<double> modelRates(const SimConfig &config) {
  std::vector<double> shares;
  for (const SimModel &model : config.models)
    shares.push_back(model.rateShare);
  return modelRates(config, shares);
}

std::vector<double> modelRates(const SimConfig &config,
                               const std::vector<double> &modelShares) {
  // Total rate that keeps the devices `load` busy at batch size 1:
  // sum_m rate_m * latency_m = load * sum_d speed_d.
  double capacity = 0;
  for (const DeviceSpec &device : config.devices)
    capacity += device.speed;
  double shares = 0, workPerRequest = 0;
  for (double share : modelShares)
    shares += share;
  std::vector<double> rates(config.models.size(), 0.0);
  if (shares <= 0)
    return rates;
  for (std::size_t m = 0; m < config.models.size(); ++m)
    workPerRequest += modelShares[m] / shares *
                      double(config.models[m].spec.profile.unloadedLatency()) /
                      1e6;
  double total = config.load * capacity / workPerRequest;
  for (std::size_t m = 0; m < config.models.size(); ++m)
    rates[m] = total * modelShares[m] / shares;
  return rates;
}

StatusOr<std::vector<Arrival>> simulationArrivals(const SimConfig &config) {
  if (config.arrivals == ArrivalSource::kTrace)
    return readArrivalTrace(config.tracePath);
  std::vector<double> levelShares;
  for (const PrioritySpec &level : config.priorities)
    levelShares.push_back(level.share);
  // One segment per load phase, each drawn with its own seed.
  std::vector<LoadPhase> segments = {{0, {}}};
  for (const SimModel &model : config.models)
    segments[0].rateShares.push_back(model.rateShare);
  for (const LoadPhase &phase : config.phases)
    segments.push_back(phase);
  std::vector<Arrival> arrivals;
  for (std::size_t i = 0; i < segments.size(); ++i) {
    Micros from = segments[i].start;
    Micros to =
        i + 1 < segments.size() ? segments[i + 1].start : config.duration;
    std::vector<double> segmentRates =
        modelRates(config, segments[i].rateShares);
    std::vector<ArrivalStream> streams;
    for (std::size_t m = 0; m < config.models.size(); ++m)
      streams.push_back(
          {config.models[m].spec.name, segmentRates[m], levelShares});
    ArrivalOptions options;
    options.process = config.arrivals == ArrivalSource::kGamma
                          ? ArrivalProcess::kGamma
                          : ArrivalProcess::kPoisson;
    options.cv = config.cv;
    options.seed = config.seed + 0x9E3779B9ULL * i;
    options.duration = to - from;
    for (Arrival &arrival : generateArrivals(streams, options)) {
      arrival.time += from;
      arrivals.push_back(std::move(arrival));
    }
  }
  return arrivals;
}

namespace {

/// Owns everything one run needs; lives on simulate()'s stack.
class Simulation {
public:
  explicit Simulation(const SimConfig &config)
      : config_(config), events_(clock_),
        pool_(
            clock_, config.pool, [this](const Response &r) { onResponse(r); },
            &events_) {}

  StatusOr<SimulationResult> run();

private:
  void onResponse(const Response &response) {
    metrics_.record(response);
    if (config_.keepResponses)
      kept_.push_back(response);
    if (++answered_[response.id] > 1)
      ++duplicates_;
  }
  void scheduleTick() {
    events_.scheduleAfter(config_.tickInterval, [this] {
      pool_.tick();
      if (clock_.now() < end_)
        scheduleTick();
    });
  }
  Micros sloFor(int model, int priority) const {
    double multiplier = config_
                            .priorities[std::min<std::size_t>(
                                priority, config_.priorities.size() - 1)]
                            .sloMultiplier;
    return Micros(multiplier * double(pool_.unloadedLatency(pool_.modelIndex(
                                   config_.models[model].spec.name))));
  }

  const SimConfig &config_;
  VirtualClock clock_;
  EventQueue events_;
  DevicePool pool_;
  std::vector<std::unique_ptr<SimulatedDevice>> devices_;
  MetricsCollector metrics_;
  std::unordered_map<RequestId, int> answered_;
  std::uint64_t duplicates_ = 0;
  std::vector<Response> kept_;
  Micros end_ = 0;
};

StatusOr<SimulationResult> Simulation::run() {
  if (config_.priorities.empty())
    return invalidArgument("a simulation needs at least one priority level");
  for (const DeviceSpec &spec : config_.devices) {
    devices_.push_back(std::make_unique<SimulatedDevice>(spec, events_));
    pool_.addDevice(*devices_.back());
  }
  PlacementInput placement;
  for (const SimModel &model : config_.models) {
    KILN_RETURN_IF_ERROR(pool_.addModel(model.spec));
    placement.models.push_back(model.spec);
  }
  pool_.start();
  for (const SimModel &model : config_.models)
    metrics_.setUnloadedLatency(
        model.spec.name,
        pool_.unloadedLatency(pool_.modelIndex(model.spec.name)));

  // Every policy starts from the same placement; only Kiln adapts it.
  placement.devices = config_.devices;
  std::vector<double> rates = modelRates(config_);
  placement.ratePerSecond = rates;
  placement.maxReplicas = config_.maxReplicas;
  StatusOr<std::vector<ReplicaSite>> sites = planPlacement(placement);
  if (!sites.isOk())
    return sites.status();
  for (const ReplicaSite &site : *sites)
    KILN_RETURN_IF_ERROR(
        pool_.loadModel(config_.models[site.model].spec.name, site.device));
  // Cold loads finish before the first request: the run measures serving.
  events_.runAll();
  Micros start = clock_.now();
  if (config_.timelineInterval > 0)
    metrics_.enableTimeline(start, config_.timelineInterval);

  StatusOr<std::vector<Arrival>> drawn = simulationArrivals(config_);
  if (!drawn.isOk())
    return drawn.status();
  std::vector<Arrival> arrivals = std::move(*drawn);
  Micros lastArrival = arrivals.empty() ? 0 : arrivals.back().time;
  end_ = start + std::max(config_.duration, lastArrival);

  double work = 0;
  RequestId nextId = 1;
  for (const Arrival &arrival : arrivals) {
    Request request;
    request.id = nextId++;
    request.model = arrival.model;
    request.priority = arrival.priority;
    request.arrival = start + arrival.time;
    int model = pool_.modelIndex(arrival.model);
    if (model >= 0) {
      Micros slo = arrival.slo ? *arrival.slo : sloFor(model, arrival.priority);
      request.deadline = request.arrival + slo;
      work += double(pool_.unloadedLatency(model));
    }
    events_.scheduleAt(request.arrival,
                       [this, request] { pool_.submit(request); });
  }
  scheduleTick();
  events_.runAll();

  SimulationResult result;
  result.submitted = arrivals.size();
  result.responses = metrics_.responses();
  result.duplicateResponses = duplicates_;
  result.kept = std::move(kept_);
  Report &report = result.report;
  report.policy = policyKindName(config_.pool.policy);
  report.offeredLoad =
      config_.arrivals == ArrivalSource::kTrace ? 0 : config_.load;
  double capacity = 0;
  for (const DeviceSpec &device : config_.devices)
    capacity += device.speed;
  Micros span = end_ - start;
  report.measuredLoad = span > 0 ? work / (double(span) * capacity) : 0;
  report.durationMs = microsToMillis(span);
  report.seed = config_.seed;
  report.overall = metrics_.overall();
  report.byPriority = metrics_.byPriority();
  report.byModelAndPriority = metrics_.byModelAndPriority();
  report.timeline = metrics_.timeline();
  for (int d = 0; d < pool_.deviceCount(); ++d) {
    DeviceReport device;
    device.name = config_.devices[d].name;
    // Busy time over the arrival window; batches still draining after it
    // can push this a little above what the window alone would show.
    device.utilisation =
        span > 0 ? double(devices_[d]->busyTime()) / double(span) : 0;
    device.batches = devices_[d]->batches();
    device.reservedBytes = pool_.ledger(d).reservedBytes();
    device.capacityBytes = pool_.ledger(d).capacityBytes();
    report.devices.push_back(device);
  }
  const PoolCounters &c = pool_.counters();
  report.counters = {{"loads", c.loads},
                     {"reloads_from_host", c.reloadsFromHost},
                     {"unloads", c.unloads},
                     {"evictions", c.evictions},
                     {"replications", c.replications},
                     {"moves", c.moves},
                     {"batches", c.batches},
                     {"batched_requests", c.batchedRequests},
                     {"responses", c.responses}};
  return result;
}

} // namespace

StatusOr<SimulationResult> simulate(const SimConfig &config) {
  Simulation simulation(config);
  return simulation.run();
}

} // namespace kiln::rt::serving
