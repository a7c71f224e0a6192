//===- GraphStructureOps.td - Constants and fusion regions --*- tablegen -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_GRAPH_IR_GRAPHSTRUCTUREOPS_TD
#define KILN_DIALECTS_GRAPH_IR_GRAPHSTRUCTUREOPS_TD

include "dialects/Graph/IR/GraphBase.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/IR/OpAsmInterface.td"

def Kiln_ConstantOp : Kiln_Op<"constant",
    [ConstantLike, AllTypesMatch<["value", "result"]>]> {
  let summary = "a constant tensor (weights, shapes, scalars)";
  let description = [{
    Materialises `value`, an elements attribute whose type is the result
    type. Large weights are best held as `dense_resource` blobs so that
    textual IR stays small.

    Example:

    ```mlir
    %c = kiln.constant dense<[1.0, 2.0]> : tensor<2xf32>
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs Kiln_Tensor:$result);
  let assemblyFormat = "attr-dict $value";
  let hasFolder = 1;
  let builders = [OpBuilder<(ins "::mlir::ElementsAttr":$value), [{
    build($_builder, $_state, value.getType(), value);
  }]>];
}

// Not Kiln_Op: a fusion is exactly as pure as the ops inside it.
def Kiln_FusionOp : Op<Kiln_Dialect, "fusion", [IsolatedFromAbove,
    SingleBlock, RecursiveMemoryEffects, RecursivelySpeculatable]> {
  let summary = "a group of graph ops that becomes one kernel";
  let description = [{
    Holds one block of `kiln` ops computing the results from the `inputs`,
    which the block receives as arguments (the region is isolated from
    above: everything it reads comes in through `inputs`). The block ends
    with `kiln.yield`, whose operands are the op's results. Fusion passes
    create these groups; code generation turns each into one kernel.
    The optional `kind` names the rule that formed the group.

    Example:

    ```mlir
    %r = kiln.fusion ins(%x, %b : tensor<4x8xf32>, tensor<8xf32>)
        -> tensor<4x8xf32> {
    ^bb0(%a: tensor<4x8xf32>, %c: tensor<8xf32>):
      %s = kiln.add %a, %c : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
      %t = kiln.relu %s : tensor<4x8xf32>
      kiln.yield %t : tensor<4x8xf32>
    }
    ```
  }];
  let arguments = (ins Variadic<Kiln_Tensor>:$inputs,
                   OptionalAttr<StrAttr>:$kind);
  let results = (outs Variadic<Kiln_Tensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    (`ins` `(` $inputs^ `:` type($inputs) `)`)? attr-dict-with-keyword
    `->` type($results) $body
  }];
  let hasVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [OpBuilder<(ins "::mlir::TypeRange":$resultTypes,
                                 "::mlir::ValueRange":$inputs)>];
  let extraClassDeclaration = [{
    /// The single block of the body.
    ::mlir::Block &getBodyBlock() { return getBody().front(); }
    /// The terminator of the body.
    YieldOp getYield();
  }];
}

def Kiln_YieldOp : Kiln_Op<"yield", [Terminator, ReturnLike,
    HasParent<"::kiln::FusionOp">]> {
  let summary = "the results of a kiln.fusion body";
  let description = [{
    Terminates the body of a `kiln.fusion`; its operands become the fusion's
    results, in order and with the same types.

    Example:

    ```mlir
    kiln.yield %t : tensor<4x8xf32>
    ```
  }];
  let arguments = (ins Variadic<Kiln_Tensor>:$values);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
}

#endif // KILN_DIALECTS_GRAPH_IR_GRAPHSTRUCTUREOPS_TD
