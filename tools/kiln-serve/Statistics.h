//===- Statistics.h - The protocol's statistics extension -------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// GET /v2/models/stats and /v2/models/NAME[/versions/V]/stats, as Triton's
// statistics extension answers them: per model, inferences and executions
// (a batch of N requests is N inferences and one execution), cumulative
// counts and nanoseconds of successes, failures, queueing and compute, and
// the same per batch size. Kiln stacks inputs and splits outputs inside an
// execution, so compute_input and compute_output stay zero and
// compute_infer holds the whole execution.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_KILN_SERVE_STATISTICS_H
#define KILN_TOOLS_KILN_SERVE_STATISTICS_H

#include "kiln/runtime/serving/Request.h"

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace kiln::serve {

/// Thread-safe.
class Statistics {
public:
  /// One answered request; `failed` when it completed with an error.
  /// `nowMillis` is the wall clock (ms since the epoch) for last_inference.
  void record(const rt::serving::Response &response, bool failed,
              std::uint64_t nowMillis);
  /// {"model_stats":[...]} for `models` (pool names: NAME, or NAME/V for
  /// one version of a model served under another policy than latest 1;
  /// VersionPolicy.h), in that order (unused models get zeros).
  /// `versions`: each model's served version (absent: V of NAME/V, else
  /// "1").
  std::string
  render(const std::vector<std::string> &models,
         const std::map<std::string, std::string> &versions = {}) const;

private:
  struct Duration {
    std::uint64_t count = 0;
    std::uint64_t ns = 0;
  };
  /// Executions are counted through their requests: each of a batch's N
  /// adds 1/N (kept in N-ths to stay exact).
  struct BatchFigures {
    std::uint64_t requests = 0;
    std::uint64_t computeNs = 0; ///< Per request: each sees the execution.
  };
  struct ModelFigures {
    std::uint64_t lastInference = 0;
    Duration success, fail, queue, computeInfer;
    std::map<int, BatchFigures> batches;
  };
  mutable std::mutex mutex_;
  std::map<std::string, ModelFigures> models_;
};

} // namespace kiln::serve

#endif // KILN_TOOLS_KILN_SERVE_STATISTICS_H
