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
    its slices of the weights, and `kiln.all_reduce`, `kiln.all_gather` and
    `kiln.reduce_scatter` where a layout must change. The interface stays whole: every rank takes
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
    * `sequence`: `tensor` plus Megatron's sequence parallelism. A partial
      sum that meets a layer norm or an elementwise op is reduce-scattered
      along its tokens (the outermost dimension longer than 1 that divides,
      not normalised over) instead of all-reduced, so residuals and layer
      norms run on 1/`ranks` of the tokens; the next column-parallel
      weight all-gathers them. Same bytes as `tensor`, less compute and
      memory outside the blocks.
    * `data`: every input is split along its first (batch) dimension; an
      input whose batch does not divide by `ranks` is an error.

    An op no rule knows runs replicated (its split operands gathered): the
    result is always the single-device result.

    Small all-reduces (at most `fuse-collectives-below` bytes each) that
    follow one another among the collectives, with the same reduction and
    element type and none depending on another, are sent as one over
    their operands flattened and concatenated: a collective's latency, not
    its bytes, is the cost of a small one.
  }];
  let options = [
    Option<"ranks", "ranks", "int64_t", "1", "Number of ranks (devices)">,
    Option<"rank", "rank", "int64_t", "0", "The rank whose program to build">,
    Option<"strategy", "strategy", "std::string", "\"tensor\"",
           "tensor, sequence or data">,
    Option<"fuseCollectivesBelow", "fuse-collectives-below", "int64_t",
           "65536", "Fuse independent all-reduces of at most this many "
           "bytes each (0: never)">,
  ];
  let dependentDialects = ["::kiln::KilnDialect"];
}

def SplitBatchPass : Pass<"kiln-split-batch", "::mlir::ModuleOp"> {
  let summary = "Retype the model to one of N equal slices of its batch";
  let description = [{
    The data axis of a 2-D mesh: each data-parallel replica computes one
    slice of the batch, which the runtime cuts and stacks again, so no
    collective crosses replicas. Every function with a body is retyped as
    pipeline micro-batches are (the data-parallel rules carry the split
    through the body); an op that mixes rows of the batch, an input whose
    batch does not divide, or an output not split along its first
    dimension is an error.
  }];
  let options = [
    Option<"parts", "parts", "int64_t", "1", "Equal slices of the batch">,
  ];
  let dependentDialects = ["::kiln::KilnDialect"];
}

def PipelineStagesPass : Pass<"kiln-pipeline", "::mlir::ModuleOp"> {
  let summary = "Cut a kiln graph into pipeline stages; keep one stage";
  let description = [{
    Pipeline parallelism: the model's one function becomes the program of
    stage `stage` of `stages`, a contiguous run of its ops in program order.

    With `micro-batches` M > 1 the function is first retyped to compute one
    of M equal slices of the batch (every input split along its first
    dimension; the data-parallel rules carry the split through the body).
    An op that mixes rows of the batch is an error.

    The cut points minimise the slowest stage's estimated time: each op's
    arithmetic at a nominal rate plus its memory traffic, plus the bytes a
    stage receives and sends at a nominal link bandwidth
    (compiler/Sharding/OpCost.h), by dynamic programming over the cut
    points. Constants are copied into every stage that reads them.

    A stage takes the model's inputs, then the values the previous stage
    sends (named `pipeline.cK.I`: value I crossing cut K), and returns the
    values crossing its own cut; the last stage returns the model's
    outputs. Every stage's estimate is left on the module as
    `kiln.pipeline`.
  }];
  let options = [
    Option<"stages", "stages", "int64_t", "1", "Number of stages (ranks)">,
    Option<"stage", "stage", "int64_t", "0", "The stage whose program to build">,
    Option<"microBatches", "micro-batches", "int64_t", "1",
           "Equal slices of the batch each stage runs one after another">,
  ];
  let dependentDialects = ["::kiln::KilnDialect"];
}

#endif // KILN_COMPILER_SHARDING_PASSES_TD
