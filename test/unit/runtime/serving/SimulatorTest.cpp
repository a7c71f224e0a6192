//===- SimulatorTest.cpp - The pool in virtual time, end to end -----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/serving/Simulator.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

using namespace kiln::rt;
using namespace kiln::rt::serving;

namespace {

SimConfig acceptanceConfig() {
  StatusOr<SimConfig> config =
      readSimConfig(KILN_SERVING_EXAMPLES_DIR "/acceptance.json");
  EXPECT_TRUE(config.isOk()) << config.status().toString();
  return *config;
}

SimulationResult run(const SimConfig &config) {
  StatusOr<SimulationResult> result = simulate(config);
  EXPECT_TRUE(result.isOk()) << result.status().toString();
  return std::move(*result);
}

TEST(SimulatorTest, SameSeedSameReportOtherSeedOtherReport) {
  SimConfig config = acceptanceConfig();
  config.duration = 10'000'000;
  std::string first = reportToJson(run(config).report);
  std::string second = reportToJson(run(config).report);
  EXPECT_EQ(first, second);
  config.seed = 2;
  EXPECT_NE(reportToJson(run(config).report), first);
}

TEST(SimulatorTest, EveryPolicyAnswersEveryRequestExactlyOnce) {
  SimConfig config = acceptanceConfig();
  config.duration = 20'000'000;
  for (PolicyKind policy :
       {PolicyKind::kKiln, PolicyKind::kFifo, PolicyKind::kRoundRobin}) {
    config.pool.policy = policy;
    SimulationResult result = run(config);
    EXPECT_GT(result.submitted, 10000u);
    EXPECT_EQ(result.responses, result.submitted) << policyKindName(policy);
    EXPECT_EQ(result.duplicateResponses, 0u) << policyKindName(policy);
    EXPECT_EQ(result.report.overall.arrivals, result.submitted);
  }
}

/// The issue's acceptance scenario (examples/serving/acceptance.json): 4
/// devices, 3 models, 80% offered load, Gamma arrivals with CV 4.
TEST(SimulatorTest, AcceptanceScenario) {
  SimConfig config = acceptanceConfig();
  ASSERT_EQ(config.devices.size(), 4u);
  ASSERT_EQ(config.models.size(), 3u);
  ASSERT_DOUBLE_EQ(config.load, 0.8);
  ASSERT_DOUBLE_EQ(config.cv, 4);

  Report kiln = run(config).report;
  config.pool.policy = PolicyKind::kFifo;
  Report fifo = run(config).report;
  config.pool.policy = PolicyKind::kRoundRobin;
  Report roundRobin = run(config).report;

  EXPECT_NEAR(kiln.measuredLoad, 0.8, 0.05);
  EXPECT_GE(kiln.overall.sloAttainment, 0.99);
  EXPECT_LE(fifo.overall.sloAttainment, 0.90);
  EXPECT_LE(roundRobin.overall.sloAttainment, 0.90);

  // High priority (level 0) against exactly its own arrivals replayed with
  // no low-priority traffic at all (a trace of the run's level-0 lines):
  // the low-priority 64% of the load adds to its p99, by at most 20%.
  // (The issue's target, p99 <= 2x the unloaded latency, is not met: the
  // high-priority requests alone already reach about 2.2x, queueing behind
  // each other; docs/resource-manager.md has figures.)
  const GroupReport &high = kiln.byPriority.at(0);
  ASSERT_EQ(high.priority, 0);
  SimConfig kilnConfig = acceptanceConfig();
  StatusOr<std::vector<Arrival>> arrivals = simulationArrivals(kilnConfig);
  ASSERT_TRUE(arrivals.isOk()) << arrivals.status().toString();
  std::vector<Arrival> highOnly;
  for (const Arrival &arrival : *arrivals)
    if (arrival.priority == 0)
      highOnly.push_back(arrival);
  ASSERT_EQ(highOnly.size(), high.arrivals);
  auto replay = [&](const std::vector<Arrival> &trace, const char *name) {
    std::string path = ::testing::TempDir() + "/" + name;
    std::ofstream(path) << arrivalTraceCsv(trace);
    SimConfig replayed = kilnConfig;
    replayed.arrivals = ArrivalSource::kTrace;
    replayed.tracePath = path;
    Report report = run(replayed).report;
    std::remove(path.c_str());
    return report;
  };
  // The whole trace replays into the same run.
  Report again = replay(*arrivals, "acceptance-all.csv");
  EXPECT_EQ(again.overall.completed, kiln.overall.completed);
  EXPECT_DOUBLE_EQ(again.overall.sloAttainment, kiln.overall.sloAttainment);
  EXPECT_DOUBLE_EQ(again.byPriority.at(0).p99OverUnloaded,
                   high.p99OverUnloaded);
  Report isolated = replay(highOnly, "acceptance-high.csv");
  EXPECT_LE(isolated.overall.p99OverUnloaded, high.p99OverUnloaded);
  EXPECT_LE(high.p99OverUnloaded, 1.2 * isolated.overall.p99OverUnloaded);
  EXPECT_LT(high.p99OverUnloaded, fifo.byPriority.at(0).p99OverUnloaded / 10);
  EXPECT_GE(high.sloAttainment, 0.99);
}

/// examples/serving/load-shift.json: vit-large goes from 5% to 90% of the
/// requests at 40 s. Kiln re-places and beats itself without adaptation;
/// placement changes stay within what the cooldown allows.
TEST(SimulatorTest, PlacementFollowsALoadShift) {
  StatusOr<SimConfig> config =
      readSimConfig(KILN_SERVING_EXAMPLES_DIR "/load-shift.json");
  ASSERT_TRUE(config.isOk()) << config.status().toString();
  SimulationResult adaptive = run(*config);
  SimConfig fixed = *config;
  fixed.pool.hotUtilisation = 1e9;
  SimulationResult staticPlacement = run(fixed);

  const Report &a = adaptive.report;
  EXPECT_EQ(adaptive.responses, adaptive.submitted);
  EXPECT_EQ(adaptive.duplicateResponses, 0u);
  EXPECT_GE(a.counters.at("moves") + a.counters.at("replications"), 1u);
  // No model changes twice within a cooldown: at most one change per model
  // and cooldown over the run (with one tick of slack).
  std::uint64_t bound =
      config->models.size() *
      std::uint64_t(config->duration / config->pool.cooldown + 1);
  EXPECT_LE(a.counters.at("moves") + a.counters.at("replications"), bound);
  EXPECT_EQ(staticPlacement.report.counters.at("moves"), 0u);
  EXPECT_GT(a.overall.sloAttainment,
            staticPlacement.report.overall.sloAttainment);
  // The timeline covers the run in 5 s windows.
  EXPECT_EQ(a.timeline.size(), 24u);
  for (const TimelinePoint &point : a.timeline)
    EXPECT_LE(point.metSlo, point.arrivals);
}

TEST(SimulatorTest, ReplaysATrace) {
  std::string path = ::testing::TempDir() + "/kiln-sim-trace.csv";
  {
    std::ofstream trace(path);
    trace << "time_ms,model,priority,slo_ms\n";
    for (int i = 0; i < 100; ++i)
      trace << i * 2 << ",m," << (i % 2) << (i % 4 ? "" : ",1") << "\n";
    trace << "10,unknown,0\n";
  }
  StatusOr<SimConfig> config = parseSimConfig(
      R"({"devices": [{"name": "g", "memory_mib": 100}],
          "priorities": [{"share": 1, "slo_x": 10}, {"share": 1, "slo_x": 10}],
          "arrivals": {"process": "trace", "path": ")" +
          path + R"("},
          "models": [{"name": "m", "weights_mib": 10, "load_ms": 1,
                      "latency_ms": {"1": 1.0, "4": 1.2}}]})",
      "/");
  ASSERT_TRUE(config.isOk()) << config.status().toString();
  SimulationResult result = run(*config);
  EXPECT_EQ(result.submitted, 101u);
  EXPECT_EQ(result.responses, 101u);
  EXPECT_EQ(result.report.overall.rejections.at("unknown_model"), 1u);
  // At half load every request makes its SLO, the 1 ms ones included.
  EXPECT_EQ(result.report.overall.metSlo, 100u);
  std::remove(path.c_str());
}

} // namespace
