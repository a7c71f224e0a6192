//===- GraphShapeOps.td - Data movement and shape ops -------*- tablegen -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Ops that move or select data without arithmetic. All of them constant-fold
// when their data operands are constants (ONNX exporters emit whole shape
// computations on constants: Shape -> Gather -> Concat -> Reshape).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_GRAPH_IR_GRAPHSHAPEOPS_TD
#define KILN_DIALECTS_GRAPH_IR_GRAPHSHAPEOPS_TD

include "dialects/Graph/IR/GraphBase.td"
include "dialects/Graph/IR/GraphEnums.td"

def Kiln_ReshapeOp : Kiln_Op<"reshape"> {
  let summary = "reinterpret a tensor with a new shape";
  let description = [{
    Returns `input`'s elements in row-major order with the result's shape.
    Element type and element count are unchanged. (ONNX `Reshape`,
    `Flatten`, `Squeeze` and `Unsqueeze` all import to this op.)

    Example:

    ```mlir
    %y = kiln.reshape %x : tensor<2x3x4xf32> -> tensor<6x4xf32>
    ```
  }];
  let arguments = (ins Kiln_Tensor:$input);
  let results = (outs Kiln_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Kiln_TransposeOp : Kiln_InferredOp<"transpose",
    "::kiln::inferTranspose(location, adaptor.getInput().getType(), "
    "adaptor.getPermutation(), inferred)"> {
  let summary = "permute the dimensions of a tensor";
  let description = [{
    `result.shape[i] = input.shape[permutation[i]]`; `permutation` is a
    permutation of `0..rank-1`.

    Example:

    ```mlir
    %y = kiln.transpose %x [0, 2, 1, 3]
        : tensor<1x128x12x64xf32> -> tensor<1x12x128x64xf32>
    ```
  }];
  let arguments = (ins Kiln_Tensor:$input, DenseI64ArrayAttr:$permutation);
  let results = (outs Kiln_Tensor:$result);
  let assemblyFormat = [{
    $input $permutation attr-dict `:` type($input) `->` type($result)
  }];
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Kiln_BroadcastOp : Kiln_Op<"broadcast"> {
  let summary = "broadcast a tensor to a larger shape (ONNX Expand)";
  let description = [{
    Broadcasts `input` to the result's shape with NumPy rules: dimensions are
    aligned from the right and each input dimension equals the result's or is
    1. The element type is unchanged.

    Example:

    ```mlir
    %y = kiln.broadcast %x : tensor<3x1xf32> -> tensor<2x3x4xf32>
    ```
  }];
  let arguments = (ins Kiln_Tensor:$input);
  let results = (outs Kiln_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Kiln_ConcatOp : Kiln_InferredOp<"concat",
    "::kiln::inferConcat(location, adaptor.getInputs().getTypes(), "
    "adaptor.getAxis(), inferred)"> {
  let summary = "join tensors along one axis";
  let description = [{
    Concatenates one or more `inputs` along `axis` (negative counts from the
    end). They share rank, element type and all other dimensions.

    Example:

    ```mlir
    %y = kiln.concat %a, %b axis 1
        : (tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<2x8xf32>
    ```
  }];
  let arguments = (ins Variadic<Kiln_Tensor>:$inputs, I64Attr:$axis);
  let results = (outs Kiln_Tensor:$result);
  let assemblyFormat = [{
    $inputs `axis` $axis attr-dict `:` functional-type(operands, results)
  }];
  let hasFolder = 1;
}

def Kiln_SplitOp : Kiln_Op<"split"> {
  let summary = "cut a tensor into consecutive pieces along one axis";
  let description = [{
    Splits `input` along `axis` into the result tensors in order; the
    results' sizes along `axis` add up to the input's and their other
    dimensions equal the input's.

    Example:

    ```mlir
    %q, %k, %v = kiln.split %qkv axis 2
        : tensor<1x128x2304xf32> -> tensor<1x128x768xf32>,
          tensor<1x128x768xf32>, tensor<1x128x768xf32>
    ```
  }];
  let arguments = (ins Kiln_Tensor:$input, I64Attr:$axis);
  let results = (outs Variadic<Kiln_Tensor>:$results);
  let assemblyFormat = [{
    $input `axis` $axis attr-dict `:` type($input) `->` type($results)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Kiln_SliceOp : Kiln_InferredOp<"slice",
    "::kiln::inferSlice(location, adaptor.getInput().getType(), "
    "adaptor.getStarts(), adaptor.getLimits(), adaptor.getSteps(), inferred)"> {
  let summary = "strided slice with one start/limit/step per dimension";
  let description = [{
    Selects `input[starts[d] : limits[d] : steps[d]]` in every dimension `d`
    (Python semantics with normalised bounds). Steps are non-zero. For a
    positive step `0 <= start <= limit <= dim`; for a negative step
    `-1 <= limit <= start < dim`. The importer normalises ONNX's clamped,
    negative and partial-axes forms to this one.

    Example:

    ```mlir
    %y = kiln.slice %x starts [0, 2] limits [4, 8] steps [1, 2]
        : tensor<4x8xf32> -> tensor<4x3xf32>
    ```
  }];
  let arguments = (ins Kiln_Tensor:$input, DenseI64ArrayAttr:$starts,
                   DenseI64ArrayAttr:$limits, DenseI64ArrayAttr:$steps);
  let results = (outs Kiln_Tensor:$result);
  let assemblyFormat = [{
    $input `starts` $starts `limits` $limits `steps` $steps attr-dict `:`
    type($input) `->` type($result)
  }];
  let hasFolder = 1;
}

def Kiln_GatherOp : Kiln_InferredOp<"gather",
    "::kiln::inferGather(location, adaptor.getInput().getType(), "
    "adaptor.getIndices().getType(), adaptor.getAxis(), inferred)"> {
  let summary = "take entries along one axis at the given indices";
  let description = [{
    `result[p..., i..., s...] = input[p..., indices[i...], s...]` with
    `indices` inserted at `axis`: the result shape is
    `input.shape[:axis] + indices.shape + input.shape[axis+1:]`. Negative
    indices count from the end of the axis. Indices are not checked against
    the axis here: constant out-of-range indices are rejected by the
    importer and never folded, and at run time they are clamped into range
    (embedding lookups are `kiln.gather` with `axis 0`).

    Example:

    ```mlir
    %e = kiln.gather %table[%ids] axis 0
        : (tensor<30522x768xf32>, tensor<1x128xi64>) -> tensor<1x128x768xf32>
    ```
  }];
  let arguments = (ins Kiln_Tensor:$input, Kiln_IndexTensor:$indices,
                   I64Attr:$axis);
  let results = (outs Kiln_Tensor:$result);
  let assemblyFormat = [{
    $input `[` $indices `]` `axis` $axis attr-dict `:`
    functional-type(operands, results)
  }];
  let hasFolder = 1;
}

def Kiln_PadOp : Kiln_InferredOp<"pad",
    "::kiln::inferPad(location, adaptor.getInput().getType(), "
    "adaptor.getLow(), adaptor.getHigh(), adaptor.getMode(), inferred)"> {
  let summary = "pad a tensor at both ends of every dimension";
  let description = [{
    Adds `low[d]` elements before and `high[d]` after dimension `d` (both
    non-negative). `constant` mode fills with `value`; `reflect` mirrors
    without repeating the edge (pads must be smaller than the dimension);
    `edge` repeats the edge element (the dimension must be non-empty).
    `value` must be representable in the element type (an integer in range
    for integer tensors); it is ignored by `reflect` and `edge`.

    Example:

    ```mlir
    %y = kiln.pad %x low [0, 0, 1, 1] high [0, 0, 1, 1] constant 0.0
        : tensor<1x3x4x4xf32> -> tensor<1x3x6x6xf32>
    ```
  }];
  let arguments = (ins Kiln_Tensor:$input, DenseI64ArrayAttr:$low,
      DenseI64ArrayAttr:$high,
      DefaultValuedAttr<Kiln_PadMode, "::kiln::PadMode::constant">:$mode,
      DefaultValuedAttr<F64Attr, "0.0">:$value);
  let results = (outs Kiln_Tensor:$result);
  let assemblyFormat = [{
    $input `low` $low `high` $high $mode $value attr-dict `:`
    type($input) `->` type($result)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

#endif // KILN_DIALECTS_GRAPH_IR_GRAPHSHAPEOPS_TD
