//===- HostTensor.h - A tensor in host memory -------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_HOSTTENSOR_H
#define KILN_RUNTIME_HOSTTENSOR_H

#include "kiln/runtime/DType.h"

#include <cstdint>
#include <vector>

namespace kiln::rt {

/// A dense, row-major tensor that owns its bytes. Thread-compatible.
struct HostTensor {
  DType dtype = DType::kF32;
  std::vector<int64_t> shape;
  std::vector<uint8_t> data;

  /// Product of the dimensions (1 for a scalar).
  int64_t numElements() const {
    int64_t count = 1;
    for (int64_t dim : shape)
      count *= dim;
    return count;
  }
};

} // namespace kiln::rt

#endif // KILN_RUNTIME_HOSTTENSOR_H
