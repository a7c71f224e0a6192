//===- Compare.cpp - Outputs against references, by value -----------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Compare.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace kiln::gpucheck {

namespace {
template <typename T> T load(const uint8_t *data, int64_t i) {
  T value;
  std::memcpy(&value, data + sizeof(T) * i, sizeof(T));
  return value;
}

double halfToDouble(uint16_t bits) {
  int sign = bits >> 15, exponent = (bits >> 10) & 0x1f,
      mantissa = bits & 0x3ff;
  double magnitude;
  if (exponent == 0)
    magnitude = std::ldexp(double(mantissa), -24); // subnormal
  else if (exponent == 31)
    magnitude = mantissa ? NAN : INFINITY;
  else
    magnitude = std::ldexp(double(mantissa | 0x400), exponent - 25);
  return sign ? -magnitude : magnitude;
}

double bfloatToDouble(uint16_t bits) {
  uint32_t widened = uint32_t(bits) << 16;
  float value;
  std::memcpy(&value, &widened, 4);
  return value;
}

std::string shapeText(const std::vector<int64_t> &shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    text += (i ? "," : "") + std::to_string(shape[i]);
  return text + "]";
}
} // namespace

double elementAsDouble(const rt::HostTensor &tensor, int64_t i) {
  const uint8_t *p = tensor.data.data();
  switch (tensor.dtype) {
  case rt::DType::kF32:
    return load<float>(p, i);
  case rt::DType::kF64:
    return load<double>(p, i);
  case rt::DType::kF16:
    return halfToDouble(load<uint16_t>(p, i));
  case rt::DType::kBF16:
    return bfloatToDouble(load<uint16_t>(p, i));
  case rt::DType::kI1:
    return p[i] != 0;
  case rt::DType::kI8:
    return load<int8_t>(p, i);
  case rt::DType::kI16:
    return load<int16_t>(p, i);
  case rt::DType::kI32:
    return load<int32_t>(p, i);
  case rt::DType::kI64:
    return double(load<int64_t>(p, i));
  case rt::DType::kU8:
    return p[i];
  case rt::DType::kU16:
    return load<uint16_t>(p, i);
  case rt::DType::kU32:
    return load<uint32_t>(p, i);
  case rt::DType::kU64:
    return double(load<uint64_t>(p, i));
  }
  return NAN;
}

Comparison compareOutputs(const std::vector<rt::HostTensor> &got,
                          const std::vector<rt::HostTensor> &want, double rtol,
                          double atol) {
  Comparison result;
  auto mismatch = [&](std::string what) {
    result.ok = false;
    if (result.mismatch.empty())
      result.mismatch = std::move(what);
  };
  if (got.size() != want.size())
    mismatch(std::to_string(got.size()) + " outputs, expected " +
             std::to_string(want.size()));
  for (size_t o = 0; o < std::min(got.size(), want.size()); ++o) {
    std::string where = "output " + std::to_string(o) + ": ";
    if (got[o].dtype != want[o].dtype) {
      mismatch(where + "dtype " + rt::dtypeName(got[o].dtype) + ", expected " +
               rt::dtypeName(want[o].dtype));
      continue;
    }
    if (got[o].shape != want[o].shape) {
      mismatch(where + "shape " + shapeText(got[o].shape) + ", expected " +
               shapeText(want[o].shape));
      continue;
    }
    for (int64_t i = 0; i < got[o].numElements(); ++i) {
      double a = elementAsDouble(got[o], i), b = elementAsDouble(want[o], i);
      if (std::isnan(a) || std::isnan(b)) {
        if (!(std::isnan(a) && std::isnan(b)))
          mismatch(where + "element " + std::to_string(i) + " is NaN on " +
                   (std::isnan(a) ? "the GPU" : "the reference") + " only");
        continue;
      }
      if (std::isinf(a) || std::isinf(b)) {
        if (a != b)
          mismatch(where + "element " + std::to_string(i) +
                   ": infinities differ");
        continue;
      }
      double error = std::fabs(a - b), tolerance = atol + rtol * std::fabs(b);
      result.maxAbsError = std::max(result.maxAbsError, error);
      result.errorOverTolerance = std::max(
          result.errorOverTolerance,
          tolerance > 0 ? error / tolerance : (error > 0 ? INFINITY : 0));
      if (!(error <= tolerance))
        result.ok = false;
    }
  }
  return result;
}

bool sameBytes(const std::vector<rt::HostTensor> &a,
               const std::vector<rt::HostTensor> &b) {
  if (a.size() != b.size())
    return false;
  for (size_t o = 0; o < a.size(); ++o)
    if (a[o].dtype != b[o].dtype || a[o].shape != b[o].shape ||
        a[o].data != b[o].data)
      return false;
  return true;
}

} // namespace kiln::gpucheck
