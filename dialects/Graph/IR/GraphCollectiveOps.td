//===- GraphCollectiveOps.td - Communication between ranks --*- tablegen -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// What the sharding pass inserts into each rank's program
// (docs/sharding.md). Every rank of the group runs the same collective at
// the same point of its program.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_GRAPH_IR_GRAPHCOLLECTIVEOPS_TD
#define KILN_DIALECTS_GRAPH_IR_GRAPHCOLLECTIVEOPS_TD

include "dialects/Graph/IR/GraphBase.td"
include "dialects/Graph/IR/GraphEnums.td"
include "mlir/IR/SymbolInterfaces.td"

def Kiln_MeshOp : Op<Kiln_Dialect, "mesh", [Symbol, HasParent<"::mlir::ModuleOp">]> {
  let summary = "the devices a sharded model runs on, as named axes";
  let description = [{
    A grid of devices with one name per axis, e.g. 2 data-parallel
    replicas of 2 tensor-parallel ranks:

    ```mlir
    kiln.mesh @mesh axes ["data", "tensor"] shape [2, 2]
    ```

    `kilnc compile` states the mesh of its `--parallel`/`--mesh`/`--devices`
    in every module it shards (a module that already has one must agree
    with them), and `#kiln.sharding<split D over "tensor">` annotations
    name one of its axes. Upstream MLIR's `shard.grid`, with names.
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, StrArrayAttr:$axes,
                       DenseI64ArrayAttr:$shape);
  let assemblyFormat = "$sym_name `axes` $axes `shape` $shape attr-dict";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The size of axis `name`, if the mesh has one.
    std::optional<int64_t> axisSize(::llvm::StringRef name);
  }];
}

// Not Kiln_Op (pure): communication is an effect. A collective must never be
// removed, merged with another or moved past one, or ranks would wait for
// each other forever.
class Kiln_CollectiveOp<string mnemonic, list<Trait> traits = []>
    : Op<Kiln_Dialect, mnemonic,
         !listconcat(traits, [MemoryEffects<[MemRead, MemWrite]>])> {
  let hasVerifier = 1;
}

def Kiln_AllReduceOp : Kiln_CollectiveOp<"all_reduce",
    [AllTypesMatch<["input", "result"]>]> {
  let summary = "combine a tensor elementwise across the ranks of a group";
  let description = [{
    Every one of the `ranks` ranks contributes `input`; every rank gets the
    elementwise `reduction` (sum, max, min, prod) of all contributions.
    Tensor parallelism uses it to finish a contraction whose reduction
    dimension was split (a partial sum).

    Example:

    ```mlir
    %y = kiln.all_reduce sum %x ranks(2) : tensor<4x8xf32>
    ```
  }];
  let arguments = (ins Kiln_NumericTensor:$input,
                   Kiln_CollectiveReduction:$reduction, I32Attr:$ranks);
  let results = (outs Kiln_NumericTensor:$result);
  let assemblyFormat = [{
    $reduction $input `ranks` `(` $ranks `)` attr-dict `:` type($input)
  }];
}

def Kiln_AllGatherOp : Kiln_CollectiveOp<"all_gather"> {
  let summary = "concatenate the ranks' tensors along one axis";
  let description = [{
    Every one of the `ranks` ranks contributes `input`; every rank gets the
    contributions concatenated along `axis` in rank order, so the result is
    `input`'s shape with dimension `axis` multiplied by `ranks`. It turns a
    value split over the ranks back into a replicated one.

    Example:

    ```mlir
    %y = kiln.all_gather %x axis(1) ranks(2)
        : tensor<4x8xf32> -> tensor<4x16xf32>
    ```
  }];
  let arguments = (ins Kiln_Tensor:$input, I64Attr:$axis, I32Attr:$ranks);
  let results = (outs Kiln_Tensor:$result);
  let assemblyFormat = [{
    $input `axis` `(` $axis `)` `ranks` `(` $ranks `)` attr-dict `:`
    type($input) `->` type($result)
  }];
}

def Kiln_ReduceScatterOp : Kiln_CollectiveOp<"reduce_scatter"> {
  let summary = "combine the ranks' tensors and keep one slice of the result";
  let description = [{
    Every one of the `ranks` ranks contributes `input`; rank r gets the r-th
    of `ranks` equal slices along `axis` of their elementwise `reduction`
    (sum, max, min, prod), so the result is `input`'s shape with dimension
    `axis` divided by `ranks`. It is an all-reduce followed by each rank's
    slice, at the cost of the all-reduce's first half: sequence parallelism
    uses it to finish a partial sum straight into a split value.

    Example:

    ```mlir
    %y = kiln.reduce_scatter sum %x axis(1) ranks(2)
        : tensor<1x128x768xf32> -> tensor<1x64x768xf32>
    ```
  }];
  let arguments = (ins Kiln_NumericTensor:$input,
                   Kiln_CollectiveReduction:$reduction, I64Attr:$axis,
                   I32Attr:$ranks);
  let results = (outs Kiln_NumericTensor:$result);
  let assemblyFormat = [{
    $reduction $input `axis` `(` $axis `)` `ranks` `(` $ranks `)` attr-dict
    `:` type($input) `->` type($result)
  }];
}

#endif // KILN_DIALECTS_GRAPH_IR_GRAPHCOLLECTIVEOPS_TD
