//===- Passes.td - Sharding over several ranks --------------*- tablegen -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_SHARDING_PASSES_TD
#define KILN_COMPILER_SHARDING_PASSES_TD

include "mlir/Pass/PassBase.td"

def ShardGraphPass : Pass<"kiln-shard", "::mlir::ModuleOp"> {
  let summary = "Partition a kiln graph into the program of one rank";
  let description = [{
    Lays every value of each function out over `ranks` ranks (replicated,
    split along one dimension, or a partial sum; docs/sharding.md) and
    rewrites the function into what rank `rank` computes: local shapes,
    its slices of the weights, and `kiln.all_reduce`/`kiln.all_gather`
    where a layout must change. The interface stays whole: every rank takes
    the full inputs and returns the full outputs.

    Layouts start from the strategy and flow forward through per-op rules
    (compiler/Sharding/ShardingRules.cpp):

    * `tensor`: a matmul or gemm whose input is replicated and whose weight
      is a constant splits the weight's columns; the next contraction then
      splits its reduction and yields a partial sum (Megatron's
      column-then-row pairs: one all-reduce per MLP block and one per
      attention block). Partial sums pass through reshapes, transposes and
      additions (a replicated addend is added on rank 0 only) and are
      reduced before anything else.
    * `data`: every input is split along its first (batch) dimension; an
      input whose batch does not divide by `ranks` is an error.

    An op no rule knows runs replicated (its split operands gathered): the
    result is always the single-device result.
  }];
  let options = [
    Option<"ranks", "ranks", "int64_t", "1", "Number of ranks (devices)">,
    Option<"rank", "rank", "int64_t", "0", "The rank whose program to build">,
    Option<"strategy", "strategy", "std::string", "\"tensor\"",
           "tensor or data">,
  ];
  let dependentDialects = ["::kiln::KilnDialect"];
}

#endif // KILN_COMPILER_SHARDING_PASSES_TD
