//===- Report.h - What a serving run achieved --------------------*- C++
//-*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Per model and priority: SLO attainment (requests answered in time over
// requests that arrived: rejections count as misses), p50/p99 latency and
// rejections by reason; per device: utilisation and reserved memory.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_SERVING_REPORT_H
#define KILN_RUNTIME_SERVING_REPORT_H

#include "kiln/runtime/serving/Clock.h"
#include "kiln/runtime/serving/Request.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace kiln::rt::serving {

/// Outcomes of one (model, priority) pair, or of an aggregate.
struct GroupReport {
  std::string model; ///< "*" for aggregates.
  int priority = -1; ///< -1 for all priorities.
  std::uint64_t arrivals = 0;
  std::uint64_t completed = 0;
  std::uint64_t metSlo = 0;
  std::uint64_t cancelled = 0;
  std::map<std::string, std::uint64_t> rejections; ///< By reason name.
  double sloAttainment = 0;               ///< metSlo / (arrivals - cancelled).
  double p50Ms = 0, p99Ms = 0, maxMs = 0; ///< Of completed requests.
  /// p99 latency over the request's unloaded latency (completed requests).
  double p99OverUnloaded = 0;
};

struct DeviceReport {
  std::string name;
  double utilisation = 0; ///< Busy time over the run's duration.
  std::uint64_t batches = 0;
  std::uint64_t reservedBytes = 0; ///< At the end of the run.
  std::uint64_t capacityBytes = 0;
};

/// Requests that arrived in one window of the run, and how many of them
/// met their SLO.
struct TimelinePoint {
  double startMs = 0;
  std::uint64_t arrivals = 0;
  std::uint64_t metSlo = 0;
};

struct Report {
  std::string policy;
  /// Load asked for: arrival rate x unloaded latency over device capacity.
  double offeredLoad = 0;
  /// The same, measured from the arrivals actually drawn.
  double measuredLoad = 0;
  double durationMs = 0;
  std::uint64_t seed = 0;
  GroupReport overall;
  std::vector<GroupReport> byPriority;
  std::vector<GroupReport> byModelAndPriority;
  std::vector<DeviceReport> devices;
  std::map<std::string, std::uint64_t> counters; ///< Loads, moves, batches...
  std::vector<TimelinePoint> timeline;           ///< When asked for.
};

/// Collects responses; turns them into GroupReports. Thread-compatible.
class MetricsCollector {
public:
  /// `unloadedLatency(model)` gives the denominator of p99OverUnloaded.
  void setUnloadedLatency(const std::string &model, Micros latency) {
    unloaded_[model] = latency;
  }
  void record(const Response &response);
  /// Also count arrivals and met SLOs per `interval` from `start`.
  void enableTimeline(Micros start, Micros interval) {
    timelineStart_ = start;
    timelineInterval_ = interval;
  }
  std::vector<TimelinePoint> timeline() const;

  std::uint64_t responses() const { return responses_; }
  GroupReport overall() const;
  std::vector<GroupReport> byPriority() const;
  std::vector<GroupReport> byModelAndPriority() const;

private:
  struct Samples {
    std::uint64_t arrivals = 0, completed = 0, metSlo = 0, cancelled = 0;
    std::map<std::string, std::uint64_t> rejections;
    std::vector<Micros> latencies;
    std::vector<double> normalised;
  };
  static GroupReport summarise(const std::string &model, int priority,
                               const std::vector<const Samples *> &parts);

  std::map<std::pair<std::string, int>, Samples> samples_;
  std::map<std::string, Micros> unloaded_;
  std::uint64_t responses_ = 0;
  Micros timelineStart_ = 0, timelineInterval_ = 0;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> windows_;
};

/// Nearest-rank percentile (0 < p <= 1) of `values`; 0 when empty.
double percentile(std::vector<double> values, double p);

/// The report as one JSON object (stable key order).
std::string reportToJson(const Report &report);

} // namespace kiln::rt::serving

#endif // KILN_RUNTIME_SERVING_REPORT_H
