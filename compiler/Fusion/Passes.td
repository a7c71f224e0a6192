//===- Passes.td - Fusion passes ----------------------------*- tablegen -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_FUSION_PASSES_TD
#define KILN_COMPILER_FUSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def FormFusionGroupsPass
    : Pass<"kiln-form-fusion-groups", "::mlir::func::FuncOp"> {
  let summary = "Group graph ops into kiln.fusion ops, one kernel each";
  let description = [{
    Walks a function's ops in program order and grows groups greedily
    (the rules are in compiler/Fusion/FusionRules.h and docs/fusion.md):

    * an elementwise op joins the group of one of its producers: chains,
      broadcasts, and epilogues of a reduction or a contraction;
    * a reduction-like op (softmax, log-softmax, layer/batch norm, reduce_*,
      global pools) joins a group holding only elementwise ops: its
      prologue;
    * a contraction (matmul, gemm, conv2d) always starts a group; its
      elementwise consumers (bias, activation, residual add, scaling) join it;
    * a group holds at most one reduction or contraction;
    * nothing is recomputed: an op belongs to one group, and a value used
      both inside and outside a group becomes an extra result (a
      multi-output group). Only `kiln.constant`s are duplicated into the
      groups that read them;
    * an op joins a group only if everything else it reads is defined
      before the group starts, so grouping never creates a cycle.

    Shape ops (reshape, transpose, concat, slice, gather, pad...) stay
    outside groups. Groups of one op are not wrapped.
  }];
  let options = [
    Option<"remarks", "remarks", "bool", "false",
           "Report each group as a remark (for tests)">,
  ];
  let dependentDialects = ["::kiln::KilnDialect"];
}

#endif // KILN_COMPILER_FUSION_PASSES_TD
