//===- GraphReductionOps.td - Reductions and arg-reductions -*- tablegen -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_GRAPH_IR_GRAPHREDUCTIONOPS_TD
#define KILN_DIALECTS_GRAPH_IR_GRAPHREDUCTIONOPS_TD

include "dialects/Graph/IR/GraphBase.td"

class Kiln_ReduceOp<string mnemonic, string what>
    : Kiln_InferredOp<mnemonic,
          "::kiln::inferReduce(location, adaptor.getInput().getType(), "
          "adaptor.getAxes(), adaptor.getKeepDims(), inferred)"> {
  let summary = what # " over the given axes";
  let description = "Reduces `input` with the " # what # " over `axes` "
      # "(distinct, each in `[-rank, rank)`; negative counts from the end). "
      # "With `keep_dims` the reduced dimensions stay as size 1, otherwise "
      # "they are dropped. An empty `axes` list reduces nothing (the op is "
      # "the identity).\n\nExample:\n\n```mlir\n%s = kiln." # mnemonic
      # " %x axes [-1] keep_dims : tensor<2x8x64xf32> -> tensor<2x8x1xf32>\n```";
  let arguments = (ins Kiln_NumericTensor:$input, DenseI64ArrayAttr:$axes,
                   UnitAttr:$keep_dims);
  let results = (outs Kiln_NumericTensor:$result);
  let assemblyFormat = [{
    $input `axes` $axes (`keep_dims` $keep_dims^)? attr-dict `:`
    type($input) `->` type($result)
  }];
  let hasFolder = 1;
}

def Kiln_ReduceSumOp : Kiln_ReduceOp<"reduce_sum", "sum">;
def Kiln_ReduceMeanOp : Kiln_ReduceOp<"reduce_mean", "arithmetic mean">;
def Kiln_ReduceMaxOp : Kiln_ReduceOp<"reduce_max", "maximum">;
def Kiln_ReduceMinOp : Kiln_ReduceOp<"reduce_min", "minimum">;
def Kiln_ReduceProdOp : Kiln_ReduceOp<"reduce_prod", "product">;

class Kiln_ArgReduceOp<string mnemonic, string what>
    : Kiln_InferredOp<mnemonic,
          "::kiln::inferArgReduce(location, adaptor.getInput().getType(), "
          "adaptor.getAxis(), adaptor.getKeepDims(), inferred)"> {
  let summary = "index of the " # what # " along one axis";
  let description = "Returns the `i64` index of the " # what # " element "
      # "along `axis`; ties pick the first index, or the last with "
      # "`select_last_index`. With `keep_dims` the axis stays as size 1."
      # "\n\nExample:\n\n```mlir\n%i = kiln." # mnemonic
      # " %x axis 1 : tensor<4x10xf32> -> tensor<4xi64>\n```";
  let arguments = (ins Kiln_NumericTensor:$input, I64Attr:$axis,
                   UnitAttr:$keep_dims, UnitAttr:$select_last_index);
  let results = (outs Kiln_I64Tensor:$result);
  let assemblyFormat = [{
    $input `axis` $axis (`keep_dims` $keep_dims^)?
    (`select_last_index` $select_last_index^)? attr-dict `:`
    type($input) `->` type($result)
  }];
}

def Kiln_ArgMaxOp : Kiln_ArgReduceOp<"argmax", "largest">;
def Kiln_ArgMinOp : Kiln_ArgReduceOp<"argmin", "smallest">;

#endif // KILN_DIALECTS_GRAPH_IR_GRAPHREDUCTIONOPS_TD
