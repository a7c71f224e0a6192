// Small helpers for building float32 tensors in the API tests.
#ifndef KILN_TEST_UNIT_API_TESTTENSORS_H
#define KILN_TEST_UNIT_API_TESTTENSORS_H

#include "kiln/kiln.h"

#include <cstring>
#include <vector>

namespace kiln::test {

inline Tensor floatTensor(std::vector<int64_t> shape,
                          const std::vector<float> &values) {
  Tensor t;
  t.dtype = DType::kF32;
  t.shape = std::move(shape);
  t.data.resize(values.size() * sizeof(float));
  std::memcpy(t.data.data(), values.data(), t.data.size());
  return t;
}

inline std::vector<float> floatsOf(const Tensor &t) {
  std::vector<float> values(t.data.size() / sizeof(float));
  std::memcpy(values.data(), t.data.data(), t.data.size());
  return values;
}

} // namespace kiln::test

#endif // KILN_TEST_UNIT_API_TESTTENSORS_H
