//===- BatchSlices.h - Slices of a batch, and stacking them -----*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Data-parallel replicas (and pipeline micro-batches) each take an equal
// slice of the batch: rows along the first dimension, contiguous in memory.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_BATCHSLICES_H
#define KILN_RUNTIME_BATCHSLICES_H

#include "kiln/runtime/HostTensor.h"
#include "kiln/runtime/Status.h"

#include <vector>

namespace kiln::rt {

/// Slice `part` of `parts` of every tensor's first dimension;
/// kInvalidArgument naming the tensor when it does not divide.
StatusOr<std::vector<HostTensor>>
sliceBatch(const std::vector<HostTensor> &tensors, size_t part, size_t parts);

/// The slices stacked back along the first dimension (every slice the same
/// tensors, in order).
StatusOr<std::vector<HostTensor>>
stackBatch(const std::vector<std::vector<HostTensor>> &slices);

} // namespace kiln::rt

#endif // KILN_RUNTIME_BATCHSLICES_H
