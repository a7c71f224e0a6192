//===- Passes.h - Sharding over several ranks -------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_SHARDING_PASSES_H
#define KILN_COMPILER_SHARDING_PASSES_H

#include "dialects/Graph/IR/GraphDialect.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

namespace kiln::compiler {

#define GEN_PASS_DECL
#include "compiler/Sharding/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "compiler/Sharding/Passes.h.inc"

/// The module attribute the pass leaves: {ranks, rank, strategy,
/// all_reduces, all_gathers, reduce_scatters}.
inline constexpr llvm::StringLiteral kShardingAttr = "kiln.sharding";

/// The module attribute kiln-pipeline leaves: {stages, stage,
/// micro_batches, stage_seconds, stage_flops, stage_weight_bytes,
/// boundary_bytes} (every stage's figures, per micro-batch).
inline constexpr llvm::StringLiteral kPipelineAttr = "kiln.pipeline";

/// The name of value `index` crossing the cut after stage `cut`.
std::string pipelineValueName(int64_t cut, int64_t index);

} // namespace kiln::compiler

#endif // KILN_COMPILER_SHARDING_PASSES_H
