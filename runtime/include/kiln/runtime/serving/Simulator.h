//===- Simulator.h - The pool in virtual time -------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Runs the real DevicePool and policies against SimulatedDevices on a
// VirtualClock: same config and seed, same report, bit for bit.
//
// Offered load is stated against batch-1 capacity: load 0.8 means arrivals
// that would keep every device 80% busy if each request ran alone. Batching
// is how a policy gets headroom beyond that, so it counts in its favour.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_SERVING_SIMULATOR_H
#define KILN_RUNTIME_SERVING_SIMULATOR_H

#include "kiln/runtime/Status.h"
#include "kiln/runtime/serving/Arrivals.h"
#include "kiln/runtime/serving/DevicePool.h"
#include "kiln/runtime/serving/Report.h"

#include <string>
#include <vector>

namespace kiln::rt::serving {

struct SimModel {
  ModelSpec spec;
  /// Relative share of the arrivals (normalised over models).
  double rateShare = 1;
};

struct PrioritySpec {
  std::string name;
  /// Fraction of each model's requests at this level (normalised).
  double share = 1;
  /// SLO = this multiple of the model's unloaded latency.
  double sloMultiplier = 10;
};

enum class ArrivalSource { kPoisson, kGamma, kTrace };

/// From `start` on, the models' rate shares change (the offered load does
/// not): the hot model shifts and placement has to follow.
struct LoadPhase {
  Micros start = 0;
  /// One share per model (same order as SimConfig::models).
  std::vector<double> rateShares;
};

struct SimConfig {
  std::vector<DeviceSpec> devices;
  std::vector<SimModel> models;
  /// Level 0 first (the highest).
  std::vector<PrioritySpec> priorities;
  double load = 0.8;
  ArrivalSource arrivals = ArrivalSource::kPoisson;
  double cv = 1;
  std::string tracePath; ///< kTrace: resolved against the config's folder.
  std::uint64_t seed = 1;
  Micros duration = 60'000'000;
  Micros tickInterval = 100'000;
  int maxReplicas = 0;
  /// Load shifts during the run (synthetic arrivals only), by start time.
  std::vector<LoadPhase> phases;
  /// Report SLO attainment per window of this length; 0: no timeline.
  Micros timelineInterval = 0;
  PoolOptions pool;
  /// Keep every response in the result (tests, diagnostics).
  bool keepResponses = false;
};

/// Parses a config (format in docs/resource-manager.md). Errors are
/// INVALID_ARGUMENT and name the JSON path of the bad field, e.g.
/// `$.models[1].latency_ms["4"]: must be a positive number`. A relative
/// trace path is taken relative to `baseDir`.
/// `overrides` are `path=value` edits applied before reading, e.g.
/// `pool.batching=false` or `arrivals.cv=1`: the path names object members
/// (created when absent), the value is JSON (a bare word is a string).
StatusOr<SimConfig>
parseSimConfig(const std::string &text, const std::string &baseDir,
               const std::vector<std::string> &overrides = {});
/// Reads a config file; NOT_FOUND when it cannot be opened.
StatusOr<SimConfig>
readSimConfig(const std::string &path,
              const std::vector<std::string> &overrides = {});

/// Requests per second of each model for the config's load, with the
/// models' own rate shares or with `shares` (one per model).
std::vector<double> modelRates(const SimConfig &config);
std::vector<double> modelRates(const SimConfig &config,
                               const std::vector<double> &shares);

/// A run's report, plus what the tests check beyond it.
struct SimulationResult {
  Report report;
  std::uint64_t submitted = 0;
  std::uint64_t responses = 0;
  /// Responses per request id beyond the first (must be 0).
  std::uint64_t duplicateResponses = 0;
  /// Every response in the order given, when config.keepResponses.
  std::vector<Response> kept;
};

/// The arrivals a run of `config` replays (its trace) or draws (seeded),
/// in time order, times from the start of serving.
StatusOr<std::vector<Arrival>> simulationArrivals(const SimConfig &config);

/// Places the models, replays or draws the arrivals, runs to completion.
StatusOr<SimulationResult> simulate(const SimConfig &config);

} // namespace kiln::rt::serving

#endif // KILN_RUNTIME_SERVING_SIMULATOR_H
