//===- FuseCollectives.h - Small all-reduces as one -------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// A collective costs a round of messages whatever its size: below tens of
// KiB its latency is the whole cost. Independent small all-reduces of one
// rank's program are therefore sent as one, over their operands flattened
// and concatenated (NCCL's and Horovod's tensor fusion).
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

/// Groups of all-reduces that can be sent as one: consecutive among
/// `collectives` (all of one function's, in program order), of one
/// reduction, rank count and element type, each at most `maxBytes`, none
/// depending on another. Dependence is read on the original values, which
/// every rank shares (a rank's own extra addends add no dependence the
/// original graph lacks), so every rank makes the same groups. The
/// original function must still be in place.
llvm::SmallVector<llvm::SmallVector<kiln::AllReduceOp>>
fusibleAllReduces(llvm::ArrayRef<MadeCollective> collectives,
                  int64_t maxBytes);

/// Replaces `group` by one all-reduce of its operands flattened and
/// concatenated, placed at its last member; the slices of the result take
/// the members' places, and ops between the members that use their results
/// move after it.
void fuseAllReduces(llvm::ArrayRef<kiln::AllReduceOp> group);

} // namespace kiln::compiler::sharding

#endif // KILN_COMPILER_SHARDING_FUSECOLLECTIVES_H
