//===- FusionRules.h - Which graph ops may share a kernel -------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_FUSION_FUSIONRULES_H
#define KILN_COMPILER_FUSION_FUSIONRULES_H

#include "mlir/IR/Operation.h"

namespace kiln::compiler {

/// What an op can be in a fusion group.
enum class FusionRole {
  kNone,        ///< Stays outside groups (shape ops, unknown ops).
  kConstant,    ///< Free to duplicate into every group that reads it.
  kElementwise, ///< One output element from the same-index input elements
                ///< (with broadcasting): chains, prologues, epilogues.
  kReduction,   ///< Reduces along axes; may take an elementwise prologue.
  kContraction, ///< matmul/gemm/conv: starts a group, takes epilogues only.
};

FusionRole fusionRoleOf(mlir::Operation *op);

/// "elementwise", "reduction" or "contraction": the kind of a group whose
/// heaviest member has `role`.
const char *fusionKindName(FusionRole role);

/// Splices `group`'s body into its block in place of the group (its results
/// become the yielded values) and erases it.
void inlineFusionGroup(mlir::Operation *group);

} // namespace kiln::compiler

#endif // KILN_COMPILER_FUSION_FUSIONRULES_H
