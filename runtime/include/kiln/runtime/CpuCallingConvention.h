//===- CpuCallingConvention.h - How CPU kernels take tensors ----*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Kiln's CPU kernels are lowered MLIR functions whose tensors are passed as
// expanded memrefs — allocated pointer, aligned pointer, offset,
// sizes[rank], strides[rank] — inputs first, then outputs, then the arena.
// A dispatch's entry (CpuSchedule.h) takes one `void **`, an array of
// pointers to each of those scalars, and its workgroup range. Shared by the
// compiler's JIT and the runtime's loader so both call kernels the same way.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_CPUCALLINGCONVENTION_H
#define KILN_RUNTIME_CPUCALLINGCONVENTION_H

#include "kiln/runtime/HostTensor.h"

#include <cstdint>
#include <deque>
#include <vector>

namespace kiln::rt {

/// The packed argument array for one call. Holds the scalars it points to:
/// keep it alive for the duration of the call. Not copyable.
class PackedArguments {
public:
  PackedArguments() = default;
  PackedArguments(const PackedArguments &) = delete;
  PackedArguments &operator=(const PackedArguments &) = delete;

  /// Appends a dense row-major tensor at `data` with `shape`.
  void addTensor(void *data, const std::vector<int64_t> &shape);

  /// The `void **` to pass to a packed entry point, and its length.
  void **data() { return pointers_.data(); }
  size_t size() const { return pointers_.size(); }

private:
  struct MemRef {
    void *allocated;
    void *aligned;
    int64_t offset;
    std::vector<int64_t> sizes;
    std::vector<int64_t> strides;
  };
  // A deque never moves its elements, so pointers into them stay valid.
  std::deque<MemRef> memrefs_;
  std::vector<void *> pointers_;
};

} // namespace kiln::rt

#endif // KILN_RUNTIME_CPUCALLINGCONVENTION_H
