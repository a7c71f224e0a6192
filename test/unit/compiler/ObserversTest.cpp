//===- ObserversTest.cpp - int8 calibration statistics --------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "compiler/Quantization/Observers.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

using namespace kiln::compiler;

namespace {

TEST(Int8Params, CoversTheRangeWithZeroExact) {
  QuantParams params = int8ParamsForRange(-1.0, 3.0);
  EXPECT_DOUBLE_EQ(params.scale, 4.0 / 255.0);
  EXPECT_EQ(params.zeroPoint, -64);
  // A range above zero is widened to hold it: zero is q = -128.
  params = int8ParamsForRange(2.0, 6.0);
  EXPECT_DOUBLE_EQ(params.scale, 6.0 / 255.0);
  EXPECT_EQ(params.zeroPoint, -128);
  params = int8ParamsForRange(-5.0, -1.0);
  EXPECT_EQ(params.zeroPoint, 127);
  // All zeros: a usable scale, not a division by zero.
  params = int8ParamsForRange(0.0, 0.0);
  EXPECT_EQ(params.scale, 1.0);
  EXPECT_EQ(params.zeroPoint, 0);
}

TEST(RangeObserver, MinMaxStreamsOverSamplesAndSkipsNonFinite) {
  RangeObserver observer(CalibrationMethod::kMinMax);
  EXPECT_FALSE(observer.needsSecondPass());
  EXPECT_EQ(observer.range(), std::make_pair(0.0, 0.0));
  std::vector<float> a = {0.5f, -2.0f, std::numeric_limits<float>::quiet_NaN()};
  std::vector<float> b = {7.0f, std::numeric_limits<float>::infinity(), 1.0f};
  observer.observeRange(a.data(), a.size());
  observer.observeRange(b.data(), b.size());
  EXPECT_EQ(observer.range(), std::make_pair(-2.0, 7.0));
  EXPECT_EQ(observer.nonFinite(), 2u);
}

TEST(RangeObserver, PercentileClipsOutliers) {
  RangeObserver observer(CalibrationMethod::kPercentile);
  ASSERT_TRUE(observer.needsSecondPass());
  // 100,000 values in [0, 1) and one outlier at 1000 on each side.
  std::vector<float> values;
  for (int i = 0; i < 100000; ++i)
    values.push_back(static_cast<float>(i) / 100000.0f);
  values.push_back(1000.0f);
  values.push_back(-1000.0f);
  observer.observeRange(values.data(), values.size());
  observer.observeHistogram(values.data(), values.size());
  auto [lo, hi] = observer.range();
  // The bins are 2000 / 2048 wide: the range shrinks to the bins around
  // [0, 1), not to the outliers.
  double width = 2000.0 / RangeObserver::kBins;
  EXPECT_LE(lo, 0.0);
  EXPECT_GE(lo, -width);
  EXPECT_GE(hi, 1.0);
  EXPECT_LE(hi, 1.0 + 2 * width);
}

/// The range an entropy observer picks for `values`.
std::pair<double, double> entropyRange(const std::vector<float> &values) {
  RangeObserver observer(CalibrationMethod::kEntropy);
  EXPECT_TRUE(observer.needsSecondPass());
  observer.observeRange(values.data(), values.size());
  observer.observeHistogram(values.data(), values.size());
  return observer.range();
}

/// 100,000 normal values (mean 0, deviation 1), deterministic.
std::vector<float> normalValues() {
  std::mt19937 rng(3);
  std::normal_distribution<float> normal;
  std::vector<float> values(100000);
  for (float &value : values)
    value = normal(rng);
  return values;
}

TEST(RangeObserver, EntropyClipsRareOutliersButKeepsTheBulk) {
  std::vector<float> values = normalValues();
  values.push_back(60.0f);
  values.push_back(-60.0f);
  auto [lo, hi] = entropyRange(values);
  // Minmax would spend the 256 levels on [-60, 60], 0.47 apart, where
  // nearly every value lies in [-4, 4]: entropy clips to a few deviations.
  EXPECT_LT(hi, 20.0);
  EXPECT_GT(hi, 2.5);
  EXPECT_GT(lo, -20.0);
  EXPECT_LT(lo, -2.5);
}

TEST(RangeObserver, EntropyKeepsAUniformRange) {
  // Nothing to gain from clipping values spread evenly.
  std::vector<float> values;
  for (int i = 0; i < 100000; ++i)
    values.push_back(static_cast<float>(i) / 100000.0f);
  auto [lo, hi] = entropyRange(values);
  EXPECT_LE(lo, 0.0);
  EXPECT_GT(hi, 0.9);
}

TEST(RangeObserver, EntropyOfNonNegativeValuesStartsAtZero) {
  // After a ReLU: the window shrinks towards zero from above only.
  std::vector<float> values = normalValues();
  for (float &value : values)
    value = std::max(value, 0.0f);
  values.push_back(60.0f);
  auto [lo, hi] = entropyRange(values);
  EXPECT_EQ(lo, 0.0);
  EXPECT_LT(hi, 20.0);
  EXPECT_GT(hi, 2.5);
}

TEST(RangeObserver, ParsesMethods) {
  EXPECT_EQ(parseCalibrationMethod("minmax"), CalibrationMethod::kMinMax);
  EXPECT_EQ(parseCalibrationMethod("percentile"),
            CalibrationMethod::kPercentile);
  EXPECT_EQ(parseCalibrationMethod("entropy"), CalibrationMethod::kEntropy);
  EXPECT_FALSE(parseCalibrationMethod("kl"));
}

} // namespace
