//===- GraphElementwiseOps.td - Elementwise math ops --------*- tablegen -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Unary math, broadcasting binary arithmetic, comparisons, select and cast.
// Binary ops broadcast with NumPy rules (dimensions aligned from the right;
// each pair equal or one of them 1).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_GRAPH_IR_GRAPHELEMENTWISEOPS_TD
#define KILN_DIALECTS_GRAPH_IR_GRAPHELEMENTWISEOPS_TD

include "dialects/Graph/IR/GraphBase.td"
include "dialects/Graph/IR/GraphEnums.td"

//===----------------------------------------------------------------------===//
// Unary ops
//===----------------------------------------------------------------------===//

class Kiln_UnaryOp<string mnemonic, Type tensorType, string formula,
                   list<Trait> traits = []>
    : Kiln_InferredOp<mnemonic,
          "::kiln::inferSameAsOperand(adaptor.getInput(), inferred)",
          traits> {
  let summary = "elementwise " # formula;
  let description = "Computes `" # formula # "` for every element of "
      # "`input`. The result has the input's type.\n\nExample:\n\n```mlir\n"
      # "%y = kiln." # mnemonic # " %x : tensor<2x3xf32>\n```";
  let arguments = (ins tensorType:$input);
  let results = (outs tensorType:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
  let hasFolder = 1;
}

def Kiln_NegOp : Kiln_UnaryOp<"neg", Kiln_NumericTensor, "-x">;
def Kiln_AbsOp : Kiln_UnaryOp<"abs", Kiln_NumericTensor, "|x|">;
def Kiln_SignOp : Kiln_UnaryOp<"sign", Kiln_NumericTensor,
                               "sign(x) in {-1, 0, 1} (NaN stays NaN)">;
def Kiln_ReluOp : Kiln_UnaryOp<"relu", Kiln_NumericTensor, "max(x, 0)">;
def Kiln_ExpOp : Kiln_UnaryOp<"exp", Kiln_FloatTensor, "e^x">;
def Kiln_LogOp : Kiln_UnaryOp<"log", Kiln_FloatTensor, "ln(x)">;
def Kiln_SqrtOp : Kiln_UnaryOp<"sqrt", Kiln_FloatTensor, "sqrt(x)">;
def Kiln_RsqrtOp : Kiln_UnaryOp<"rsqrt", Kiln_FloatTensor, "1 / sqrt(x)">;
def Kiln_ReciprocalOp : Kiln_UnaryOp<"reciprocal", Kiln_FloatTensor, "1 / x">;
def Kiln_TanhOp : Kiln_UnaryOp<"tanh", Kiln_FloatTensor, "tanh(x)">;
def Kiln_SigmoidOp : Kiln_UnaryOp<"sigmoid", Kiln_FloatTensor, "1 / (1 + e^-x)">;
def Kiln_ErfOp : Kiln_UnaryOp<"erf", Kiln_FloatTensor, "erf(x), the Gauss error function">;
def Kiln_FloorOp : Kiln_UnaryOp<"floor", Kiln_FloatTensor, "floor(x)">;
def Kiln_CeilOp : Kiln_UnaryOp<"ceil", Kiln_FloatTensor, "ceil(x)">;
def Kiln_SinOp : Kiln_UnaryOp<"sin", Kiln_FloatTensor, "sin(x)">;
def Kiln_CosOp : Kiln_UnaryOp<"cos", Kiln_FloatTensor, "cos(x)">;
def Kiln_AcosOp : Kiln_UnaryOp<"acos", Kiln_FloatTensor, "arccos(x)">;
def Kiln_AsinOp : Kiln_UnaryOp<"asin", Kiln_FloatTensor, "arcsin(x)">;
def Kiln_AtanOp : Kiln_UnaryOp<"atan", Kiln_FloatTensor, "arctan(x)">;
def Kiln_AcoshOp : Kiln_UnaryOp<"acosh", Kiln_FloatTensor, "arcosh(x)">;
def Kiln_AsinhOp : Kiln_UnaryOp<"asinh", Kiln_FloatTensor, "arsinh(x)">;
def Kiln_AtanhOp : Kiln_UnaryOp<"atanh", Kiln_FloatTensor, "artanh(x)">;
def Kiln_HardSwishOp : Kiln_UnaryOp<"hardswish", Kiln_FloatTensor,
                                    "x * max(0, min(1, x / 6 + 1 / 2))">;
def Kiln_NotOp : Kiln_UnaryOp<"not", Kiln_BoolTensor, "logical not">;

def Kiln_GeluOp : Kiln_UnaryOp<"gelu", Kiln_FloatTensor,
                               "x * Phi(x), the Gaussian error linear unit"> {
  let description = [{
    GELU: `0.5 * x * (1 + erf(x / sqrt(2)))`, or with `approximate tanh`,
    `0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3)))`.

    Example:

    ```mlir
    %y = kiln.gelu %x approximate tanh : tensor<2x8xf32>
    ```
  }];
  let arguments = (ins Kiln_FloatTensor:$input,
      DefaultValuedAttr<Kiln_GeluApproximation,
                        "::kiln::GeluApproximation::none">:$approximate);
  let assemblyFormat = [{
    $input (`approximate` $approximate^)? attr-dict `:` type($input)
  }];
}

def Kiln_HardSigmoidOp : Kiln_UnaryOp<"hardsigmoid", Kiln_FloatTensor,
                                      "max(0, min(1, alpha * x + beta))"> {
  let description = [{
    `max(0, min(1, alpha * x + beta))` elementwise (ONNX defaults alpha = 0.2,
    beta = 0.5; PyTorch uses alpha = 1/6).

    Example:

    ```mlir
    %y = kiln.hardsigmoid %x alpha 0.2 beta 0.5 : tensor<4xf32>
    ```
  }];
  let arguments = (ins Kiln_FloatTensor:$input,
      DefaultValuedAttr<F64Attr, "0.2">:$alpha,
      DefaultValuedAttr<F64Attr, "0.5">:$beta);
  let assemblyFormat = [{
    $input `alpha` $alpha `beta` $beta attr-dict `:` type($input)
  }];
}

def Kiln_LeakyReluOp : Kiln_UnaryOp<"leaky_relu", Kiln_FloatTensor,
                                    "x >= 0 ? x : alpha * x"> {
  let description = [{
    `x >= 0 ? x : alpha * x` elementwise.

    Example:

    ```mlir
    %y = kiln.leaky_relu %x alpha 0.01 : tensor<4xf32>
    ```
  }];
  let arguments = (ins Kiln_FloatTensor:$input, F64Attr:$alpha);
  let assemblyFormat = "$input `alpha` $alpha attr-dict `:` type($input)";
}

def Kiln_ClipOp : Kiln_UnaryOp<"clip", Kiln_NumericTensor,
                               "min(max(x, min), max)"> {
  let description = [{
    Clamps every element into `[min, max]`; a missing bound is unbounded.
    `min` must not exceed `max`.

    Example:

    ```mlir
    %y = kiln.clip %x min 0.0 max 6.0 : tensor<1x32xf32>
    ```
  }];
  let arguments = (ins Kiln_NumericTensor:$input, OptionalAttr<F64Attr>:$min,
                   OptionalAttr<F64Attr>:$max);
  let assemblyFormat = [{
    $input (`min` $min^)? (`max` $max^)? attr-dict `:` type($input)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Broadcasting binary ops
//===----------------------------------------------------------------------===//

class Kiln_BinaryOp<string mnemonic, Type tensorType, string formula,
                    list<Trait> traits = []>
    : Kiln_InferredOp<mnemonic,
          "::kiln::inferBroadcastElementwise(location, adaptor.getOperands(), "
          "::mlir::Type(), inferred)", traits> {
  let summary = "elementwise " # formula # " with broadcasting";
  let description = "Computes `" # formula # "` elementwise after broadcasting "
      # "`lhs` and `rhs` to a common shape (NumPy rules). Both operands have the "
      # "same element type, which is the result's.\n\nExample:\n\n```mlir\n"
      # "%z = kiln." # mnemonic # " %x, %y : (tensor<2x3xf32>, tensor<3xf32>) "
      # "-> tensor<2x3xf32>\n```";
  let arguments = (ins tensorType:$lhs, tensorType:$rhs);
  let results = (outs tensorType:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` functional-type(operands, results)
  }];
  let hasFolder = 1;
}

def Kiln_AddOp : Kiln_BinaryOp<"add", Kiln_NumericTensor, "x + y", [Commutative]>;
def Kiln_SubOp : Kiln_BinaryOp<"sub", Kiln_NumericTensor, "x - y">;
def Kiln_MulOp : Kiln_BinaryOp<"mul", Kiln_NumericTensor, "x * y", [Commutative]>;
def Kiln_DivOp : Kiln_BinaryOp<"div", Kiln_NumericTensor,
                               "x / y (integer division truncates)">;
def Kiln_RemOp : Kiln_BinaryOp<"rem", Kiln_NumericTensor,
    "x rem y: the remainder of x / y truncated towards zero, with the sign of "
    "x (C fmod; for integers a zero divisor, or INT_MIN rem -1, is undefined)">;
def Kiln_PowOp : Kiln_BinaryOp<"pow", Kiln_FloatTensor, "x ^ y">;
def Kiln_MinOp : Kiln_BinaryOp<"min", Kiln_NumericTensor, "min(x, y)", [Commutative]>;
def Kiln_MaxOp : Kiln_BinaryOp<"max", Kiln_NumericTensor, "max(x, y)", [Commutative]>;
// Shift counts are read as unsigned; from the element width on, every bit
// is shifted out (unlike LLVM's shifts, which are undefined there).
def Kiln_ShiftLeftOp : Kiln_BinaryOp<"shift_left", Kiln_IntTensor,
    "x << y: bits shifted out are lost, zeros shift in; 0 when y is the "
    "element width or more">;
def Kiln_ShiftRightOp : Kiln_BinaryOp<"shift_right", Kiln_IntTensor,
    "x >> y, logical: zeros shift in at the top (ONNX BitShift RIGHT on "
    "unsigned integers); 0 when y is the element width or more">;
def Kiln_AndOp : Kiln_BinaryOp<"and", Kiln_BoolTensor, "x and y", [Commutative]>;
def Kiln_OrOp : Kiln_BinaryOp<"or", Kiln_BoolTensor, "x or y", [Commutative]>;
def Kiln_XorOp : Kiln_BinaryOp<"xor", Kiln_BoolTensor, "x xor y", [Commutative]>;

//===----------------------------------------------------------------------===//
// Comparison, select, cast
//===----------------------------------------------------------------------===//

def Kiln_CompareOp : Kiln_InferredOp<"compare",
    "::kiln::inferBroadcastElementwise(location, adaptor.getOperands(), "
    "::mlir::IntegerType::get(context, 1), inferred)"> {
  let summary = "elementwise comparison with broadcasting, giving i1";
  let description = [{
    Compares `lhs` and `rhs` elementwise after NumPy broadcasting with the
    predicate `eq`, `ne`, `lt`, `le`, `gt` or `ge`. Floating-point comparisons
    are ordered (false when either side is NaN), except `ne`, which is true.

    Example:

    ```mlir
    %m = kiln.compare lt, %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    ```
  }];
  let arguments = (ins Kiln_ComparePredicate:$predicate, Kiln_Tensor:$lhs,
                   Kiln_Tensor:$rhs);
  let results = (outs Kiln_BoolTensor:$result);
  let assemblyFormat = [{
    $predicate `,` $lhs `,` $rhs attr-dict `:` functional-type(operands, results)
  }];
  let hasFolder = 1;
}

def Kiln_SelectOp : Kiln_InferredOp<"select",
    "::kiln::inferSelect(location, adaptor.getCondition().getType(), "
    "adaptor.getOnTrue().getType(), adaptor.getOnFalse().getType(), inferred)"> {
  let summary = "elementwise choice between two tensors (ONNX Where)";
  let description = [{
    `condition ? on_true : on_false` elementwise, with all three operands
    broadcast together (NumPy rules). `on_true` and `on_false` have the same
    element type, which is the result's.

    Example:

    ```mlir
    %r = kiln.select %c, %a, %b
        : (tensor<4xi1>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
    ```
  }];
  let arguments = (ins Kiln_BoolTensor:$condition, Kiln_Tensor:$on_true,
                   Kiln_Tensor:$on_false);
  let results = (outs Kiln_Tensor:$result);
  let assemblyFormat = [{
    $condition `,` $on_true `,` $on_false attr-dict `:`
    functional-type(operands, results)
  }];
  let hasFolder = 1;
}

def Kiln_CastOp : Kiln_Op<"cast"> {
  let summary = "elementwise element-type conversion";
  let description = [{
    Converts every element to the result's element type; shapes are equal.
    Float to integer truncates toward zero; to `i1` gives `x != 0`; from `i1`
    gives 0 or 1. Casting to the same type is folded away.

    Example:

    ```mlir
    %h = kiln.cast %x : tensor<2x3xf32> -> tensor<2x3xf16>
    ```
  }];
  let arguments = (ins Kiln_Tensor:$input);
  let results = (outs Kiln_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

#endif // KILN_DIALECTS_GRAPH_IR_GRAPHELEMENTWISEOPS_TD
