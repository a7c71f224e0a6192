//===- Observers.h - Calibration statistics for int8 PTQ --------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// What int8 post-training quantization learns about an activation from the
// calibration samples, in memory bounded by a fixed histogram whatever the
// number of samples.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_QUANTIZATION_OBSERVERS_H
#define KILN_COMPILER_QUANTIZATION_OBSERVERS_H

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kiln::compiler {

/// real = scale * (q - zeroPoint), q in [-128, 127].
struct QuantParams {
  double scale = 1.0;
  int32_t zeroPoint = 0;
};

/// Asymmetric int8 parameters for values in [lo, hi], widened to hold 0 so
/// that zero (padding, ReLU's floor) is exact.
QuantParams int8ParamsForRange(double lo, double hi);

/// How an observer turns statistics into a range.
enum class CalibrationMethod {
  kMinMax,     ///< The observed minimum and maximum.
  kPercentile, ///< The 0.01st and 99.99th percentiles: outliers clipped.
  kEntropy,    ///< The clipping whose 256-level quantization of the
               ///< histogram loses the least information (smallest KL
               ///< divergence), as TensorRT's and ONNX Runtime's entropy
               ///< calibration.
};

/// "minmax", "percentile" or "entropy".
std::optional<CalibrationMethod>
parseCalibrationMethod(const std::string &name);

/// Streaming statistics of one tensor: a running minimum and maximum, then,
/// for percentiles and entropy, a second pass into kBins bins over that
/// range.
class RangeObserver {
public:
  static constexpr int kBins = 2048;

  explicit RangeObserver(CalibrationMethod method) : method_(method) {}

  /// Whether range() needs observeHistogram over every sample after
  /// observeRange saw them all.
  bool needsSecondPass() const { return method_ != CalibrationMethod::kMinMax; }

  /// First pass. Non-finite values are skipped (and counted).
  void observeRange(const float *values, size_t count);
  /// Second pass, after every observeRange.
  void observeHistogram(const float *values, size_t count);

  /// The range to quantize; [0, 0] before any finite value.
  std::pair<double, double> range() const;
  uint64_t nonFinite() const { return nonFinite_; }

private:
  std::pair<double, double> percentileRange() const;
  std::pair<double, double> entropyRange() const;

  CalibrationMethod method_;
  double min_ = 0, max_ = 0;
  bool seen_ = false;
  uint64_t nonFinite_ = 0;
  std::vector<uint64_t> bins_;
  uint64_t binned_ = 0;
};

} // namespace kiln::compiler

#endif // KILN_COMPILER_QUANTIZATION_OBSERVERS_H
