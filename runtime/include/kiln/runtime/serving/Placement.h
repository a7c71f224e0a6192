//===- Placement.h - Initial replicas from memory and load ------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Where models start: every model once (the most demanding first, each on
// the device with the most free memory), then extra replicas while memory
// allows, always for the model with the highest predicted utilisation per
// replica, onto the least loaded device that has room. Spreading replicas
// lets bursts of one model use several devices (AlpaServe's statistical
// multiplexing); the memory ledger decides what fits.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_SERVING_PLACEMENT_H
#define KILN_RUNTIME_SERVING_PLACEMENT_H

#include "kiln/runtime/Status.h"
#include "kiln/runtime/serving/Device.h"
#include "kiln/runtime/serving/ModelSpec.h"

#include <vector>

namespace kiln::rt::serving {

struct PlacementInput {
  std::vector<ModelSpec> models;
  std::vector<DeviceSpec> devices;
  /// Expected requests per second of each model (same order as models).
  std::vector<double> ratePerSecond;
  /// At most this many replicas per model; 0: as many as fit.
  int maxReplicas = 0;
};

/// One replica: model index and device index.
struct ReplicaSite {
  int model;
  int device;
};

/// RESOURCE_EXHAUSTED (naming the model) when some model fits on no device.
StatusOr<std::vector<ReplicaSite>> planPlacement(const PlacementInput &input);

} // namespace kiln::rt::serving

#endif // KILN_RUNTIME_SERVING_PLACEMENT_H
