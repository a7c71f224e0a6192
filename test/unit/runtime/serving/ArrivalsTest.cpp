//===- ArrivalsTest.cpp - Synthetic and replayed arrivals -----------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/serving/Arrivals.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace kiln::rt;
using namespace kiln::rt::serving;

namespace {

/// Mean and coefficient of variation of the gaps between arrivals.
std::pair<double, double> gapStatistics(const std::vector<Arrival> &arrivals) {
  std::vector<double> gaps;
  for (std::size_t i = 1; i < arrivals.size(); ++i)
    gaps.push_back(double(arrivals[i].time - arrivals[i - 1].time));
  double mean = 0;
  for (double g : gaps)
    mean += g;
  mean /= double(gaps.size());
  double variance = 0;
  for (double g : gaps)
    variance += (g - mean) * (g - mean);
  variance /= double(gaps.size());
  return {mean, std::sqrt(variance) / mean};
}

TEST(ArrivalsTest, GammaSamplerHasTheRequestedMeanAndVariance) {
  Rng rng(7);
  for (double shape : {0.0625, 0.5, 1.0, 4.0}) {
    double sum = 0, sumSquares = 0;
    const int n = 200000;
    for (int i = 0; i < n; ++i) {
      double x = rng.gamma(shape, 2.0);
      ASSERT_GE(x, 0.0);
      sum += x;
      sumSquares += x * x;
    }
    double mean = sum / n, variance = sumSquares / n - mean * mean;
    EXPECT_NEAR(mean, shape * 2.0, 0.05 * shape * 2.0) << "shape " << shape;
    EXPECT_NEAR(variance, shape * 4.0, 0.1 * shape * 4.0) << "shape " << shape;
  }
}

TEST(ArrivalsTest, PoissonAndGammaMatchRateAndBurstiness) {
  ArrivalOptions options;
  options.duration = 200'000'000; // 200 s at 1000/s.
  options.seed = 3;
  std::vector<ArrivalStream> streams = {{"m", 1000.0, {1.0}}};
  auto poisson = generateArrivals(streams, options);
  EXPECT_NEAR(double(poisson.size()), 200000, 2000);
  auto [poissonMean, poissonCv] = gapStatistics(poisson);
  EXPECT_NEAR(poissonMean, 1000, 20);
  EXPECT_NEAR(poissonCv, 1.0, 0.03);

  options.process = ArrivalProcess::kGamma;
  options.cv = 4;
  auto gamma = generateArrivals(streams, options);
  EXPECT_NEAR(double(gamma.size()), 200000, 20000);
  auto [gammaMean, gammaCv] = gapStatistics(gamma);
  EXPECT_NEAR(gammaMean, 1000, 100);
  // Integer microseconds round the tiniest gaps; the CV stays near 4.
  EXPECT_NEAR(gammaCv, 4.0, 0.4);
}

TEST(ArrivalsTest, SameSeedSameArrivalsAndPriorityShares) {
  ArrivalOptions options;
  options.process = ArrivalProcess::kGamma;
  options.cv = 2;
  options.duration = 10'000'000;
  options.seed = 11;
  std::vector<ArrivalStream> streams = {{"a", 500, {0.25, 0.75}},
                                        {"b", 300, {1, 0}}};
  auto first = generateArrivals(streams, options);
  auto second = generateArrivals(streams, options);
  ASSERT_EQ(first.size(), second.size());
  std::size_t high = 0, fromA = 0;
  for (std::size_t i = 0; i < first.size(); ++i) {
    ASSERT_EQ(first[i].time, second[i].time);
    ASSERT_EQ(first[i].model, second[i].model);
    ASSERT_EQ(first[i].priority, second[i].priority);
    if (i)
      ASSERT_LE(first[i - 1].time, first[i].time);
    if (first[i].model == "a") {
      ++fromA;
      high += first[i].priority == 0;
    } else {
      ASSERT_EQ(first[i].priority, 0);
    }
  }
  EXPECT_NEAR(double(high) / double(fromA), 0.25, 0.03);
  options.seed = 12;
  auto other = generateArrivals(streams, options);
  EXPECT_NE(other.size() == first.size() && other[5].time == first[5].time,
            true);
}

TEST(ArrivalsTest, TraceReplayParsesAndSorts) {
  auto trace = parseArrivalTrace("time_ms,model,priority,slo_ms\n"
                                 "# a comment\n"
                                 "2.5,bert,1\n"
                                 "\n"
                                 "1.0,resnet,0,20\n",
                                 "t.csv");
  ASSERT_TRUE(trace.isOk()) << trace.status().toString();
  ASSERT_EQ(trace->size(), 2u);
  EXPECT_EQ((*trace)[0].model, "resnet");
  EXPECT_EQ((*trace)[0].time, 1000);
  EXPECT_EQ((*trace)[0].slo, 20000);
  EXPECT_EQ((*trace)[1].model, "bert");
  EXPECT_EQ((*trace)[1].priority, 1);
  EXPECT_FALSE((*trace)[1].slo.has_value());
}

TEST(ArrivalsTest, TraceErrorsNameTheLine) {
  struct Case {
    const char *text;
    const char *expected;
  } cases[] = {
      {"1,a,0\n2,b\n", "t.csv:2: expected time_ms,model,priority"},
      {"1,a,0\n\n-1,a,0\n", "t.csv:3: time_ms '-1'"},
      {"x,a,0\n", "t.csv:1: time_ms 'x'"},
      {"1,,0\n", "t.csv:1: model name is empty"},
      {"1,a,1.5\n", "t.csv:1: priority '1.5'"},
      {"1,a,0,0\n", "t.csv:1: slo_ms '0'"},
      {"1,a,0,5,6\n", "t.csv:1: expected"},
  };
  for (const Case &c : cases) {
    auto trace = parseArrivalTrace(c.text, "t.csv");
    ASSERT_FALSE(trace.isOk()) << c.text;
    EXPECT_EQ(trace.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(trace.status().message().find(c.expected), std::string::npos)
        << trace.status().message();
  }
  EXPECT_EQ(readArrivalTrace("/nonexistent/trace.csv").status().code(),
            StatusCode::kNotFound);
}

TEST(ArrivalsTest, WrittenTracesReadBackExactly) {
  std::vector<ArrivalStream> streams = {{"a", 900.0, {1.0, 3.0}},
                                        {"b", 300.0, {1.0}}};
  ArrivalOptions options;
  options.process = ArrivalProcess::kGamma;
  options.cv = 4;
  options.seed = 5;
  options.duration = 2'000'000;
  std::vector<Arrival> drawn = generateArrivals(streams, options);
  ASSERT_GT(drawn.size(), 1000u);
  drawn[3].slo = 12'345; // One with its own SLO: the column appears.
  std::string csv = arrivalTraceCsv(drawn);
  EXPECT_EQ(csv.rfind("time_ms,model,priority,slo_ms\n", 0), 0u);
  auto back = parseArrivalTrace(csv, "written.csv");
  ASSERT_TRUE(back.isOk()) << back.status().toString();
  ASSERT_EQ(back->size(), drawn.size());
  for (size_t i = 0; i < drawn.size(); ++i) {
    EXPECT_EQ((*back)[i].time, drawn[i].time) << i;
    EXPECT_EQ((*back)[i].model, drawn[i].model) << i;
    EXPECT_EQ((*back)[i].priority, drawn[i].priority) << i;
    EXPECT_EQ((*back)[i].slo, drawn[i].slo) << i;
  }
  EXPECT_EQ(arrivalTraceCsv({}), "time_ms,model,priority\n");
}

} // namespace
