//===- MetricsTest.cpp - kiln-serve's Prometheus page ---------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Metrics.h"

#include <gtest/gtest.h>

using namespace kiln::serve;
using namespace kiln::rt::serving;

namespace {

Response completed(const std::string &model, int priority, Micros latency,
                   Micros deadline = kNoDeadline) {
  Response response;
  response.model = model;
  response.priority = priority;
  response.outcome = Outcome::kCompleted;
  response.arrival = 1000;
  response.finish = 1000 + latency;
  response.deadline = deadline;
  return response;
}

bool has(const std::string &page, const std::string &line) {
  return page.find(line + "\n") != std::string::npos;
}

} // namespace

TEST(MetricsTest, HistogramBucketsAreCumulative) {
  Metrics metrics;
  metrics.record(completed("m", 0, 700), false);     // 0.7 ms
  metrics.record(completed("m", 0, 3000), false);    // 3 ms
  metrics.record(completed("m", 0, 20'000'000), false); // 20 s: +Inf only
  std::string page = metrics.render({});
  const std::string series = "kiln_inference_latency_seconds_bucket{model=\"m\","
                             "priority=\"0\",le=";
  EXPECT_TRUE(has(page, series + "\"0.0005\"} 0")) << page;
  EXPECT_TRUE(has(page, series + "\"0.001\"} 1"));
  EXPECT_TRUE(has(page, series + "\"0.005\"} 2"));
  EXPECT_TRUE(has(page, series + "\"10\"} 2"));
  EXPECT_TRUE(has(page, series + "\"+Inf\"} 3"));
  EXPECT_TRUE(has(page, "kiln_inference_latency_seconds_count{model=\"m\","
                        "priority=\"0\"} 3"));
  EXPECT_TRUE(has(page, "kiln_inference_latency_seconds_sum{model=\"m\","
                        "priority=\"0\"} 20.0037"));
}

TEST(MetricsTest, OutcomesRejectionsAndDeadlinesAreCounted) {
  Metrics metrics;
  metrics.record(completed("m", 1, 100, /*deadline=*/1050), false); // late
  metrics.record(completed("m", 1, 10, /*deadline=*/1050), false);
  metrics.record(completed("m", 1, 10), /*failed=*/true);
  Response rejected = completed("m", 1, 0);
  rejected.outcome = Outcome::kRejected;
  rejected.reason = RejectReason::kQueueFull;
  metrics.record(rejected, false);
  std::string page = metrics.render({});
  const std::string labels = "{model=\"m\",priority=\"1\",outcome=";
  EXPECT_TRUE(has(page, "kiln_inference_requests_total" + labels +
                            "\"success\"} 2"))
      << page;
  EXPECT_TRUE(has(page, "kiln_inference_requests_total" + labels +
                            "\"failure\"} 1"));
  EXPECT_TRUE(has(page, "kiln_inference_requests_total" + labels +
                            "\"rejected\"} 1"));
  EXPECT_TRUE(has(page, "kiln_inference_deadline_met_total{model=\"m\","
                        "priority=\"1\"} 1"));
  EXPECT_TRUE(has(page, "kiln_inference_rejections_total{model=\"m\","
                        "reason=\"queue_full\"} 1"));
}

TEST(MetricsTest, LabelValuesAreEscaped) {
  Metrics metrics;
  PoolSnapshot snapshot;
  snapshot.modelsReady["a\"b\\c"] = true;
  snapshot.devices.push_back({"cpu0", 1.5, 100, 1000});
  snapshot.uptimeSeconds = 3;
  std::string page = metrics.render(snapshot);
  EXPECT_TRUE(has(page, "kiln_model_ready{model=\"a\\\"b\\\\c\"} 1")) << page;
  EXPECT_TRUE(has(page, "kiln_device_utilization{device=\"cpu0\"} 0.5"));
  EXPECT_TRUE(has(page, "kiln_device_memory_reserved_bytes{device=\"cpu0\"} 100"));
}

TEST(MetricsTest, EnergyAppearsOnlyWhenMeasured) {
  Metrics metrics;
  metrics.record(completed("m", 0, 100), false);
  metrics.record(completed("m", 0, 100), false);
  EXPECT_EQ(metrics.render({}).find("energy"), std::string::npos);
  PoolSnapshot snapshot;
  snapshot.cpuEnergyJoules = 3.0;
  std::string page = metrics.render(snapshot);
  EXPECT_TRUE(has(page, "kiln_cpu_energy_joules_total 3")) << page;
  EXPECT_TRUE(has(page, "kiln_energy_joules_per_request 1.5"));
}

TEST(MetricsTest, OneVersionOfSeveralIsLabelled) {
  Metrics metrics;
  metrics.record(completed("bert/2", 0, 700), false);
  metrics.record(completed("mlp", 0, 700), false);
  PoolSnapshot snapshot;
  snapshot.modelsReady["bert/2"] = true;
  std::string page = metrics.render(snapshot);
  EXPECT_TRUE(has(page, "kiln_inference_latency_seconds_count{model=\"bert\","
                        "version=\"2\",priority=\"0\"} 1"))
      << page;
  EXPECT_TRUE(has(page, "kiln_inference_latency_seconds_count{model=\"mlp\","
                        "priority=\"0\"} 1"));
  EXPECT_TRUE(has(page, "kiln_model_ready{model=\"bert\",version=\"2\"} 1"));
}
