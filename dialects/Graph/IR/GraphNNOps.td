//===- GraphNNOps.td - Pooling, softmax, normalisation ------*- tablegen -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Neural-network building blocks that are neither elementwise nor plain
// contractions: pooling windows, softmax rows and normalisations.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_GRAPH_IR_GRAPHNNOPS_TD
#define KILN_DIALECTS_GRAPH_IR_GRAPHNNOPS_TD

include "dialects/Graph/IR/GraphBase.td"

//===----------------------------------------------------------------------===//
// Pooling
//===----------------------------------------------------------------------===//

class Kiln_Pool2dOp<string mnemonic, string what,
                    Type tensor = Kiln_FloatTensor>
    : Kiln_InferredOp<mnemonic,
          "::kiln::inferPool2d(location, adaptor.getInput().getType(), "
          "adaptor.getKernelShape(), adaptor.getStrides(), adaptor.getPads(), "
          "adaptor.getDilations(), adaptor.getCeilMode(), inferred)"> {
  let summary = "2-D " # what # " pooling over NCHW input";
  let arguments = (ins tensor:$input,
      DenseI64ArrayAttr:$kernel_shape,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
      DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$pads,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilations,
      UnitAttr:$ceil_mode);
  let results = (outs tensor:$result);
  let assemblyFormat = [{
    $input attr-dict `:` type($input) `->` type($result)
  }];
}

// Max pooling also takes integers (ONNX MaxPool on uint8/int8 images).
def Kiln_MaxPool2dOp : Kiln_Pool2dOp<"max_pool2d", "max", Kiln_NumericTensor> {
  let description = [{
    Maximum over `kernel_shape = [kh, kw]` windows of an `[N, C, H, W]`
    input; padded positions never win. `strides`/`dilations` are `[h, w]`,
    `pads` is `[top, left, bottom, right]` and each pad is smaller than the
    window. `ceil_mode` rounds the output size up.

    Example:

    ```mlir
    %y = kiln.max_pool2d %x {kernel_shape = array<i64: 3, 3>,
        strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>}
        : tensor<1x64x112x112xf32> -> tensor<1x64x56x56xf32>
    ```
  }];
}

def Kiln_AvgPool2dOp : Kiln_Pool2dOp<"avg_pool2d", "average"> {
  let description = [{
    Mean over `kernel_shape = [kh, kw]` windows of an `[N, C, H, W]` input.
    With `count_include_pad` padded zeros count in the divisor; otherwise only
    real elements do. Window attributes as for `kiln.max_pool2d`.

    Example:

    ```mlir
    %y = kiln.avg_pool2d %x {kernel_shape = array<i64: 2, 2>,
        strides = array<i64: 2, 2>}
        : tensor<1x8x4x4xf32> -> tensor<1x8x2x2xf32>
    ```
  }];
  let arguments = (ins Kiln_FloatTensor:$input,
      DenseI64ArrayAttr:$kernel_shape,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
      DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$pads,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilations,
      UnitAttr:$ceil_mode, UnitAttr:$count_include_pad);
}

class Kiln_GlobalPoolOp<string mnemonic, string what>
    : Kiln_InferredOp<mnemonic,
          "::kiln::inferGlobalPool(location, adaptor.getInput().getType(), "
          "inferred)"> {
  let summary = "global " # what # " pooling over all spatial dimensions";
  let description = "Reduces every dimension after the first two (`[N, C, "
      # "...]`) with the " # what # ", keeping them as size 1.\n\nExample:"
      # "\n\n```mlir\n%y = kiln." # mnemonic
      # " %x : tensor<1x512x7x7xf32> -> tensor<1x512x1x1xf32>\n```";
  let arguments = (ins Kiln_FloatTensor:$input);
  let results = (outs Kiln_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
}

def Kiln_GlobalAvgPoolOp : Kiln_GlobalPoolOp<"global_avg_pool", "mean">;
def Kiln_GlobalMaxPoolOp : Kiln_GlobalPoolOp<"global_max_pool", "maximum">;

//===----------------------------------------------------------------------===//
// Softmax
//===----------------------------------------------------------------------===//

class Kiln_SoftmaxLikeOp<string mnemonic, string formula>
    : Kiln_InferredOp<mnemonic,
          "::kiln::inferSameAsOperandWithAxis(location, "
          "adaptor.getInput().getType(), adaptor.getAxis(), inferred)"> {
  let summary = formula # " along one axis";
  let description = "Computes `" # formula # "` along `axis` (negative counts "
      # "from the end), numerically stabilised by subtracting the row maximum."
      # "\n\nExample:\n\n```mlir\n%p = kiln." # mnemonic
      # " %logits axis -1 : tensor<2x8x128xf32>\n```";
  let arguments = (ins Kiln_FloatTensor:$input,
                   DefaultValuedAttr<I64Attr, "-1">:$axis);
  let results = (outs Kiln_FloatTensor:$result);
  let assemblyFormat = "$input `axis` $axis attr-dict `:` type($input)";
}

def Kiln_SoftmaxOp : Kiln_SoftmaxLikeOp<"softmax", "exp(x) / sum(exp(x))">;
def Kiln_LogSoftmaxOp
    : Kiln_SoftmaxLikeOp<"log_softmax", "x - log(sum(exp(x)))">;

//===----------------------------------------------------------------------===//
// Normalisation
//===----------------------------------------------------------------------===//

def Kiln_LayerNormOp : Kiln_InferredOp<"layer_norm",
    "::kiln::inferLayerNorm(location, adaptor.getInput().getType(), "
    "adaptor.getScale().getType(), adaptor.getBias() ? "
    "adaptor.getBias().getType() : ::mlir::Type(), adaptor.getAxis(), "
    "inferred)"> {
  let summary = "layer normalisation over the trailing dimensions";
  let description = [{
    Normalises over dimensions `axis..rank-1`:
    `(x - mean) / sqrt(var + epsilon) * scale + bias`, with the biased
    variance. `scale` and the optional `bias` have the normalised shape
    (`input.shape[axis:]`).

    Example:

    ```mlir
    %y = kiln.layer_norm %x, %gamma, %beta axis -1 epsilon 1.0e-05
        : (tensor<1x128x768xf32>, tensor<768xf32>, tensor<768xf32>)
        -> tensor<1x128x768xf32>
    ```
  }];
  let arguments = (ins Kiln_FloatTensor:$input, Kiln_FloatTensor:$scale,
      Optional<Kiln_FloatTensor>:$bias,
      DefaultValuedAttr<I64Attr, "-1">:$axis,
      DefaultValuedAttr<F64Attr, "1.0e-5">:$epsilon);
  let results = (outs Kiln_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $scale (`,` $bias^)? `axis` $axis `epsilon` $epsilon attr-dict
    `:` functional-type(operands, results)
  }];
}

def Kiln_BatchNormOp : Kiln_InferredOp<"batch_norm",
    "::kiln::inferBatchNorm(location, adaptor.getOperands(), inferred)"> {
  let summary = "batch normalisation with running statistics (inference)";
  let description = [{
    `(x - mean) / sqrt(variance + epsilon) * scale + bias` per channel of an
    `[N, C, ...]` input; `scale`, `bias`, `mean` and `variance` are `[C]`.

    Example:

    ```mlir
    %y = kiln.batch_norm %x, %s, %b, %m, %v epsilon 1.0e-05
        : (tensor<1x64x56x56xf32>, tensor<64xf32>, tensor<64xf32>,
           tensor<64xf32>, tensor<64xf32>) -> tensor<1x64x56x56xf32>
    ```
  }];
  let arguments = (ins Kiln_FloatTensor:$input, Kiln_FloatTensor:$scale,
      Kiln_FloatTensor:$bias, Kiln_FloatTensor:$mean,
      Kiln_FloatTensor:$variance,
      DefaultValuedAttr<F64Attr, "1.0e-5">:$epsilon);
  let results = (outs Kiln_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $scale `,` $bias `,` $mean `,` $variance `epsilon` $epsilon
    attr-dict `:` functional-type(operands, results)
  }];
}

#endif // KILN_DIALECTS_GRAPH_IR_GRAPHNNOPS_TD
