//===- ShardingRules.h - Propagation rules per op family --------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Given how an op's operands are laid out, each rule says how the op can
// run without communication: the layout it needs for each operand (the
// partitioner reshards the others) and the layout of its result. An op no
// rule knows runs replicated: correct, only not parallel.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_SHARDING_SHARDINGRULES_H
#define KILN_COMPILER_SHARDING_SHARDINGRULES_H

#include "compiler/Sharding/Sharding.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace kiln::compiler::sharding {

/// kSequence is kTensor plus Megatron's sequence parallelism: the values
/// between tensor-parallel blocks (residuals, layer norms) are split by
/// token instead of replicated.
enum class Strategy { kData, kTensor, kSequence };

struct Decision {
  /// One per operand.
  llvm::SmallVector<Sharding> operands;
  Sharding result;
  /// On every rank but rank 0, the op is skipped and its result is this
  /// operand (adding a replicated addend to a partial sum once, on rank 0).
  std::optional<unsigned> skipOnOtherRanksFor;
  /// On every rank but rank 0, this (optional, last) operand is dropped: a
  /// gemm's bias added to a partial product once, on rank 0.
  std::optional<unsigned> dropOnOtherRanks;
};

struct RuleContext {
  int64_t ranks = 1;
  Strategy strategy = Strategy::kTensor;
};

/// How `op` runs with its operands laid out as `current` (one per operand;
/// partial operands have already been reduced unless the op is linear in
/// them). The result layout is every result's: ops with several results
/// other than kiln.split run replicated.
Decision decide(mlir::Operation *op, llvm::ArrayRef<Sharding> current,
                const RuleContext &context);

/// Under sequence parallelism, the dimension along which `op` (a layer norm
/// or an elementwise op) can take operand `operand`, a partial sum, split
/// instead of whole: the outermost one that is longer than 1, divides by
/// the ranks and is not normalised over (the tokens of [batch, sequence,
/// hidden]). None when the op is neither or no dimension qualifies.
std::optional<int64_t> tokenSplitDim(mlir::Operation *op, unsigned operand,
                                     const RuleContext &context);

/// Under sequence parallelism, whether `op` adds a partial sum to a
/// residual already split along this rank's tokens (Megatron's residual
/// after a row-parallel block): the sum is then reduce-scattered and the
/// add runs on each rank's tokens, rather than the whole residual joining
/// the sum on rank 0 before the scatter.
bool addsTokenResidual(mlir::Operation *op, llvm::ArrayRef<Sharding> current,
                       const RuleContext &context);

/// Whether `op` passes a partial sum through (linear in each operand:
/// reshape, transpose, and adding partial sums).
bool keepsPartial(mlir::Operation *op, llvm::ArrayRef<Sharding> current);

} // namespace kiln::compiler::sharding

#endif // KILN_COMPILER_SHARDING_SHARDINGRULES_H
