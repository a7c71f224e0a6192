//===- ShardGraph.h - Graph rewrites that help sharding ---------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_SHARDING_SHARDGRAPH_H
#define KILN_COMPILER_SHARDING_SHARDGRAPH_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace kiln::compiler::sharding {

/// Rewrites split(matmul(x, W) + b) along the last axis (a fused Q/K/V
/// projection with constant W and b) into one matmul and add per part, so
/// that column parallelism spreads every part's columns over the ranks.
/// Parts whose width does not divide by `ranks` are left fused.
void splitFusedProjections(mlir::func::FuncOp function, int64_t ranks);

/// Retypes `function` to compute one of `microBatches` equal slices of
/// its batch: every input and output is split along its first dimension
/// and the body runs on local shapes (the data-parallel rules). An op that
/// needs the whole batch, an input whose batch does not divide, or an
/// output that is not split along its first dimension is an error.
/// `slices` names the parts in errors ("micro-batches", "replicas").
mlir::LogicalResult
splitIntoMicroBatches(mlir::func::FuncOp function, int64_t microBatches,
                      llvm::StringRef slices = "micro-batches");

/// Replaces unit-step kiln.slice ops of dense constants by the sliced
/// constants (copied from the raw data, any size), and drops constants no
/// longer used: each rank keeps only its part of every weight.
void foldWeightSlices(mlir::func::FuncOp function);

} // namespace kiln::compiler::sharding

#endif // KILN_COMPILER_SHARDING_SHARDGRAPH_H
