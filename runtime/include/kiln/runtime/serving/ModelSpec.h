//===- ModelSpec.h - What the pool knows about one model --------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// A model's memory footprint (reserved whole at load, never grown on the hot
// path), its load costs and its latency profile.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_SERVING_MODELSPEC_H
#define KILN_RUNTIME_SERVING_MODELSPEC_H

#include "kiln/runtime/serving/Clock.h"
#include "kiln/runtime/serving/LatencyProfile.h"

#include <cstdint>
#include <string>

namespace kiln::rt::serving {

/// Device memory one loaded replica reserves.
struct Footprint {
  std::uint64_t weightsBytes = 0;
  std::uint64_t arenaBytes = 0;     ///< Activations: the artifact's plan.
  std::uint64_t workspaceBytes = 0; ///< Library scratch (cuBLASLt), IO pool.
  std::uint64_t total() const {
    return weightsBytes + arenaBytes + workspaceBytes;
  }
};

struct ModelSpec {
  std::string name;
  Footprint footprint;
  /// Time to bring a replica up from storage (first load).
  Micros coldLoadTime = 0;
  /// Time to bring a replica back from host memory after an eviction.
  Micros reloadTime = 0;
  /// Longest schedule step (one kernel, or a group launched together) of
  /// an execution: work on the high-priority stream waits at most this
  /// long for a running batch of this model to let it in, because streams
  /// interleave between kernels but never preempt one. 0: the execution is
  /// a single step.
  Micros stepTime = 0;
  LatencyProfile profile;
};

} // namespace kiln::rt::serving

#endif // KILN_RUNTIME_SERVING_MODELSPEC_H
