//===- PrecisionReport.h - What the int8 accuracy budget chose ---*- C++
//-*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// kilnc --max-accuracy-drop measures each quantizable layer's effect on
// top-1 and keeps some layers fp32 to stay within the budget; the artifact
// records the outcome (section kind 9, optional) so that --stats-json and
// any later reader can tell which layers run in int8.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_PRECISIONREPORT_H
#define KILN_RUNTIME_PRECISIONREPORT_H

#include "kiln/runtime/Status.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kiln::rt {

struct PrecisionReport {
  struct Layer {
    std::string name;    ///< The node's name, or "#N" in program order.
    bool int8 = false;   ///< Final precision: int8, else fp32.
    double soloDrop = 0; ///< Top-1 points lost with only it in int8.
  };
  double budget = 0;         ///< The largest drop allowed, in points.
  uint32_t predictions = 0;  ///< Validation predictions scored per trial.
  double fp32Top1 = 0;       ///< Top-1 (percent) of the fp32 model,
  double allInt8Top1 = 0;    ///< with every layer in int8,
  double finalTop1 = 0;      ///< and with the layers chosen.
  std::vector<Layer> layers; ///< In program order.
};

std::vector<uint8_t> encodePrecisionReport(const PrecisionReport &report);

/// Validates (counts, flags, percentages in [0, 100], no trailing bytes);
/// `name` is used in messages.
StatusOr<PrecisionReport> decodePrecisionReport(const uint8_t *bytes,
                                                size_t size,
                                                const std::string &name);

} // namespace kiln::rt

#endif // KILN_RUNTIME_PRECISIONREPORT_H
