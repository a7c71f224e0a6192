//===- Metrics.cpp - kiln-serve's Prometheus metrics ----------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Metrics.h"
#include "VersionPolicy.h"

#include <cstdio>
#include <functional>

namespace kiln::serve {

using rt::serving::Outcome;

const std::array<double, Metrics::kBucketCount> Metrics::kBuckets = {
    0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10};

void Metrics::record(const rt::serving::Response &response, bool failed) {
  std::lock_guard<std::mutex> lock(mutex_);
  Series &series = series_[{response.model, response.priority}];
  switch (response.outcome) {
  case Outcome::kCompleted: {
    ++(failed ? series.failure : series.success);
    if (failed)
      break;
    if (response.metDeadline())
      ++series.metDeadline;
    double seconds = double(response.latency()) / 1e6;
    for (size_t i = 0; i < kBuckets.size(); ++i)
      if (seconds <= kBuckets[i])
        ++series.buckets[i];
    ++series.count;
    series.sumSeconds += seconds;
    break;
  }
  case Outcome::kRejected:
    ++series.rejected;
    ++rejections_[{response.model,
                   rt::serving::rejectReasonName(response.reason)}];
    break;
  case Outcome::kCancelled:
    ++series.cancelled;
    break;
  }
}

/// A label value, escaped as the text format wants.
static std::string label(const std::string &value) {
  std::string out;
  for (char c : value) {
    if (c == '\\' || c == '"')
      out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out;
}

/// `model="NAME"` for a pool name NAME, `model="NAME",version="V"` for
/// NAME/V (VersionPolicy.h): one version of a model served with others.
static std::string modelLabels(const std::string &poolName) {
  ServedName served = ServedName::parse(poolName);
  return "model=\"" + label(served.model) + "\"" +
         (served.version ? ",version=\"" + std::to_string(served.version) + "\""
                         : std::string());
}

static std::string number(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.9g", value);
  return buffer;
}

static void header(std::string &out, const char *name, const char *type,
                   const char *help) {
  out += std::string("# HELP ") + name + " " + help + "\n# TYPE " + name +
         " " + type + "\n";
}

std::string Metrics::render(const PoolSnapshot &snapshot) const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::string out;
  auto modelPriority = [](const std::pair<std::string, int> &key) {
    return modelLabels(key.first) + ",priority=\"" +
           std::to_string(key.second) + "\"";
  };

  header(out, "kiln_inference_requests_total", "counter",
         "Requests answered, by model, priority level and outcome.");
  for (const auto &[key, s] : series_) {
    const std::pair<const char *, std::uint64_t> outcomes[] = {
        {"success", s.success},
        {"failure", s.failure},
        {"rejected", s.rejected},
        {"cancelled", s.cancelled}};
    for (const auto &[outcome, value] : outcomes)
      out += "kiln_inference_requests_total{" + modelPriority(key) +
             ",outcome=\"" + outcome + "\"} " + std::to_string(value) + "\n";
  }
  header(out, "kiln_inference_deadline_met_total", "counter",
         "Successful requests answered by their deadline.");
  for (const auto &[key, s] : series_)
    out += "kiln_inference_deadline_met_total{" + modelPriority(key) + "} " +
           std::to_string(s.metDeadline) + "\n";
  header(out, "kiln_inference_rejections_total", "counter",
         "Requests turned away, by model and reason.");
  for (const auto &[key, value] : rejections_)
    out += "kiln_inference_rejections_total{" + modelLabels(key.first) +
           ",reason=\"" + key.second + "\"} " + std::to_string(value) + "\n";
  header(out, "kiln_inference_latency_seconds", "histogram",
         "Arrival to response of successful requests.");
  for (const auto &[key, s] : series_) {
    std::string labels = modelPriority(key);
    for (size_t i = 0; i < kBuckets.size(); ++i)
      out += "kiln_inference_latency_seconds_bucket{" + labels + ",le=\"" +
             number(kBuckets[i]) + "\"} " + std::to_string(s.buckets[i]) +
             "\n";
    out += "kiln_inference_latency_seconds_bucket{" + labels +
           ",le=\"+Inf\"} " + std::to_string(s.count) + "\n";
    out += "kiln_inference_latency_seconds_sum{" + labels + "} " +
           number(s.sumSeconds) + "\n";
    out += "kiln_inference_latency_seconds_count{" + labels + "} " +
           std::to_string(s.count) + "\n";
  }

  header(out, "kiln_queue_depth", "gauge", "Requests waiting in the pool.");
  out += "kiln_queue_depth " + std::to_string(snapshot.queued) + "\n";
  header(out, "kiln_running_requests", "gauge",
         "Requests in batches that are executing.");
  out += "kiln_running_requests " + std::to_string(snapshot.running) + "\n";
  header(out, "kiln_batches_total", "counter", "Executions started.");
  out += "kiln_batches_total " + std::to_string(snapshot.batches) + "\n";
  header(out, "kiln_batched_requests_total", "counter",
         "Requests in the executions started.");
  out += "kiln_batched_requests_total " +
         std::to_string(snapshot.batchedRequests) + "\n";
  header(out, "kiln_model_loads_total", "counter", "Replicas loaded.");
  out += "kiln_model_loads_total " + std::to_string(snapshot.loads) + "\n";
  header(out, "kiln_model_unloads_total", "counter", "Replicas unloaded.");
  out += "kiln_model_unloads_total " + std::to_string(snapshot.unloads) + "\n";
  header(out, "kiln_model_ready", "gauge",
         "1 when the model is loaded and accepts requests.");
  for (const auto &[model, ready] : snapshot.modelsReady)
    out += "kiln_model_ready{" + modelLabels(model) + "} " +
           (ready ? "1" : "0") + "\n";

  using Device = PoolSnapshot::DeviceFigures;
  auto perDevice =
      [&](const char *name, const char *type, const char *help,
          const std::function<std::string(const Device &)> &value) {
        header(out, name, type, help);
        for (const Device &device : snapshot.devices)
          out += std::string(name) + "{device=\"" + label(device.name) +
                 "\"} " + value(device) + "\n";
      };
  perDevice("kiln_device_busy_seconds_total", "counter",
            "Time each device spent executing requests.",
            [](const Device &d) { return number(d.busySeconds); });
  perDevice("kiln_device_utilization", "gauge",
            "Busy time over uptime, per device.", [&](const Device &d) {
              return number(snapshot.uptimeSeconds > 0
                                ? d.busySeconds / snapshot.uptimeSeconds
                                : 0);
            });
  perDevice("kiln_device_memory_reserved_bytes", "gauge",
            "Memory reserved by loaded replicas (the ledger).",
            [](const Device &d) { return std::to_string(d.reservedBytes); });
  perDevice("kiln_device_memory_capacity_bytes", "gauge",
            "Memory the device offers to models.",
            [](const Device &d) { return std::to_string(d.capacityBytes); });
  if (snapshot.cpuEnergyJoules) {
    std::uint64_t served = 0;
    for (const auto &[key, s] : series_)
      served += s.success;
    header(out, "kiln_cpu_energy_joules_total", "counter",
           "CPU package energy since start (RAPL), every process included.");
    out += "kiln_cpu_energy_joules_total " + number(*snapshot.cpuEnergyJoules) +
           "\n";
    header(out, "kiln_energy_joules_per_request", "gauge",
           "CPU energy since start over the requests served since start.");
    out += "kiln_energy_joules_per_request " +
           number(served ? *snapshot.cpuEnergyJoules / double(served) : 0) +
           "\n";
  }
  header(out, "kiln_uptime_seconds", "gauge", "Seconds since start.");
  out += "kiln_uptime_seconds " + number(snapshot.uptimeSeconds) + "\n";
  return out;
}

} // namespace kiln::serve
