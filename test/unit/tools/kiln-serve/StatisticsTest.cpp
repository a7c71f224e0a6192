//===- StatisticsTest.cpp - kiln-serve's statistics extension -------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Statistics.h"

#include "kiln/runtime/serving/InferenceData.h"

#include <gtest/gtest.h>

using namespace kiln::serve;
using namespace kiln::rt::serving;

namespace {

/// A request of a `batch`-request execution: queued `queue` µs from its
/// arrival at 1000, then computed `compute` µs, answered 10 µs later.
Response served(const std::string &model, int batch, Micros queue,
                Micros compute) {
  Response response;
  response.model = model;
  response.outcome = Outcome::kCompleted;
  response.batchSize = batch;
  response.arrival = 1000;
  response.data = std::make_shared<InferenceData>();
  response.data->executionStart = 1000 + queue;
  response.data->executionEnd = 1000 + queue + compute;
  response.finish = response.data->executionEnd + 10;
  return response;
}

} // namespace

TEST(StatisticsTest, CountsInferencesExecutionsAndDurations) {
  Statistics stats;
  stats.record(served("m", 1, 5, 100), false, 111);
  // One execution of 3 requests, 300 µs, each queued a different time.
  for (Micros queue : {1, 2, 3})
    stats.record(served("m", 3, queue, 300), false, 222);
  // Latencies 115, 311, 312 and 313 µs; compute 100 + 3 x 300.
  std::string page = stats.render({"m"});
  EXPECT_EQ(
      page,
      "{\"model_stats\":[{\"name\":\"m\",\"version\":\"1\","
      "\"last_inference\":222,\"inference_count\":4,\"execution_count\":2,"
      "\"inference_stats\":{\"success\":{\"count\":4,\"ns\":1051000},"
      "\"fail\":{\"count\":0,\"ns\":0},\"queue\":{\"count\":4,\"ns\":11000},"
      "\"compute_input\":{\"count\":0,\"ns\":0},"
      "\"compute_infer\":{\"count\":4,\"ns\":1000000},"
      "\"compute_output\":{\"count\":0,\"ns\":0}},\"batch_stats\":["
      "{\"batch_size\":1,\"compute_input\":{\"count\":0,\"ns\":0},"
      "\"compute_infer\":{\"count\":1,\"ns\":100000},"
      "\"compute_output\":{\"count\":0,\"ns\":0}},"
      "{\"batch_size\":3,\"compute_input\":{\"count\":0,\"ns\":0},"
      "\"compute_infer\":{\"count\":1,\"ns\":300000},"
      "\"compute_output\":{\"count\":0,\"ns\":0}}]}]}");
}

TEST(StatisticsTest, FailuresRejectionsAndCancellations) {
  Statistics stats;
  stats.record(served("m", 1, 5, 100), /*failed=*/true, 1);
  Response rejected;
  rejected.model = "m";
  rejected.outcome = Outcome::kRejected;
  rejected.arrival = 10;
  rejected.finish = 30;
  stats.record(rejected, false, 2);
  Response cancelled = rejected;
  cancelled.outcome = Outcome::kCancelled;
  stats.record(cancelled, false, 3);
  std::string page = stats.render({"m"});
  EXPECT_NE(page.find("\"inference_count\":0,\"execution_count\":0"),
            std::string::npos)
      << page;
  // The failed execution (115 µs) and the rejection (20 µs); the
  // cancellation is neither.
  EXPECT_NE(page.find("\"fail\":{\"count\":2,\"ns\":135000}"),
            std::string::npos)
      << page;
  EXPECT_NE(page.find("\"last_inference\":0"), std::string::npos);
}

TEST(StatisticsTest, UnusedModelsHaveZerosAndNamesAreQuoted) {
  Statistics stats;
  std::string page = stats.render({"a\"b", "c"});
  EXPECT_NE(page.find("{\"name\":\"a\\\"b\",\"version\":\"1\","
                      "\"last_inference\":0,\"inference_count\":0"),
            std::string::npos)
      << page;
  EXPECT_NE(page.find("{\"name\":\"c\""), std::string::npos);
  EXPECT_NE(page.find("\"batch_stats\":[]}"), std::string::npos);
  EXPECT_EQ(Statistics().render({}), "{\"model_stats\":[]}");
}

TEST(StatisticsTest, EachVersionServedHasItsOwnEntry) {
  Statistics stats;
  stats.record(served("bert/2", 1, 5, 100), false, 111);
  stats.record(served("bert/3", 1, 5, 100), false, 111);
  stats.record(served("bert/3", 1, 5, 100), false, 111);
  std::string page = stats.render({"bert/2", "bert/3"});
  EXPECT_NE(page.find("{\"name\":\"bert\",\"version\":\"2\",\"last_inference\""
                      ":111,\"inference_count\":1,"),
            std::string::npos)
      << page;
  EXPECT_NE(page.find("{\"name\":\"bert\",\"version\":\"3\",\"last_inference\""
                      ":111,\"inference_count\":2,"),
            std::string::npos)
      << page;
}
