//===- GraphContractionOps.td - Matmul, gemm, convolution ---*- tablegen -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Ops that contract over a reduction dimension: these become GEMM/conv
// kernels (or library calls) and anchor "GEMM + epilogue" fusion groups.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_GRAPH_IR_GRAPHCONTRACTIONOPS_TD
#define KILN_DIALECTS_GRAPH_IR_GRAPHCONTRACTIONOPS_TD

include "dialects/Graph/IR/GraphBase.td"

def Kiln_MatmulOp : Kiln_InferredOp<"matmul",
    "::kiln::inferMatmul(location, adaptor.getLhs().getType(), "
    "adaptor.getRhs().getType(), inferred)"> {
  let summary = "batched matrix product with broadcasting batch dimensions";
  let description = [{
    `lhs` is `[B..., M, K]` and `rhs` is `[B'..., K, N]` (rank >= 2 each); the
    batch dimensions broadcast with NumPy rules and the result is
    `[broadcast(B, B')..., M, N]`. Element types match; the result has
    that type, except that signed 8-bit operands give an `i32` result (the
    products accumulate exactly, as ONNX `MatMulInteger`). ONNX `MatMul`
    with 1-D operands is expressed with reshapes around this op.

    Example:

    ```mlir
    %c = kiln.matmul %a, %b
        : (tensor<8x128x64xf32>, tensor<64x32xf32>) -> tensor<8x128x32xf32>
    ```
  }];
  let arguments = (ins Kiln_NumericTensor:$lhs, Kiln_NumericTensor:$rhs);
  let results = (outs Kiln_NumericTensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` functional-type(operands, results)
  }];
}

def Kiln_GemmOp : Kiln_InferredOp<"gemm",
    "::kiln::inferGemm(location, adaptor.getA().getType(), "
    "adaptor.getB().getType(), adaptor.getC() ? adaptor.getC().getType() "
    ": ::mlir::Type(), adaptor.getTransA(), adaptor.getTransB(), inferred)"> {
  let summary = "general matrix multiply: alpha * op(A) * op(B) + beta * C";
  let description = [{
    `A` and `B` are 2-D; `op(X)` transposes `X` when `trans_a`/`trans_b` is
    set. `op(A)` is `[M, K]`, `op(B)` is `[K, N]`, and the optional `C`
    broadcasts (NumPy rules) to the `[M, N]` result. This is ONNX `Gemm` and
    PyTorch's `Linear` (`trans_b` with the bias as `C`).

    Example:

    ```mlir
    %y = kiln.gemm %x, %w, %bias {trans_b}
        : (tensor<4x16xf32>, tensor<32x16xf32>, tensor<32xf32>) -> tensor<4x32xf32>
    ```
  }];
  let arguments = (ins Kiln_FloatTensor:$a, Kiln_FloatTensor:$b,
      Optional<Kiln_FloatTensor>:$c,
      DefaultValuedAttr<F64Attr, "1.0">:$alpha,
      DefaultValuedAttr<F64Attr, "1.0">:$beta,
      UnitAttr:$trans_a, UnitAttr:$trans_b);
  let results = (outs Kiln_FloatTensor:$result);
  let assemblyFormat = [{
    $a `,` $b (`,` $c^)? attr-dict `:` functional-type(operands, results)
  }];
}

def Kiln_Conv2dOp : Kiln_InferredOp<"conv2d",
    "::kiln::inferConv2d(location, adaptor.getInput().getType(), "
    "adaptor.getWeight().getType(), adaptor.getBias() ? "
    "adaptor.getBias().getType() : ::mlir::Type(), adaptor.getStrides(), "
    "adaptor.getPads(), adaptor.getDilations(), adaptor.getGroups(), inferred)"> {
  let summary = "2-D convolution over NCHW input with OIHW weights";
  let description = [{
    `input` is `[N, C, H, W]`, `weight` is `[O, C / groups, KH, KW]` and the
    optional `bias` is `[O]`. `strides` and `dilations` are `[h, w]`; `pads`
    is `[top, left, bottom, right]`. `C` and `O` are divisible by `groups`
    (depthwise convolution is `groups = C`). Output spatial size is
    `floor((in + pad_begin + pad_end - dilation * (k - 1) - 1) / stride) + 1`,
    which must be positive.

    Example:

    ```mlir
    %y = kiln.conv2d %x, %w, %b {strides = array<i64: 2, 2>,
                                 pads = array<i64: 3, 3, 3, 3>}
        : (tensor<1x3x224x224xf32>, tensor<64x3x7x7xf32>, tensor<64xf32>)
        -> tensor<1x64x112x112xf32>
    ```
  }];
  let arguments = (ins Kiln_FloatTensor:$input, Kiln_FloatTensor:$weight,
      Optional<Kiln_FloatTensor>:$bias,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
      DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$pads,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilations,
      DefaultValuedAttr<I64Attr, "1">:$groups);
  let results = (outs Kiln_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $weight (`,` $bias^)? attr-dict `:`
    functional-type(operands, results)
  }];
}

def Kiln_WeightOnlyMatmulOp : Kiln_InferredOp<"weight_only_matmul",
    "::kiln::inferWeightOnlyMatmul(location, adaptor.getLhs().getType(), "
    "adaptor.getWeights().getType(), adaptor.getScales().getType(), "
    "adaptor.getBits(), adaptor.getGroup(), inferred)"> {
  let summary = "matrix product with weights quantized group-wise to int8 or int4";
  let description = [{
    `lhs` is f32 `[B..., M, K]`, `weights` is i8 `[K, N]` holding integers
    of `bits` bits (8: -128..127, 4: -8..7, one per byte here; the CPU
    kernels pack two int4 per byte) and `scales` is f32 `[ceil(K / group),
    N]`: rows `g * group` to `(g + 1) * group - 1` of column `n` share
    `scales[g][n]`. The result is `lhs x W` with `W[k][n] = weights[k][n] *
    scales[k / group][n]`, rounded as f32 products: what `kiln-weight-only`
    makes of a matmul or gemm with constant weights.

    Example:

    ```mlir
    %y = kiln.weight_only_matmul %x, %q, %s {bits = 4 : i64, group = 32 : i64}
        : (tensor<1x64xf32>, tensor<64x16xi8>, tensor<2x16xf32>)
        -> tensor<1x16xf32>
    ```
  }];
  let arguments = (ins Kiln_FloatTensor:$lhs, Kiln_IntTensor:$weights,
      Kiln_FloatTensor:$scales, I64Attr:$bits, I64Attr:$group);
  let results = (outs Kiln_FloatTensor:$result);
  let assemblyFormat = [{
    $lhs `,` $weights `,` $scales attr-dict `:`
    functional-type(operands, results)
  }];
}

#endif // KILN_DIALECTS_GRAPH_IR_GRAPHCONTRACTIONOPS_TD
