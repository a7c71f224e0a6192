//===- Metrics.h - kiln-serve's Prometheus metrics --------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Counters and latency histograms kept as responses leave the pool, and the
// /metrics page in the Prometheus text format (version 0.0.4): per model
// and priority, per device, and the pool's queue and memory.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_KILN_SERVE_METRICS_H
#define KILN_TOOLS_KILN_SERVE_METRICS_H

#include "kiln/runtime/serving/Request.h"

#include <array>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace kiln::serve {

/// What the page reports about the pool and devices at scrape time.
struct PoolSnapshot {
  struct DeviceFigures {
    std::string name;
    double busySeconds = 0;
    std::uint64_t reservedBytes = 0;
    std::uint64_t capacityBytes = 0;
  };
  std::vector<DeviceFigures> devices;
  std::size_t queued = 0;
  std::size_t running = 0;
  std::uint64_t batches = 0;
  std::uint64_t batchedRequests = 0;
  std::uint64_t loads = 0;
  std::uint64_t unloads = 0;
  double uptimeSeconds = 0;
  /// Model name -> ready to serve.
  std::map<std::string, bool> modelsReady;
  /// CPU package energy since start (RAPL), when this machine exposes it.
  std::optional<double> cpuEnergyJoules;
};

/// Thread-safe.
class Metrics {
public:
  /// Latency buckets' upper bounds, in seconds.
  static constexpr std::size_t kBucketCount = 14;
  static const std::array<double, kBucketCount> kBuckets;

  /// Records one answered request: `failed` when it completed but the
  /// execution returned an error.
  void record(const rt::serving::Response &response, bool failed);
  /// The page, with `snapshot`'s gauges.
  std::string render(const PoolSnapshot &snapshot) const;

private:
  struct Series {
    std::uint64_t success = 0, failure = 0, rejected = 0, cancelled = 0;
    std::uint64_t metDeadline = 0;
    std::array<std::uint64_t, kBucketCount> buckets{};
    std::uint64_t count = 0;
    double sumSeconds = 0;
  };
  mutable std::mutex mutex_;
  /// By (model, priority).
  std::map<std::pair<std::string, int>, Series> series_;
  /// By (model, reason).
  std::map<std::pair<std::string, std::string>, std::uint64_t> rejections_;
};

} // namespace kiln::serve

#endif // KILN_TOOLS_KILN_SERVE_METRICS_H
