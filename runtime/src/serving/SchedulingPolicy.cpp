//===- SchedulingPolicy.cpp - Policy names and the factory ----------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/serving/SchedulingPolicy.h"

#include "Policies.h"

namespace kiln::rt::serving {

const char *policyKindName(PolicyKind kind) {
  switch (kind) {
  case PolicyKind::kKiln:
    return "kiln";
  case PolicyKind::kFifo:
    return "fifo";
  case PolicyKind::kRoundRobin:
    return "round-robin";
  case PolicyKind::kShortestQueue:
    return "jsq";
  case PolicyKind::kTritonLike:
    return "triton";
  }
  return "unknown";
}

std::optional<PolicyKind> parsePolicyKind(const std::string &name) {
  for (PolicyKind kind :
       {PolicyKind::kKiln, PolicyKind::kFifo, PolicyKind::kRoundRobin,
        PolicyKind::kShortestQueue, PolicyKind::kTritonLike})
    if (name == policyKindName(kind))
      return kind;
  return std::nullopt;
}

std::unique_ptr<SchedulingPolicy> makePolicy(PolicyKind kind,
                                             const PoolOptions &options,
                                             int modelCount, int deviceCount) {
  switch (kind) {
  case PolicyKind::kKiln:
    return makeKilnPolicy(options, modelCount);
  case PolicyKind::kFifo:
    return makeFifoPolicy(options);
  case PolicyKind::kRoundRobin:
    return makeRoundRobinPolicy(options, modelCount, deviceCount);
  case PolicyKind::kShortestQueue:
    return makeShortestQueuePolicy(options, deviceCount);
  case PolicyKind::kTritonLike:
    return makeTritonLikePolicy(options, modelCount);
  }
  return nullptr;
}

} // namespace kiln::rt::serving
