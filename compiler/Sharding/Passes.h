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
/// all_reduces, all_gathers}.
inline constexpr llvm::StringLiteral kShardingAttr = "kiln.sharding";

} // namespace kiln::compiler

#endif // KILN_COMPILER_SHARDING_PASSES_H
