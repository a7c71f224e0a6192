//===- HostTensor.h - A tensor in host memory -------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_HOSTTENSOR_H
#define KILN_RUNTIME_HOSTTENSOR_H

#include "kiln/runtime/DType.h"

#include <cstddef>
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

/// A dense, row-major tensor in memory that someone else owns: `bytes`
/// bytes at `data`. Lets callers run models on their own buffers without a
/// copy. Thread-compatible; the memory must outlive every use of the ref.
struct TensorRef {
  DType dtype = DType::kF32;
  std::vector<int64_t> shape;
  void *data = nullptr;
  size_t bytes = 0;

  /// A view of `tensor`'s bytes (valid while `tensor` is alive and not
  /// resized).
  static TensorRef of(HostTensor &tensor) {
    return {tensor.dtype, tensor.shape, tensor.data.data(), tensor.data.size()};
  }
  /// A read-only view; kernels never write their inputs.
  static TensorRef of(const HostTensor &tensor) {
    return {tensor.dtype, tensor.shape,
            const_cast<uint8_t *>(tensor.data.data()), tensor.data.size()};
  }
};

} // namespace kiln::rt

#endif // KILN_RUNTIME_HOSTTENSOR_H
