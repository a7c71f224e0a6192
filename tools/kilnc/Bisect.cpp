//===- Bisect.cpp - Which fusion group changes a result -------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Bisect.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace kiln::tools {

namespace {
/// Elements of `tensor` as doubles (integers exactly up to 2^53).
std::vector<double> valuesOf(const Tensor &tensor) {
  size_t size = rt::dtypeSize(tensor.dtype);
  size_t count = size ? tensor.data.size() / size : 0;
  std::vector<double> values(count);
  const uint8_t *bytes = tensor.data.data();
  for (size_t i = 0; i < count; ++i) {
    const uint8_t *at = bytes + i * size;
    switch (tensor.dtype) {
    case DType::kF32: {
      float v;
      std::memcpy(&v, at, 4);
      values[i] = v;
      break;
    }
    case DType::kF64:
      std::memcpy(&values[i], at, 8);
      break;
    case DType::kI64: {
      int64_t v;
      std::memcpy(&v, at, 8);
      values[i] = double(v);
      break;
    }
    case DType::kI32: {
      int32_t v;
      std::memcpy(&v, at, 4);
      values[i] = v;
      break;
    }
    default: // Compared as raw bytes below.
      values[i] = at[0];
      break;
    }
  }
  return values;
}
} // namespace

Difference compareOutputs(const std::vector<Tensor> &outputs,
                          const std::vector<Tensor> &reference,
                          double tolerance) {
  Difference difference;
  for (size_t o = 0; o < outputs.size() && o < reference.size(); ++o) {
    std::vector<double> got = valuesOf(outputs[o]);
    std::vector<double> want = valuesOf(reference[o]);
    for (double v : want)
      if (std::isfinite(v))
        difference.scale = std::max(difference.scale, std::fabs(v));
    if (got.size() != want.size()) {
      difference.maxAbs = std::numeric_limits<double>::infinity();
      difference.output = o;
      continue;
    }
    for (size_t i = 0; i < got.size(); ++i) {
      double d = std::fabs(got[i] - want[i]);
      if (std::isnan(got[i]) != std::isnan(want[i]))
        d = std::numeric_limits<double>::infinity();
      else if (std::isnan(got[i]) || got[i] == want[i])
        d = 0;
      if (d > difference.maxAbs) {
        difference.maxAbs = d;
        difference.output = o;
        difference.element = i;
      }
    }
  }
  difference.beyond =
      difference.maxAbs > tolerance * std::max(1.0, difference.scale);
  return difference;
}

StatusOr<BisectResult> bisectFusionGroups(int64_t groups,
                                          const std::vector<Tensor> &unfused,
                                          double tolerance,
                                          const GroupRunner &run) {
  BisectResult result;
  auto differs = [&](const std::vector<int64_t> &keep,
                     Difference &difference) -> StatusOr<bool> {
    ++result.runs;
    StatusOr<std::vector<Tensor>> outputs = run(keep);
    if (!outputs.isOk())
      return outputs.status();
    difference = compareOutputs(*outputs, unfused, tolerance);
    return difference.beyond;
  };
  auto prefix = [](int64_t n) {
    std::vector<int64_t> keep;
    for (int64_t i = 0; i < n; ++i)
      keep.push_back(i);
    return keep;
  };
  if (groups <= 0)
    return result;
  StatusOr<bool> all = differs(prefix(groups), result.fused);
  if (!all.isOk())
    return all.status();
  if (!*all)
    return result;
  // differs(prefix(hi)) holds; prefix(0) is the unfused run itself.
  int64_t lo = 1, hi = groups;
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    Difference ignored;
    StatusOr<bool> bad = differs(prefix(mid), ignored);
    if (!bad.isOk())
      return bad.status();
    if (*bad)
      hi = mid;
    else
      lo = mid + 1;
  }
  result.culprit = lo - 1;
  StatusOr<bool> alone = differs({lo - 1}, result.culpritAlone);
  if (!alone.isOk())
    return alone.status();
  return result;
}

} // namespace kiln::tools
