//===- Observers.cpp - Calibration statistics for int8 PTQ ----------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "compiler/Quantization/Observers.h"

#include <algorithm>
#include <cmath>

using namespace kiln::compiler;

QuantParams kiln::compiler::int8ParamsForRange(double lo, double hi) {
  lo = std::min(lo, 0.0);
  hi = std::max(hi, 0.0);
  QuantParams params;
  if (hi - lo <= 0)
    return params; // All zeros: any scale represents them.
  params.scale = (hi - lo) / 255.0;
  double zero = std::nearbyint(-128.0 - lo / params.scale);
  params.zeroPoint = static_cast<int32_t>(std::clamp(zero, -128.0, 127.0));
  return params;
}

std::optional<CalibrationMethod>
kiln::compiler::parseCalibrationMethod(const std::string &name) {
  if (name == "minmax")
    return CalibrationMethod::kMinMax;
  if (name == "percentile")
    return CalibrationMethod::kPercentile;
  return std::nullopt;
}

void RangeObserver::observeRange(const float *values, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    double v = values[i];
    if (!std::isfinite(v)) {
      ++nonFinite_;
      continue;
    }
    if (!seen_) {
      min_ = max_ = v;
      seen_ = true;
    }
    min_ = std::min(min_, v);
    max_ = std::max(max_, v);
  }
}

void RangeObserver::observeHistogram(const float *values, size_t count) {
  if (bins_.empty())
    bins_.assign(kBins, 0);
  double width = (max_ - min_) / kBins;
  if (width <= 0)
    return;
  for (size_t i = 0; i < count; ++i) {
    double v = values[i];
    if (!std::isfinite(v))
      continue;
    int bin = static_cast<int>((v - min_) / width);
    ++bins_[std::clamp(bin, 0, kBins - 1)];
    ++binned_;
  }
}

std::pair<double, double> RangeObserver::range() const {
  if (!seen_)
    return {0.0, 0.0};
  if (method_ == CalibrationMethod::kMinMax || binned_ == 0)
    return {min_, max_};
  // The bins holding the 0.01st and 99.99th percentiles: their outer edges.
  double width = (max_ - min_) / kBins;
  uint64_t tail = static_cast<uint64_t>(binned_ * 1e-4);
  uint64_t below = 0;
  int first = 0;
  while (first < kBins - 1 && below + bins_[first] <= tail)
    below += bins_[first++];
  uint64_t above = 0;
  int last = kBins - 1;
  while (last > first && above + bins_[last] <= tail)
    above += bins_[last--];
  return {min_ + first * width, min_ + (last + 1) * width};
}
