//===- BatchSlices.cpp - Slices of a batch, and stacking them -------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/BatchSlices.h"

namespace kiln::rt {

StatusOr<std::vector<HostTensor>>
sliceBatch(const std::vector<HostTensor> &tensors, size_t part, size_t parts) {
  std::vector<HostTensor> slices;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const HostTensor &whole = tensors[i];
    if (whole.shape.empty() || whole.shape[0] % int64_t(parts) != 0 ||
        whole.data.size() % parts != 0)
      return invalidArgument("input " + std::to_string(i) +
                             " cannot be split into " + std::to_string(parts) +
                             " equal slices of its first dimension");
    size_t bytes = whole.data.size() / parts;
    HostTensor slice{whole.dtype, whole.shape, {}};
    slice.shape[0] /= int64_t(parts);
    slice.data.assign(whole.data.begin() + part * bytes,
                      whole.data.begin() + (part + 1) * bytes);
    slices.push_back(std::move(slice));
  }
  return slices;
}

StatusOr<std::vector<HostTensor>>
stackBatch(const std::vector<std::vector<HostTensor>> &slices) {
  std::vector<HostTensor> stacked;
  if (slices.empty())
    return stacked;
  stacked = slices.front();
  for (size_t part = 1; part < slices.size(); ++part) {
    if (slices[part].size() != stacked.size())
      return internalError("slices of the batch with different outputs");
    for (size_t i = 0; i < stacked.size(); ++i) {
      const HostTensor &slice = slices[part][i];
      if (slice.shape.empty() || slice.dtype != stacked[i].dtype)
        return internalError("output " + std::to_string(i) +
                             " cannot be stacked along a first dimension");
      stacked[i].shape[0] += slice.shape[0];
      stacked[i].data.insert(stacked[i].data.end(), slice.data.begin(),
                             slice.data.end());
    }
  }
  return stacked;
}

} // namespace kiln::rt
