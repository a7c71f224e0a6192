//===- Observers.cpp - Calibration statistics for int8 PTQ ----------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "compiler/Quantization/Observers.h"

#include <algorithm>
#include <cmath>
#include <limits>

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
  if (name == "entropy")
    return CalibrationMethod::kEntropy;
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
    // Zero is exact in every range int8ParamsForRange gives: exact zeros
    // (ReLU's, padding's) lose nothing and would only weigh down the
    // divergence of the bin they share with small values.
    if (v == 0.0 && method_ == CalibrationMethod::kEntropy)
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
  return method_ == CalibrationMethod::kPercentile ? percentileRange()
                                                   : entropyRange();
}

std::pair<double, double> RangeObserver::percentileRange() const {
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

namespace {

constexpr int kLevels = 256;

/// KL(P || Q) for the histogram clipped to bins [first, last]: P is the
/// window with everything outside it added to its edge bins; Q spreads each
/// of 256 equal groups' counts (outliers left out) evenly over the group's
/// non-empty bins — what quantizing the window to int8 keeps of it.
double clippingDivergence(const std::vector<uint64_t> &bins, int first,
                          int last) {
  int width = last - first + 1;
  std::vector<double> p(bins.begin() + first, bins.begin() + last + 1);
  std::vector<double> q(width, 0.0);
  for (int level = 0; level < kLevels; ++level) {
    int lo = int(int64_t(level) * width / kLevels);
    int hi = int(int64_t(level + 1) * width / kLevels);
    double total = 0;
    int nonEmpty = 0;
    for (int j = lo; j < hi; ++j) {
      total += p[j];
      nonEmpty += p[j] > 0;
    }
    for (int j = lo; j < hi; ++j)
      if (p[j] > 0)
        q[j] = total / nonEmpty;
  }
  for (int j = 0; j < first; ++j)
    p.front() += double(bins[j]);
  for (int j = last + 1; j < int(bins.size()); ++j)
    p.back() += double(bins[j]);
  double pSum = 0, qSum = 0;
  for (int j = 0; j < width; ++j) {
    pSum += p[j];
    qSum += q[j];
  }
  // Where P has mass and Q none (an edge bin holding only outliers), Q is
  // given a little, so the divergence stays finite but large.
  constexpr double kFloor = 1e-4;
  double divergence = 0;
  for (int j = 0; j < width; ++j) {
    if (p[j] == 0)
      continue;
    double pj = p[j] / pSum;
    double qj = qSum > 0 ? std::max(q[j] / qSum, kFloor / width) : 1.0;
    divergence += pj * std::log(pj / qj);
  }
  return divergence;
}

} // namespace

std::pair<double, double> RangeObserver::entropyRange() const {
  // Candidate windows shrink the range towards zero by the same factor at
  // both ends (zero stays inside: int8ParamsForRange widens to it anyway),
  // from all of it down to 256 bins, one level per bin.
  double width = (max_ - min_) / kBins;
  double zero = std::clamp(-min_ / width, 0.0, double(kBins));
  double best = std::numeric_limits<double>::infinity();
  int bestFirst = 0, bestLast = kBins - 1, previousFirst = -1,
      previousLast = -1;
  for (int kept = kBins; kept >= kLevels; --kept) {
    double factor = double(kept) / kBins;
    int first = std::clamp(int(std::floor(zero - zero * factor)), 0, kBins - 1);
    int last = std::clamp(int(std::ceil(zero + (kBins - zero) * factor)) - 1,
                          first, kBins - 1);
    if (last - first + 1 < kLevels)
      break;
    if (first == previousFirst && last == previousLast)
      continue;
    previousFirst = first;
    previousLast = last;
    double divergence = clippingDivergence(bins_, first, last);
    if (divergence < best) {
      best = divergence;
      bestFirst = first;
      bestLast = last;
    }
  }
  return {min_ + bestFirst * width, min_ + (bestLast + 1) * width};
}
