//===- Placement.cpp - Initial replicas from memory and load --------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/serving/Placement.h"

#include "kiln/runtime/serving/MemoryLedger.h"

#include <algorithm>
#include <numeric>

namespace kiln::rt::serving {

StatusOr<std::vector<ReplicaSite>> planPlacement(const PlacementInput &input) {
  int modelCount = int(input.models.size());
  int deviceCount = int(input.devices.size());
  std::vector<MemoryLedger> ledgers;
  for (const DeviceSpec &device : input.devices)
    ledgers.emplace_back(device.name, device.memoryBytes,
                         device.contextReserveBytes);

  // Device-seconds per second each model asks for, at batch size 1.
  std::vector<double> demand(modelCount);
  for (int m = 0; m < modelCount; ++m) {
    double rate =
        m < int(input.ratePerSecond.size()) ? input.ratePerSecond[m] : 0.0;
    demand[m] = rate * double(input.models[m].profile.unloadedLatency()) / 1e6;
  }
  std::vector<int> replicas(modelCount, 0);
  std::vector<double> deviceLoad(deviceCount, 0);
  std::vector<ReplicaSite> sites;
  auto place = [&](int m, int d) {
    (void)ledgers[d].reserve(input.models[m].name, input.models[m].footprint);
    ++replicas[m];
    sites.push_back({m, d});
  };
  auto perReplica = [&](int m) { return demand[m] / std::max(1, replicas[m]); };
  // Device load is the sum of its models' per-replica demand, refreshed
  // after every placement because adding a replica thins the others.
  auto refreshLoads = [&] {
    std::fill(deviceLoad.begin(), deviceLoad.end(), 0.0);
    for (const ReplicaSite &site : sites)
      deviceLoad[site.device] +=
          perReplica(site.model) / input.devices[site.device].speed;
  };

  // Every model once, the most demanding (then largest) first.
  std::vector<int> order(modelCount);
  std::iota(order.begin(), order.end(), 0);
  // std::sort with an index tie-break: libstdc++ 12's stable_sort uses a
  // deprecated buffer API.
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    if (demand[a] != demand[b])
      return demand[a] > demand[b];
    if (input.models[a].footprint.total() != input.models[b].footprint.total())
      return input.models[a].footprint.total() >
             input.models[b].footprint.total();
    return a < b;
  });
  for (int m : order) {
    int best = -1;
    for (int d = 0; d < deviceCount; ++d) {
      if (!ledgers[d].fits(input.models[m].footprint))
        continue;
      // Least loaded, then most free memory.
      if (best < 0 || deviceLoad[d] < deviceLoad[best] ||
          (deviceLoad[d] == deviceLoad[best] &&
           ledgers[d].freeBytes() > ledgers[best].freeBytes()))
        best = d;
    }
    if (best < 0)
      return Status(StatusCode::kResourceExhausted,
                    "model '" + input.models[m].name + "' (" +
                        std::to_string(input.models[m].footprint.total()) +
                        " bytes) fits on no device");
    place(m, best);
    refreshLoads();
  }

  // Extra replicas while memory allows.
  int limit = input.maxReplicas > 0 ? input.maxReplicas : deviceCount;
  while (true) {
    int bestModel = -1, bestDevice = -1;
    for (int m = 0; m < modelCount; ++m) {
      if (replicas[m] >= limit || demand[m] <= 0)
        continue;
      if (bestModel >= 0 && perReplica(m) <= perReplica(bestModel))
        continue;
      int target = -1;
      for (int d = 0; d < deviceCount; ++d) {
        bool hosted = std::any_of(sites.begin(), sites.end(), [&](auto &s) {
          return s.model == m && s.device == d;
        });
        if (hosted || !ledgers[d].fits(input.models[m].footprint))
          continue;
        if (target < 0 || deviceLoad[d] < deviceLoad[target])
          target = d;
      }
      if (target >= 0) {
        bestModel = m;
        bestDevice = target;
      }
    }
    if (bestModel < 0)
      break;
    place(bestModel, bestDevice);
    refreshLoads();
  }
  return sites;
}

} // namespace kiln::rt::serving
