//===- FuseCollectives.h - Small collectives as one -------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// A collective costs a round of messages whatever its size: below tens of
// KiB its latency is the whole cost. Independent small all-reduces (and
// all-gathers, and reduce-scatters) of one rank's program are therefore
// sent as one, over their operands flattened and concatenated (Horovod's
// tensor fusion).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_SHARDING_FUSECOLLECTIVES_H
#define KILN_COMPILER_SHARDING_FUSECOLLECTIVES_H

#include "dialects/Graph/IR/GraphOps.h"

#include "llvm/ADT/SmallVector.h"

namespace kiln::compiler::sharding {

/// A collective the partitioner made, and for an all-reduce the original
/// (unpartitioned) partial sum it reduces.
struct MadeCollective {
  mlir::Operation *op = nullptr;
  mlir::Value original;
};

/// Groups of collectives that can be sent as one: consecutive among
/// `collectives` (all of one function's, in program order), all-reduces
/// or reduce-scatters of one reduction, or all-gathers, over the same
/// ranks and element type,
/// each delivering at most `maxBytes`, none depending on another.
/// Dependence is read on the original values, which every rank shares (a
/// rank's own extra addends add no dependence the original graph lacks),
/// so every rank makes the same groups. The original function must still
/// be in place.
llvm::SmallVector<llvm::SmallVector<mlir::Operation *>>
fusibleCollectives(llvm::ArrayRef<MadeCollective> collectives,
                   int64_t maxBytes);

/// Replaces `group` by one collective over its operands flattened and
/// concatenated, placed at its last member (a reduce-scatter's as rows,
/// one per rank, each the block of its axis that rank keeps); each
/// member's result is cut from it (an all-gather's from each rank's row,
/// put back along its axis), and ops between the members that use their
/// results move after it.
void fuseCollectives(llvm::ArrayRef<mlir::Operation *> group);

} // namespace kiln::compiler::sharding

#endif // KILN_COMPILER_SHARDING_FUSECOLLECTIVES_H
