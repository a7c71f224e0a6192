//===- MemoryPlanner.h - Arena offsets for buffers with lifetimes -*- C++
//-*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The packing half of memory planning, free of MLIR so that it can be unit
// tested and reused by every backend: given buffers with a size and a
// lifetime in execution steps, assign each an arena offset such that two
// buffers alive at the same step never share a byte. docs/memory-planning.md
// describes the algorithm.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_MEMORYPLANNING_MEMORYPLANNER_H
#define KILN_COMPILER_MEMORYPLANNING_MEMORYPLANNER_H

#include <cstdint>
#include <vector>

namespace kiln::plan {

/// One buffer to place. Steps are positions in the execution order; the
/// buffer is live on [firstUse, lastUse] (both inclusive).
struct BufferRequest {
  uint64_t size = 0;
  int64_t firstUse = 0;
  int64_t lastUse = 0;
  /// Index of a buffer whose storage this one may take over in place, or -1.
  /// Taken only when that buffer's last use is this one's first use (the op
  /// that reads it for the last time writes this one) and this buffer is no
  /// larger; each buffer is taken over at most once.
  int64_t reuses = -1;
};

/// Where each buffer goes, and the figures that judge the plan.
struct MemoryPlan {
  std::vector<uint64_t> offsets; ///< Per request, aligned.
  /// Per request: whether it took over the storage of `reuses`.
  std::vector<bool> inPlace;
  /// Arena bytes the plan needs: the end of the highest placed buffer.
  uint64_t peakBytes = 0;
  /// The largest total size of buffers live at one step, buffers sharing
  /// storage in place counted once: no plan for this order and these in-place
  /// decisions can need less.
  uint64_t lowerBoundBytes = 0;
  /// The sum of all sizes: what giving every buffer its own memory costs.
  uint64_t unplannedBytes = 0;
};

/// Places `buffers` in one arena with every offset a multiple of `alignment`
/// (a power of two). Never fails; sizes must be small enough that their
/// aligned sum fits in 64 bits.
MemoryPlan planMemory(const std::vector<BufferRequest> &buffers,
                      uint64_t alignment = 64);

} // namespace kiln::plan

#endif // KILN_COMPILER_MEMORYPLANNING_MEMORYPLANNER_H
