//===- Bisect.h - Which fusion group changes a result -----------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The search of `kilnc bisect`, apart from compiling: given a way to run
// the model with a chosen set of fusion groups, find the first group whose
// fusion moves the outputs away from the unfused run's.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_KILNC_BISECT_H
#define KILN_TOOLS_KILNC_BISECT_H

#include "kiln/kiln.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace kiln::tools {

/// How far outputs are from the reference ones.
struct Difference {
  double maxAbs = 0; ///< Largest |value - reference| (inf for NaN vs not).
  double scale = 0;  ///< Largest |reference|.
  size_t output = 0; ///< Where maxAbs is.
  size_t element = 0;
  bool beyond = false; ///< maxAbs > tolerance * max(1, scale).
};
Difference compareOutputs(const std::vector<Tensor> &outputs,
                          const std::vector<Tensor> &reference,
                          double tolerance);

/// Runs the model keeping the given groups fused (the others unfused).
using GroupRunner =
    std::function<StatusOr<std::vector<Tensor>>(const std::vector<int64_t> &)>;

struct BisectResult {
  std::optional<int64_t> culprit; ///< None: fused and unfused agree.
  Difference fused;               ///< All groups against unfused.
  Difference culpritAlone;        ///< The culprit's group on its own.
  unsigned runs = 0;              ///< Compile-and-runs the search took.
};

/// Binary search over prefixes 0..n-1 of `groups` groups: the smallest n
/// whose result is beyond `tolerance` names group n-1 (the first fusion
/// that changes the result; with several, fix it and search again).
StatusOr<BisectResult> bisectFusionGroups(int64_t groups,
                                          const std::vector<Tensor> &unfused,
                                          double tolerance,
                                          const GroupRunner &run);

} // namespace kiln::tools

#endif // KILN_TOOLS_KILNC_BISECT_H
