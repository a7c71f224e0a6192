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

def SelectFusionGroupsPass
    : Pass<"kiln-select-fusion-groups", "::mlir::ModuleOp"> {
  let summary = "Keep only some fusion groups (the others' ops run unfused): "
                "what kilnc bisect searches with";
  let description = [{
    Numbers the module's `kiln.fusion` ops in walk order (the order of
    their `fusion#N` names after lowering) and dissolves every group not
    in `keep`: its ops return to the function as ungrouped graph ops. An
    empty `keep` keeps every group.

    `test-miscompile` (tests only) breaks group N on purpose when it is
    kept, as a wrong fusion rule would: the group yields its last op's first
    operand instead of that op's result (when the types agree), so the op
    is lost.
  }];
  let options = [
    ListOption<"keep", "keep", "int64_t",
               "Numbers of the groups to keep (default: all)">,
    Option<"testMiscompile", "test-miscompile", "int64_t", /*default=*/"-1",
           "Tests only: drop the last op of this group">,
  ];
}

def FuseGroupLoopsPass
    : Pass<"kiln-fuse-group-loops", "::mlir::ModuleOp"> {
  let summary = "Fuse the loops of each lowered kiln.fusion group, then "
                "dissolve the group";
  let description = [{
    Runs after `kiln-convert-graph-to-linalg`, which converts a group's
    body in place (one linalg op per graph op). Inside each group, and only
    there (which ops share a kernel is `kiln-form-fusion-groups`' decision),
    an elementwise producer is fused into its consumer, so an elementwise
    chain, or a reduction with its elementwise prologue, needs no
    intermediate tensor. Not fused:

    * a producer with several users (that would compute it twice);
    * a producer read through a window (im2col, pooling): fused, it would
      be a per-element gather; materialised, the window is a strided view
      that vectorises;
    * a contraction or reduction into its epilogue (linalg fuses only
      all-parallel producers): `kiln-form-kernels` pairs those on buffers.

    Then the body is spliced into the function. Every linalg op of the group
    takes the group's location (its ONNX node names) and `kiln.group =
    "fusion#<N> (<kind>)"`, which later stages read as the group's identity.
    A body that does not lower to loops (a kiln op left) is an error.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def FormKernelsPass : Pass<"kiln-form-kernels", "::mlir::func::FuncOp"> {
  let summary = "Decide which loop nests on planned buffers run as one "
                "kernel: accumulator fills and contraction epilogues";
  let description = [{
    Runs on buffers, after the memory plan, for both devices. Numbers the
    function's linalg ops with `kiln.kernel = <N> : i64`; consecutive ops
    with one number are one kernel:

    * a fill (`linalg.fill`, or its generic form) immediately followed by a
      reduction whose only output is the filled buffer: the fill becomes the
      reduction's initial value;
    * a contraction (matmul-like: M, N and K loops, two inputs, one output,
      one element type) and the elementwise generic right after it, when
      both belong to one fusion group (`kiln.group`) or are one graph op's
      lowering (ungrouped, one location: a convolution and its bias), the
      elementwise op
      reads the product point for point (identity map, through reshapes
      only) over exactly the product's points, the product is a dense
      planned arena buffer, nothing after the pair reads the product
      (unless the epilogue overwrites it), and the epilogue writes nothing
      the contraction reads: the product is transformed as it is stored.

    Everything else is a kernel of its own. Both backends read the numbers:
    the CPU keeps a kernel in one dispatch, the CUDA printer prints it as one
    kernel (`kiln-verify-cuda-kernels` checks that it can).
  }];
  let options = [
    Option<"epilogues", "epilogues", "bool", /*default=*/"true",
           "Pair contractions with their epilogues (off: only fills fold)">,
  ];
}

#endif // KILN_COMPILER_FUSION_PASSES_TD
