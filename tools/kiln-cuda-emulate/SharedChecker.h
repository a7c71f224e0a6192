//===- SharedChecker.h - Races and uninitialised reads in __shared__ -*- C++
//-*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Shadow state for the block's __shared__ memory: which thread last wrote
// and read each byte since the last __syncthreads(), and whether anyone in
// this block wrote it at all. Enough to report, whatever the schedule, the
// two defects a GPU hides best: a missing barrier (two threads touch one
// byte between barriers, at least one writing) and a read of shared memory
// nobody in the block initialised (a GPU gives the previous block's bytes).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_KILN_CUDA_EMULATE_SHAREDCHECKER_H
#define KILN_TOOLS_KILN_CUDA_EMULATE_SHAREDCHECKER_H

#include <cstdint>
#include <optional>
#include <vector>

namespace kiln::emu {

/// The first defect an access revealed.
struct SharedFinding {
  enum class Kind { kUninitialisedRead, kRace };
  Kind kind;
  /// Byte offset into the program's __shared__ segment.
  uint64_t offset;
  /// The thread (linear index) whose access showed it.
  int thread;
  bool wrote = false;
  /// For races: the other thread (linear index, -1 if several) and whether
  /// it wrote.
  int otherThread = -1;
  bool otherWrote = false;
};

class SharedChecker {
public:
  /// Covers [begin, end): every __shared__ variable of the program.
  void attach(uint8_t *begin, uint8_t *end);

  /// A new block: fills the segment with 0xff bytes (NaN as float, -1 as
  /// integer), as a GPU hands a block memory that holds whatever was there.
  void beginBlock();
  /// Every thread passed a __syncthreads(): earlier accesses are ordered.
  /// Returns a read of memory that nobody wrote before this barrier.
  std::optional<SharedFinding> barrier();
  /// The block's threads have finished: same as barrier().
  std::optional<SharedFinding> endBlock() { return barrier(); }

  /// Records an access by `thread`; the first race it shows, if any. A read
  /// of unwritten memory is held back until the next barrier: if another
  /// thread writes the byte first, the defect is that race.
  std::optional<SharedFinding> access(const uint8_t *address, unsigned size,
                                      bool write, int thread);

  bool contains(const uint8_t *address) const {
    return address >= begin_ && address < end_;
  }

private:
  struct Shadow {
    uint32_t writtenInBlock = 0; ///< The block serial of the last write.
    uint32_t interval = 0;       ///< The barrier interval of the fields below.
    int32_t writer = -1;         ///< Writer in `interval`, or -1.
    int32_t reader = -1;         ///< Reader in `interval`, -1, or kMany.
  };
  static constexpr int32_t kMany = -2;

  uint8_t *begin_ = nullptr, *end_ = nullptr;
  std::vector<Shadow> shadow_;
  // Serials start at 1 so that a zeroed shadow means "never".
  uint32_t block_ = 0, interval_ = 0;
  std::optional<SharedFinding> unwrittenRead_;
};

} // namespace kiln::emu

#endif // KILN_TOOLS_KILN_CUDA_EMULATE_SHAREDCHECKER_H
