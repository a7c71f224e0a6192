//===- LatencyProfile.h - Measured latency per batch size -------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// What a model costs to run: one measured latency per batch-size variant
// (an artifact compiled with `--batch-sizes 1,4,16` holds three). Placement,
// admission and batching plan from this table rather than from guesses.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_SERVING_LATENCYPROFILE_H
#define KILN_RUNTIME_SERVING_LATENCYPROFILE_H

#include "kiln/runtime/Status.h"
#include "kiln/runtime/serving/Clock.h"

#include <map>
#include <vector>

namespace kiln::rt::serving {

/// Latency of one execution per batch-size variant, on a device of speed 1.
/// Thread-compatible value type.
class LatencyProfile {
public:
  /// Records the latency of the `batchSize` variant. Batch sizes must be
  /// positive and latencies positive; a later call replaces an earlier one.
  Status set(int batchSize, Micros latency);

  bool empty() const { return latency_.empty(); }
  /// The batch-size variants, ascending.
  std::vector<int> batchSizes() const;
  int largestBatch() const;
  /// True when a variant of exactly `batchSize` exists.
  bool hasVariant(int batchSize) const { return latency_.count(batchSize); }
  /// Latency of the smallest variant that holds `requests` (padded), or of
  /// the largest variant when none does. `requests` >= 1.
  Micros latencyFor(int requests) const;
  /// The smallest variant that holds `requests`, or the largest one.
  int variantFor(int requests) const;
  /// Latency of a lone request: the "unloaded latency" SLOs are stated in.
  Micros unloadedLatency() const { return latencyFor(1); }
  /// Requests per microsecond the best variant sustains when kept full.
  double peakThroughput() const;

private:
  std::map<int, Micros> latency_;
};

} // namespace kiln::rt::serving

#endif // KILN_RUNTIME_SERVING_LATENCYPROFILE_H
