//===- StatsJson.cpp - kilnc compile --stats-json -------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "StatsJson.h"

#include "compiler/MemoryPlanning/PlanReport.h"
#include "kiln/runtime/CommunicatorCollectives.h"
#include "kiln/runtime/serving/Json.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace kiln::tools {

/// The plan of the artifact's first device, or an error (older artifacts
/// have none).
rt::StatusOr<rt::MemoryPlan> firstPlan(const rt::Artifact &artifact) {
  for (const rt::MemoryPlan &plan : artifact.memoryPlans)
    if (plan.device == 0)
      return plan;
  return rt::invalidArgument("the artifact has no memory plan (written by "
                             "an older Kiln; recompile the model)");
}

namespace {

/// The arithmetic of one run of `program`'s first device (steps that
/// record it), for cost models.
uint64_t programFlops(const rt::Program &program) {
  uint64_t flops = 0;
  for (const rt::Step &step : program.devices.front().steps)
    flops += step.flops;
  return flops;
}

/// The accuracy budget's outcome: "precision": {budget, top-1s, layers}.
std::string precisionJson(const rt::PrecisionReport &report) {
  char figures[256];
  std::snprintf(figures, sizeof(figures),
                "\"max_accuracy_drop\": %.4g, \"validation_predictions\": %u, "
                "\"fp32_top1\": %.4f, \"all_int8_top1\": %.4f, "
                "\"top1\": %.4f, \"drop\": %.4f",
                report.budget, report.predictions, report.fp32Top1,
                report.allInt8Top1, report.finalTop1,
                report.fp32Top1 - report.finalTop1);
  std::string layers;
  for (const rt::PrecisionReport::Layer &layer : report.layers) {
    char drop[64];
    std::snprintf(drop, sizeof(drop), "%.4f", layer.soloDrop);
    layers += std::string(layers.empty() ? "" : ",") +
              "\n    {\"name\": " + rt::serving::json::quote(layer.name) +
              ", \"precision\": \"" + (layer.int8 ? "int8" : "fp32") +
              "\", \"solo_drop\": " + drop + "}";
  }
  return "  \"precision\": {" + std::string(figures) + ", \"layers\": [" +
         layers + "\n  ]},\n";
}

/// The plan's figures (an object) with the arithmetic of one run first.
rt::StatusOr<std::string> planStatsJson(const rt::Artifact &artifact) {
  rt::StatusOr<rt::MemoryPlan> plan = firstPlan(artifact);
  if (!plan.isOk())
    return plan.status();
  std::string json = plan::formatStatsJson(
      *plan, artifact.program.devices[plan->device].arenaBytes);
  return "{\n  \"flops\": " + std::to_string(programFlops(artifact.program)) +
         ",\n" +
         (artifact.precisionReport ? precisionJson(*artifact.precisionReport)
                                   : "") +
         json.substr(2);
}

/// Pipeline figures of --stats-json: the bytes each stage sends per
/// micro-batch and the bubble GPipe's schedule predicts from the stages'
/// arithmetic: with t_s a stage's time per micro-batch, the run takes
/// sum(t) + (M - 1) max(t) and stage s is busy M t_s of it.
std::string pipelineStatsJson(const rt::RankedArtifact &ranked) {
  // Pipeline x tensor: stage s is ranks [s * width, (s + 1) * width),
  // which run at once; tensor rank 0 stands for its stage.
  size_t stages = ranked.stages(), width = ranked.stageRanks;
  double sum = 0, slowest = 0;
  std::string sends;
  for (size_t s = 0; s < stages; ++s) {
    const rt::Artifact &stage = ranked.ranks[s * width];
    double flops = double(programFlops(stage.program));
    sum += flops;
    slowest = std::max(slowest, flops);
    uint64_t bytes = 0;
    if (s + 1 < stages)
      for (const rt::TensorSpec &spec : stage.program.outputs)
        bytes += rt::tensorBytes(spec);
    sends += (s ? ", " : "") + std::to_string(bytes);
  }
  double m = ranked.microBatches;
  double total = sum + (m - 1) * slowest;
  double bubble = total > 0 ? 1.0 - m * sum / (double(stages) * total) : 0;
  char figures[160];
  std::snprintf(figures, sizeof(figures),
                "\"predicted_bubble\": %.4f, \"gpipe_bubble\": %.4f", bubble,
                (stages - 1.0) / (m + stages - 1.0));
  return "  \"pipeline\": {\"stages\": " + std::to_string(stages) +
         ", \"micro_batches\": " + std::to_string(ranked.microBatches) +
         ", \"send_bytes_per_micro_batch\": [" + sends + "], " + figures +
         "},\n";
}

} // namespace

rt::StatusOr<std::string> statsJson(const rt::RankedArtifact &ranked) {
  if (ranked.worldSize() == 1)
    return planStatsJson(ranked.ranks.front());
  // Per rank: its plan's figures and the collectives one run performs, by
  // kind, with the bytes each rank sends.
  std::string json = "{\n  \"strategy\": \"" + ranked.strategy + "\",\n" +
                     "  \"replicas\": " + std::to_string(ranked.replicas) +
                     ",\n" +
                     (ranked.isPipeline() ? pipelineStatsJson(ranked) : "") +
                     "  \"ranks\": [\n";
  for (size_t rank = 0; rank < ranked.ranks.size(); ++rank) {
    const rt::Artifact &artifact = ranked.ranks[rank];
    rt::StatusOr<std::string> planJson = planStatsJson(artifact);
    if (!planJson.isOk())
      return planJson.status();
    std::map<std::string, std::pair<uint64_t, uint64_t>> collectives;
    for (const rt::Step &step : artifact.program.devices[0].steps) {
      if (step.kind != rt::Step::Kind::kCollective || step.args.empty())
        continue;
      auto &[count, bytes] =
          collectives[rt::collectiveKindName(step.collective)];
      ++count;
      bytes += step.args.front().bytes;
    }
    // The plan's object, indented, with the rank and its collectives.
    std::string entry =
        "    {\"rank\": " + std::to_string(rank) + ", \"collectives\": {";
    bool first = true;
    for (auto &[kind, figures] : collectives) {
      entry += (first ? "\"" : ", \"") + kind +
               "\": {\"count\": " + std::to_string(figures.first) +
               ", \"bytes\": " + std::to_string(figures.second) + "}";
      first = false;
    }
    entry += "}, \"plan\": " + planJson->substr(0, planJson->size() - 1) + "}";
    json += entry + (rank + 1 < ranked.ranks.size() ? ",\n" : "\n");
  }
  return json + "  ]\n}\n";
}

} // namespace kiln::tools
