//===- LatencyProfile.cpp - Measured latency per batch size ---------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/serving/LatencyProfile.h"

#include <algorithm>
#include <cassert>
#include <string>

namespace kiln::rt::serving {

Status LatencyProfile::set(int batchSize, Micros latency) {
  if (batchSize <= 0)
    return invalidArgument("batch size must be positive, got " +
                           std::to_string(batchSize));
  if (latency <= 0)
    return invalidArgument("latency of batch size " +
                           std::to_string(batchSize) + " must be positive");
  latency_[batchSize] = latency;
  return Status::ok();
}

std::vector<int> LatencyProfile::batchSizes() const {
  std::vector<int> sizes;
  for (const auto &[size, latency] : latency_)
    sizes.push_back(size);
  return sizes;
}

int LatencyProfile::largestBatch() const {
  assert(!empty());
  return latency_.rbegin()->first;
}

int LatencyProfile::variantFor(int requests) const {
  assert(!empty());
  auto it = latency_.lower_bound(requests);
  return it == latency_.end() ? latency_.rbegin()->first : it->first;
}

Micros LatencyProfile::latencyFor(int requests) const {
  return latency_.at(variantFor(requests));
}

double LatencyProfile::peakThroughput() const {
  double best = 0;
  for (const auto &[size, latency] : latency_)
    best = std::max(best, double(size) / double(latency));
  return best;
}

} // namespace kiln::rt::serving
