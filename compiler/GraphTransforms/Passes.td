//===- Passes.td - Graph-level rewrites ---------------------*- tablegen -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_GRAPHTRANSFORMS_PASSES_TD
#define KILN_COMPILER_GRAPHTRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def LowerUnsignedPass : Pass<"kiln-lower-unsigned", "::mlir::ModuleOp"> {
  let summary = "Rewrite unsigned integer tensors into signless ones";
  let description = [{
    The importer keeps ONNX's unsigned element types (`ui8` to `ui64`), so
    that constants fold with the right values and the model's inputs and
    outputs keep their dtypes. Everything after the graph level (linalg,
    arith, the CPU and CUDA code generators) works on signless integers;
    this pass is the boundary. Every unsigned value becomes the signless
    integer of its width, the same bits, and the ops whose meaning depends
    on the sign are rewritten so that they still compute the unsigned
    result:

    * order (`compare` lt/le/gt/ge, `min`, `max`, `clip`, `reduce_max`,
      `reduce_min`, `argmax`, `argmin`, `max_pool2d`, `global_max_pool`):
      on the values with their top bit flipped (adding the most negative
      value), which orders them as signed integers the way they order as
      unsigned ones, and flipped back;
    * `div` and `rem`: below 64 bits, on the values zero-extended to i64;
      for 64 bits, from signed divisions of the halved dividend;
    * `cast` from an unsigned type: zero-extension (to wider integers, and
      through i64 to floats); to `ui64` from floats: values from 2^63 on
      are shifted into the signed range first;
    * `abs` and `relu` are the identity and `sign` is `x != 0`.

    Add, sub, mul, neg, the reductions that sum or multiply, and every
    shape op already give the same bits. Ops that only take floats never
    see unsigned values. An unsigned op this pass does not know is
    reported at the op.
  }];
  let dependentDialects = ["::kiln::KilnDialect", "::mlir::func::FuncDialect"];
}

def AssignPrecisionPass : Pass<"kiln-assign-precision", "::mlir::ModuleOp"> {
  let summary = "Round fp32 tensors to bf16 or fp16, computing in fp32";
  let description = [{
    The precision policy of `kilnc compile --precision bf16|fp16`. Every
    `f32` tensor the model computes holds values of the low-precision type,
    and every op still computes in fp32:

    * ops that only move, select or compare values (`reshape`, `transpose`,
      `broadcast`, `concat`, `split`, `slice`, `gather`, `pad`, `relu`,
      `neg`, `abs`, `max`, `min`, `clip`, `compare`, `select`, the max
      pools, `reduce_max`, `reduce_min`, `argmax`, `argmin`) give the same
      result in any float type and run on the rounded values as they are;
    * arithmetic, transcendental functions, average pooling and the
      contractions (`matmul`, `gemm`, `conv2d`, which therefore accumulate
      in fp32) read their operands widened to fp32 and their results are
      rounded (to nearest, ties to even) to the low-precision type;
    * normalisations, softmax and the reductions that sum (`softmax`,
      `log_softmax`, `layer_norm`, `batch_norm`, `reduce_sum`,
      `reduce_mean`, `reduce_prod`, `global_avg_pool`) stay fp32, results
      included: their statistics need the range and the bits;
    * nodes named in `keep-fp32` stay fp32 the same way.

    Constants are converted at compile time, by the pass itself, whatever
    their size. The model's inputs and outputs keep their types, so callers
    still pass and receive fp32; the ops that compute in fp32 read the
    inputs as given. The rounding is a cast to the low type and back, an
    elementwise pair that fusion puts into the producer's kernel. An exact
    op runs on the low type where a reader takes it as such; every kernel
    reads fp32 today, so such ops run on the rounded fp32 values and the
    model keeps its kernels (storing bf16 between kernels pays once the
    contractions read it directly).

    fp16 has the range of ±65504: a model whose activations exceed it gives
    infinities there; bf16 has fp32's range and 8 significant bits.
  }];
  let options = [
    Option<"precision", "precision", "std::string", "\"bf16\"",
           "The type whose values fp32 tensors hold: bf16 or fp16">,
    ListOption<"keepFp32", "keep-fp32", "std::string",
               "Names of nodes (their locations) that stay fp32">
  ];
  let dependentDialects = ["::kiln::KilnDialect", "::mlir::func::FuncDialect"];
}

def WeightOnlyPass : Pass<"kiln-weight-only", "::mlir::ModuleOp"> {
  let summary = "Quantize constant matmul and gemm weights to int8 or int4";
  let description = [{
    `kilnc compile --weight-only int8|int4[:gGROUP]`. Every `matmul` whose
    right-hand side is a 2-D f32 constant, and every `gemm` whose `B` is
    one (without `trans_a`), becomes a `weight_only_matmul`: the weights
    `[K, N]` (a transposed `B` is transposed first) are cut into groups of
    `group` consecutive rows per column; each group gets the scale
    `max|w| / qmax` (qmax 127 for int8, 7 for int4) and its weights the
    integers `round(w / scale)` (to nearest, ties to even; an all-zero
    group has scale 0). Activations stay f32 and so do the products and
    sums. A gemm's `alpha` and `C` become elementwise ops after it, which
    fusion puts into the same kernel.

    The model then carries a quarter (int8) or an eighth (int4, packed two
    per byte by the CPU kernels) of the weight bytes: memory-bound GEMVs
    run correspondingly faster.
  }];
  let options = [
    Option<"bits", "bits", "int64_t", "4", "8 or 4">,
    Option<"group", "group", "int64_t", "128",
           "Rows of one column that share a scale">
  ];
  let dependentDialects = ["::kiln::KilnDialect", "::mlir::func::FuncDialect"];
}

def FoldQdqPass : Pass<"kiln-fold-qdq", "::mlir::ModuleOp"> {
  let summary = "Run imported Q/DQ contractions on int8 kernels";
  let description = [{
    Pre-quantized ONNX models (the QDQ form ONNX Runtime's quantization
    tools write) import as float ops around their contractions: an
    activation is quantized to int8 or uint8 (`cast` to i8/ui8) and
    dequantized again (`cast` to f32, `sub` of a scalar zero point, `mul` by
    a scalar scale), and each weight is an int8 constant dequantized per
    output channel, which constant folding turns into an f32 constant.
    For every `matmul` (2-D weights), `gemm` (without `trans_a`) and
    ungrouped `conv2d` that reads such an activation and such a weight,
    this pass recovers the weight's integers and scales (each value must be
    reproduced exactly) and writes the contraction in the integer form int8
    calibration writes: int8 x int8 -> i32 on the CPU's integer kernels,
    then one correction for the zero point and one multiply by
    `activation scale x weight scale`. A uint8 activation is shifted to
    int8 (value and zero point minus 128). Contractions whose weights are
    not int8 multiples of a per-channel scale stay as they are.
  }];
  let dependentDialects = ["::kiln::KilnDialect", "::mlir::func::FuncDialect"];
}

def FoldIntegerContractionsPass
    : Pass<"kiln-fold-integer-contractions", "::mlir::ModuleOp"> {
  let summary = "Run ONNX's integer contraction operators on int8 kernels";
  let description = [{
    ONNX's operator-form quantized models (ONNX Runtime's QOperator format
    and dynamic quantization) import exactly: `MatMulInteger` and
    `QLinearMatMul` as a `matmul` of i32 operands `cast(a) - a_zero_point`
    and `cast(b) - b_zero_point`, `ConvInteger` and `QLinearConv` as a
    `conv2d` of such operands in f64. For a `matmul` with 2-D weights and
    a `conv2d` without groups or bias whose activation is `cast(q)` or
    `cast(q) - z` (q an i8 or ui8 tensor, z one value; a convolution's z a
    constant) and whose weights are an integer constant expression with
    every value in int8's range (after its own zero point), this pass
    writes the product as int8 x int8 -> i32 on the CPU's integer kernels
    (a convolution over the patches of its input, padded with z) and
    subtracts z times the weights' column (row) sums. A uint8 activation is
    shifted to int8 (value and zero point minus 128). The result is the
    same integers: the requantisation after it is unchanged. A
    convolution with no int8 form (grouped, depthwise) whose sums fit f32's
    significand (255 x its largest weight x its depth < 2^24) runs in f32
    instead of f64 and is read back as f64: the same integers. Per-row
    activation zero points, deeper grouped convolutions and weights that
    do not fit int8 stay as they are.
  }];
  let dependentDialects = ["::kiln::KilnDialect", "::mlir::func::FuncDialect"];
}

def FoldCastRoundTripsPass
    : Pass<"kiln-fold-cast-round-trips", "::mlir::ModuleOp"> {
  let summary = "Drop integer round trips of values that are already whole";
  let description = [{
    Quantized models store a rounded, clipped float as an 8-bit integer and
    read it back: QuantizeLinear then DequantizeLinear, a QLinear op's
    output feeding the next, a uint8 activation shifted to int8. The
    round trip `cast(cast(x : F -> iN/uiN) -> F)` is `x` itself when `x`
    is a `clip` with whole bounds inside the integer type's range of a
    value whose elements are whole numbers wherever they are not below the
    lower bound. The pass follows the forms quantization writes: round half
    to even as `(y + 1.5 x 2^p) - 1.5 x 2^p` (p = 23 for f32, 52 for f64;
    whole wherever y >= -2^(p-1)), plus or minus a whole constant, clipped.
    The rounding and saturation stay: only the conversions go, which for an
    unsigned type lower to 64-bit arithmetic. It runs after the quantized
    contraction folds, which read the integer tensors it removes.
  }];
  let dependentDialects = ["::kiln::KilnDialect"];
}

def SplitFullReductionsPass
    : Pass<"kiln-split-full-reductions", "::mlir::ModuleOp"> {
  let summary = "Reduce min/max over every axis in two stages";
  let description = [{
    A `reduce_min` or `reduce_max` over every axis of a tensor (ONNX
    DynamicQuantizeLinear's range, a global maximum) lowers to one loop nest
    with a scalar accumulator, which runs one element per cycle. Over the
    leading axes first, the reduction keeps the last axis as a vector of
    partial results (an elementwise min/max of rows, vectorised along the
    last axis), and the second reduction over that axis is short: 0.50 ms
    becomes 0.21 ms on 1024 x 1024 at one thread. Min and max are exact in
    any order, so the result is the same; sums and products are left alone
    (their rounding would change). Tensors under 4096 elements or with a
    last axis under 16 stay as they are. The CPU pipeline runs it.
  }];
  let dependentDialects = ["::kiln::KilnDialect"];
}

#endif // KILN_COMPILER_GRAPHTRANSFORMS_PASSES_TD
