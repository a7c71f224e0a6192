//===- ParallelOptions.cpp - How a model is laid out on devices -----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "ParallelOptions.h"

#include "compiler/Sharding/Annotations.h"
#include "kiln/runtime/RankedArtifact.h"

#include <map>
#include <sstream>
#include <vector>

namespace kiln {

namespace {

Status invalid(const std::string &message) {
  return Status(StatusCode::kInvalidArgument, message);
}

std::vector<std::string> splitList(const std::string &text) {
  std::vector<std::string> items;
  std::stringstream stream(text);
  for (std::string item; std::getline(stream, item, ',');)
    items.push_back(item);
  return items;
}

/// "data=2,tensor=2" -> {data: 2, tensor: 2}.
StatusOr<std::map<std::string, int>> parseMesh(const std::string &text) {
  std::map<std::string, int> mesh;
  for (const std::string &axis : splitList(text)) {
    size_t equals = axis.find('=');
    std::string name = axis.substr(0, equals);
    std::string size =
        equals == std::string::npos ? "" : axis.substr(equals + 1);
    bool digits = !size.empty() && size.size() <= 4 &&
                  size.find_first_not_of("0123456789") == std::string::npos;
    if (name.empty() || !digits || std::stoi(size) < 1)
      return invalid("--mesh '" + text + "': expected AXIS=N,... with N >= 1");
    if (!mesh.emplace(name, std::stoi(size)).second)
      return invalid("--mesh '" + text + "': axis '" + name + "' twice");
  }
  return mesh;
}

} // namespace

StatusOr<ParallelPlan> planParallelism(CompileOptions &options) {
  std::vector<std::string> strategies = splitList(options.parallel);
  auto inner = [](const std::string &strategy) {
    return strategy == "tensor" || strategy == "sequence" ||
           strategy == "pipeline";
  };
  bool known =
      strategies.size() == 1
          ? inner(strategies[0]) || strategies[0] == "data"
          : strategies.size() == 2 &&
                ((strategies[0] == "data" && inner(strategies[1])) ||
                 (strategies[0] == "pipeline" && strategies[1] == "tensor"));
  if (!known)
    return invalid("unknown parallelism '" + options.parallel +
                   "' (tensor, sequence, data or pipeline, or a 2-D mesh: "
                   "data,tensor, data,sequence, data,pipeline or "
                   "pipeline,tensor)");
  ParallelPlan plan;
  plan.strategy = strategies.back();
  if (!options.mesh.empty()) {
    auto mesh = parseMesh(options.mesh);
    if (!mesh.isOk())
      return mesh.status();
    int product = 1;
    for (const std::string &strategy : strategies) {
      auto axis = mesh->find(strategy);
      if (axis == mesh->end())
        return invalid("--mesh '" + options.mesh + "' has no '" + strategy +
                       "' axis for --parallel " + options.parallel);
      product *= axis->second;
    }
    if (mesh->size() != strategies.size())
      return invalid("--mesh '" + options.mesh + "' has axes --parallel " +
                     options.parallel + " does not use");
    if (options.devices != 1 && options.devices != product)
      return invalid("--mesh '" + options.mesh + "' makes " +
                     std::to_string(product) + " devices, --devices says " +
                     std::to_string(options.devices));
    options.devices = product;
    if (strategies.size() == 2) {
      (strategies[0] == "data" ? plan.replicas : plan.stages) =
          mesh->at(strategies[0]);
      plan.ranks = mesh->at(plan.strategy);
    }
  } else if (strategies.size() == 2) {
    return invalid("--parallel " + options.parallel +
                   " is a 2-D mesh: give its sizes, --mesh " + strategies[0] +
                   "=" + (strategies[0] == "data" ? "D" : "P") + "," +
                   plan.strategy + "=N");
  }
  if (options.devices < 1 || options.devices > int(rt::kMaxRanks))
    return invalid("devices must be from 1 to " +
                   std::to_string(rt::kMaxRanks));
  if (strategies.size() == 1)
    plan.ranks = options.devices;
  // 1-D data parallelism is N replicas of a one-rank program: the runtime
  // cuts the batch and stacks the outputs, no collective and no rank sees
  // another's rows. --shard lays values out over ranks, so it keeps N ranks
  // that slice the batch themselves and all-gather.
  if (strategies.size() == 1 && plan.strategy == "data" &&
      options.shard.empty() && plan.ranks > 1) {
    plan.replicas = plan.ranks;
    plan.ranks = 1;
  }
  if (options.fuseCollectivesBelow < 0)
    return invalid("--fuse-collectives-below is a byte count (0: never)");
  if (options.microBatches < 1 ||
      options.microBatches > int(rt::kMaxMicroBatches))
    return invalid("micro-batches must be from 1 to " +
                   std::to_string(rt::kMaxMicroBatches));
  bool pipelined =
      (plan.strategy == "pipeline" && plan.ranks > 1) || plan.stages > 1;
  if (options.microBatches > 1 && !pipelined)
    return invalid("micro-batches are for pipeline parallelism (--parallel "
                   "pipeline over 2 or more devices)");
  for (const std::string &text : options.shard) {
    std::string why;
    if (!compiler::sharding::parseShardAnnotation(text, why))
      return invalid(why);
  }
  if (!options.shard.empty() &&
      (options.devices < 2 || plan.strategy == "pipeline" || plan.stages > 1))
    return invalid("--shard lays values out over the ranks of tensor or data "
                   "parallelism (--devices 2 or more)");
  return plan;
}

} // namespace kiln
