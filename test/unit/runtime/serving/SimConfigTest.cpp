//===- SimConfigTest.cpp - The simulator's JSON config --------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/serving/Simulator.h"

#include <gtest/gtest.h>

using namespace kiln::rt;
using namespace kiln::rt::serving;

namespace {

const char *kMinimal = R"({
  "devices": [{"name": "gpu", "count": 2, "memory_mib": 1024}],
  "models": [{"name": "m", "weights_mib": 100, "load_ms": 10,
              "latency_ms": {"1": 2, "4": 3}}]
})";

TEST(SimConfigTest, ExampleAndMinimalConfigsParse) {
  StatusOr<SimConfig> example =
      readSimConfig(KILN_SERVING_EXAMPLES_DIR "/acceptance.json");
  ASSERT_TRUE(example.isOk()) << example.status().toString();
  EXPECT_EQ(example->devices.size(), 4u);
  EXPECT_EQ(example->devices[3].name, "gpu3");
  EXPECT_EQ(example->models.size(), 3u);
  EXPECT_EQ(example->priorities.size(), 2u);
  EXPECT_EQ(example->pool.queue.priorityLevels, 2);
  EXPECT_EQ(example->arrivals, ArrivalSource::kGamma);
  EXPECT_DOUBLE_EQ(example->cv, 4);
  EXPECT_DOUBLE_EQ(example->load, 0.8);

  StatusOr<SimConfig> minimal = parseSimConfig(kMinimal, ".");
  ASSERT_TRUE(minimal.isOk()) << minimal.status().toString();
  EXPECT_EQ(minimal->devices[1].memoryBytes, 1024u * 1024 * 1024);
  EXPECT_EQ(minimal->models[0].spec.profile.latencyFor(3), 3000);
  EXPECT_EQ(minimal->models[0].spec.reloadTime, 10'000)
      << "reload defaults to the cold load";
  EXPECT_EQ(minimal->pool.policy, PolicyKind::kKiln);
}

TEST(SimConfigTest, RatesMeetTheOfferedLoad) {
  StatusOr<SimConfig> config = parseSimConfig(kMinimal, ".");
  ASSERT_TRUE(config.isOk());
  config->load = 0.5;
  // 2 devices at 50% with 2 ms requests: 500 requests per second.
  EXPECT_NEAR(modelRates(*config)[0], 500, 1e-9);
}

TEST(SimConfigTest, ErrorsNameTheJsonPath) {
  struct Case {
    std::string patch; ///< Replaces the models array.
    const char *expected;
  } cases[] = {
      {R"("models": [{"name": "m", "weights_mib": "big", "load_ms": 1,
           "latency_ms": {"1": 2}}])",
       "$.models[0].weights_mib: must be a number"},
      {R"("models": [{"name": "m", "weights_mib": 1, "load_ms": 1,
           "latency_ms": {"1": 2, "x": 3}}])",
       "$.models[0].latency_ms[\"x\"]: batch size must be a positive integer"},
      {R"("models": [{"name": "m", "weights_mib": 1, "load_ms": 1,
           "latency_ms": {"4": 2}}])",
       "$.models[0].latency_ms: needs batch size 1"},
      {R"("models": [{"name": "m", "weights_mib": 1, "load_ms": 1,
           "latency_ms": {"1": -2}}])",
       "$.models[0].latency_ms[\"1\"]: must be a positive number"},
      {R"("models": [{"name": "m", "weights_mib": 1, "load_ms": 1,
           "latency_ms": {"1": 2}, "wieghts": 3}])",
       "$.models[0]: unknown key \"wieghts\""},
      {R"("models": [{"name": "m", "weights_mib": 1,
           "latency_ms": {"1": 2}}])",
       "$.models[0].load_ms: is required"},
      {R"("models": [{"name": "m", "weights_mib": 1, "load_ms": 1,
           "latency_ms": {"1": 2}}, {"name": "m", "weights_mib": 1,
           "load_ms": 1, "latency_ms": {"1": 2}}])",
       "$.models[1].name: duplicate model"},
      {R"("models": [], "load": 1)", "$.models: must be a non-empty array"},
  };
  std::string base = kMinimal;
  auto modelsAt = base.find("\"models\"");
  std::string prefix = base.substr(0, modelsAt);
  for (const Case &c : cases) {
    std::string text = prefix + c.patch + "\n}";
    StatusOr<SimConfig> config = parseSimConfig(text, ".");
    ASSERT_FALSE(config.isOk()) << text;
    EXPECT_EQ(config.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(config.status().message().find(c.expected), std::string::npos)
        << config.status().message();
  }
}

TEST(SimConfigTest, OverridesEditTheJsonBeforeItIsRead) {
  StatusOr<SimConfig> config = parseSimConfig(
      kMinimal, ".",
      {"policy=fifo", "pool.batching=false", "arrivals.process=gamma",
       "arrivals.cv=2", "devices.0=1"});
  // "devices.0" names a member of an array: refused with its path.
  ASSERT_FALSE(config.isOk());
  EXPECT_NE(config.status().message().find("'devices.0=1'"), std::string::npos)
      << config.status().message();

  config = parseSimConfig(kMinimal, ".",
                          {"policy=fifo", "pool.batching=false",
                           "arrivals.process=gamma", "arrivals.cv=2"});
  ASSERT_TRUE(config.isOk()) << config.status().toString();
  EXPECT_EQ(config->pool.policy, PolicyKind::kFifo);
  EXPECT_FALSE(config->pool.batching);
  EXPECT_EQ(config->arrivals, ArrivalSource::kGamma);
  EXPECT_DOUBLE_EQ(config->cv, 2);

  config = parseSimConfig(kMinimal, ".", {"pool.batching=maybe"});
  ASSERT_FALSE(config.isOk());
  EXPECT_NE(config.status().message().find("$.pool.batching"),
            std::string::npos);
  EXPECT_FALSE(parseSimConfig(kMinimal, ".", {"novalue"}).isOk());
}

TEST(SimConfigTest, LoadPhases) {
  StatusOr<SimConfig> shift =
      readSimConfig(KILN_SERVING_EXAMPLES_DIR "/load-shift.json");
  ASSERT_TRUE(shift.isOk()) << shift.status().toString();
  ASSERT_EQ(shift->phases.size(), 1u);
  EXPECT_EQ(shift->phases[0].start, 40'000'000);
  EXPECT_EQ(shift->phases[0].rateShares,
            (std::vector<double>{0.05, 0.05, 0.9}));
  EXPECT_EQ(shift->timelineInterval, 5'000'000);

  struct Case {
    const char *phases;
    const char *expected;
  } cases[] = {
      {R"([{"at_s": 70, "rate_share": {}}])",
       "$.phases[0].at_s: must increase and lie inside duration_s"},
      {R"([{"at_s": 5, "rate_share": {"m": 1}}, {"at_s": 5, "rate_share": {}}])",
       "$.phases[1].at_s: must increase"},
      {R"([{"at_s": 5, "rate_share": {"x": 1}}])",
       "$.phases[0].rate_share[\"x\"]: no model named \"x\""},
      {R"([{"at_s": 5, "rate_share": {"m": -1}}])",
       "$.phases[0].rate_share[\"m\"]: must be a non-negative number"},
      {R"([{"at_s": 5}])", "$.phases[0].rate_share: must map model names"},
  };
  for (const Case &c : cases) {
    StatusOr<SimConfig> config =
        parseSimConfig(kMinimal, ".", {std::string("phases=") + c.phases});
    ASSERT_FALSE(config.isOk()) << c.phases;
    EXPECT_NE(config.status().message().find(c.expected), std::string::npos)
        << config.status().message();
  }
}

TEST(SimConfigTest, TopLevelAndNestedErrors) {
  struct Case {
    std::string text;
    const char *expected;
  } cases[] = {
      {"{", "JSON 1:2: expected a string key"},
      {"{\"a\": [1,", "JSON 1:10: unexpected end of input"},
      {"{\n  \"seed\": 1,\n  \"seed\": 2\n}", "JSON 3:9: duplicate key"},
      {"[]", "$: must be an object"},
      {R"({"models": []})", "$.devices: is required"},
      {R"({"devices": [{"name": "g", "memory_mib": 10, "reserve_mib": 20}],
           "models": []})",
       "$.devices[0].reserve_mib: must be less than memory_mib"},
      {std::string(kMinimal).insert(1, "\"policy\": \"lifo\", "),
       "$.policy: must be \"kiln\", \"fifo\", \"round-robin\", \"jsq\" or "
       "\"triton\""},
      {std::string(kMinimal).insert(1,
                                    "\"arrivals\": {\"process\": \"gamma\"}, "),
       "$.arrivals.cv: is required"},
      {std::string(kMinimal).insert(
           1, "\"priorities\": [{\"share\": 1, \"slo_x\": 0.5}], "),
       "$.priorities[0].slo_x: must be in [1, 1000000], got 0.5"},
      {std::string(kMinimal).insert(1, "\"pool\": {\"aging\": 5}, "),
       "$.pool: unknown key \"aging\""},
      {std::string(kMinimal).insert(1, "\"pool\": {\"queue_capacity\": 1.5}, "),
       "$.pool.queue_capacity: must be an integer"},
  };
  for (const Case &c : cases) {
    StatusOr<SimConfig> config = parseSimConfig(c.text, ".");
    ASSERT_FALSE(config.isOk()) << c.text;
    EXPECT_NE(config.status().message().find(c.expected), std::string::npos)
        << config.status().message();
  }
  EXPECT_EQ(readSimConfig("/nonexistent.json").status().code(),
            StatusCode::kNotFound);
}

} // namespace
