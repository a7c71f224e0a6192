//===- Policies.h - The scheduling policies DevicePool can run --*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Internal: one factory per policy, defined next to each policy.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_SRC_SERVING_POLICIES_H
#define KILN_RUNTIME_SRC_SERVING_POLICIES_H

#include "kiln/runtime/serving/DevicePool.h"

namespace kiln::rt::serving {

std::unique_ptr<SchedulingPolicy> makeKilnPolicy(const PoolOptions &options,
                                                 int modelCount);
std::unique_ptr<SchedulingPolicy> makeFifoPolicy(const PoolOptions &options);
std::unique_ptr<SchedulingPolicy>
makeRoundRobinPolicy(const PoolOptions &options, int modelCount,
                     int deviceCount);
std::unique_ptr<SchedulingPolicy>
makeShortestQueuePolicy(const PoolOptions &options, int deviceCount);
std::unique_ptr<SchedulingPolicy>
makeTritonLikePolicy(const PoolOptions &options, int modelCount);

} // namespace kiln::rt::serving

#endif // KILN_RUNTIME_SRC_SERVING_POLICIES_H
