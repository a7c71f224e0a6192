//===- Statistics.cpp - The protocol's statistics extension ---------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Statistics.h"
#include "VersionPolicy.h"

#include "kiln/runtime/serving/InferenceData.h"
#include "kiln/runtime/serving/Json.h"

#include <algorithm>

namespace kiln::serve {

using rt::serving::Micros;
using rt::serving::Outcome;
using rt::serving::Response;

static std::uint64_t nanos(Micros micros) {
  return std::uint64_t(std::max<Micros>(0, micros)) * 1000;
}

void Statistics::record(const Response &response, bool failed,
                        std::uint64_t nowMillis) {
  if (response.outcome == Outcome::kCancelled)
    return; // the client's choice, neither a success nor a failure
  std::lock_guard<std::mutex> lock(mutex_);
  ModelFigures &model = models_[response.model];
  std::uint64_t latency = nanos(response.latency());
  if (response.outcome != Outcome::kCompleted || failed) {
    ++model.fail.count;
    model.fail.ns += latency;
    return;
  }
  ++model.success.count;
  model.success.ns += latency;
  model.lastInference = std::max(model.lastInference, nowMillis);
  if (!response.data)
    return;
  const rt::serving::InferenceData &data = *response.data;
  ++model.queue.count;
  model.queue.ns += nanos(data.executionStart - response.arrival);
  std::uint64_t compute = nanos(data.executionEnd - data.executionStart);
  ++model.computeInfer.count;
  model.computeInfer.ns += compute;
  BatchFigures &batch = model.batches[std::max(1, response.batchSize)];
  ++batch.requests;
  batch.computeNs += compute;
}

static std::string duration(std::uint64_t count, std::uint64_t ns) {
  return "{\"count\":" + std::to_string(count) +
         ",\"ns\":" + std::to_string(ns) + "}";
}

std::string
Statistics::render(const std::vector<std::string> &models,
                   const std::map<std::string, std::string> &versions) const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::string out = "{\"model_stats\":[";
  bool first = true;
  for (const std::string &name : models) {
    ServedName served = ServedName::parse(name);
    std::string version = versions.count(name) ? versions.at(name)
                          : served.version     ? std::to_string(served.version)
                                               : std::string("1");
    auto found = models_.find(name);
    ModelFigures none;
    const ModelFigures &model = found == models_.end() ? none : found->second;
    std::uint64_t executions = 0;
    std::string batches;
    for (const auto &[size, figures] : model.batches) {
      std::uint64_t count = figures.requests / std::uint64_t(size);
      if (count == 0)
        continue; // a batch whose requests are still being answered
      executions += count;
      batches += std::string(batches.empty() ? "" : ",") +
                 "{\"batch_size\":" + std::to_string(size) +
                 ",\"compute_input\":" + duration(0, 0) +
                 ",\"compute_infer\":" +
                 duration(count, figures.computeNs / std::uint64_t(size)) +
                 ",\"compute_output\":" + duration(0, 0) + "}";
    }
    out += std::string(first ? "" : ",") +
           "{\"name\":" + rt::serving::json::quote(served.model) +
           ",\"version\":" + rt::serving::json::quote(version) +
           ",\"last_inference\":" + std::to_string(model.lastInference) +
           ",\"inference_count\":" + std::to_string(model.success.count) +
           ",\"execution_count\":" + std::to_string(executions) +
           ",\"inference_stats\":{\"success\":" +
           duration(model.success.count, model.success.ns) +
           ",\"fail\":" + duration(model.fail.count, model.fail.ns) +
           ",\"queue\":" + duration(model.queue.count, model.queue.ns) +
           ",\"compute_input\":" + duration(0, 0) + ",\"compute_infer\":" +
           duration(model.computeInfer.count, model.computeInfer.ns) +
           ",\"compute_output\":" + duration(0, 0) + "},\"batch_stats\":[" +
           batches + "]}";
    first = false;
  }
  return out + "]}";
}

} // namespace kiln::serve
