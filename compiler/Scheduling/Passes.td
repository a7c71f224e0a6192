//===- Passes.td - Scheduling passes: loops to exec programs -*- tablegen -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_SCHEDULING_PASSES_TD
#define KILN_COMPILER_SCHEDULING_PASSES_TD

include "mlir/Pass/PassBase.td"

def RecordEntryInterfacePass
    : Pass<"kiln-record-entry-interface", "::mlir::ModuleOp"> {
  let summary = "Record how many inputs and results each public function "
                "has, before bufferisation turns results into parameters";
  let description = [{
    Sets `exec.interface = array<i32: inputs, results>` on every public
    function. After buffer-results-to-out-params a function only has
    parameters; the schedule needs to know which of them are the model's
    inputs and which its outputs. Runs on the graph.
  }];
}

def FormCpuDispatchesPass
    : Pass<"kiln-form-cpu-dispatches", "::mlir::ModuleOp"> {
  let summary = "Split a planned CPU entry function into dispatch functions "
                "over workgroups and an exec.program that schedules them";
  let description = [{
    Runs on buffers, after the memory plan (every intermediate buffer is a
    view of the arena at a constant offset) and before tiling and
    vectorisation. Each public function with an `exec.interface` becomes:

    * dispatch functions `@<entry>_d<N>`, private, of type
      `(inputs..., outputs..., arena, index, index) -> ()`: they run
      workgroups [begin, end) of one kernel — one op, the ops of one
      `kiln.kernel` (kiln-form-kernels: a fill with the reduction it
      initialises), or the ops of one fusion group (`kiln.group`) when one
      split fits them all;
    * an `exec.program @<entry> device(cpu)` listing one `exec.dispatch`
      per kernel, with the buffers each one binds (byte ranges of the
      inputs, outputs and arena, read and/or written) and `after`
      dependencies between any two that touch overlapping bytes and one of
      them writes (kept only where no other dependency implies them).

    Workgroups split one parallel loop into equal static chunks (a last,
    smaller chunk takes the remainder; both keep static shapes, so tiling
    and vectorisation see what they saw before). The loop is one that every
    operand either ignores or indexes directly; the largest such loop wins.
    A kernel gets `extent / chunk` workgroups with at least
    `min-work-per-workgroup` loop iterations each, at most `max-workgroups`.
    The split is fixed here, so results do not depend on how many threads
    run the workgroups. A top-level op the pass does not understand makes
    the whole function one dispatch of one workgroup (correct, not fast).
    The entry function itself is erased: the program replaces it.
  }];
  let options = [
    Option<"minWorkPerWorkgroup", "min-work-per-workgroup", "int64_t",
           /*default=*/"16384",
           "Fewest loop iterations (of all loops, reductions included) a "
           "workgroup should run">,
    Option<"maxWorkgroups", "max-workgroups", "int64_t", /*default=*/"32",
           "Most workgroups one dispatch is split into">,
  ];
  let dependentDialects = ["::kiln::exec::KilnExecDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

#endif // KILN_COMPILER_SCHEDULING_PASSES_TD
