//===- CpuCallingConvention.cpp - How CPU kernels take tensors ------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/CpuCallingConvention.h"

namespace kiln::rt {

void PackedArguments::addTensor(void *data, const std::vector<int64_t> &shape) {
  MemRef &m = memrefs_.emplace_back();
  m.allocated = data;
  m.aligned = data;
  m.offset = 0;
  m.sizes = shape;
  m.strides.resize(shape.size());
  int64_t stride = 1;
  for (size_t d = shape.size(); d-- > 0;) {
    m.strides[d] = stride;
    stride *= shape[d];
  }
  pointers_.push_back(&m.allocated);
  pointers_.push_back(&m.aligned);
  pointers_.push_back(&m.offset);
  for (int64_t &size : m.sizes)
    pointers_.push_back(&size);
  for (int64_t &s : m.strides)
    pointers_.push_back(&s);
}

} // namespace kiln::rt
