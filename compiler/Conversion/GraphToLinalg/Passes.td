//===- Passes.td - kiln -> linalg conversion ----------------*- tablegen -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_CONVERSION_GRAPHTOLINALG_PASSES_TD
#define KILN_COMPILER_CONVERSION_GRAPHTOLINALG_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertGraphToLinalgPass
    : Pass<"kiln-convert-graph-to-linalg", "::mlir::ModuleOp"> {
  let summary = "Lower kiln graph ops to linalg/tensor/arith/math on tensors";
  let description = [{
    Rewrites every `kiln` op into loop-level IR on tensors that upstream
    MLIR bufferises and lowers to native code: elementwise ops, contractions,
    reductions, pooling and normalisations become `linalg.generic` ops (one
    per kiln op, so one kernel each until fusion groups them); data movement
    becomes `tensor` ops or index-computing generics; constants become
    `arith.constant`. `kiln.fusion` ops stay, their bodies converted in
    place: `kiln-fuse-group-loops` fuses and dissolves them.

    Any kiln op left unlowered is reported at its location and the pass
    fails; nothing is silently dropped.
  }];
  let options = [
    Option<"im2colChunks", "im2col-chunks", "bool", /*default=*/"true",
           "Build im2col matrices larger than the function's largest tensor "
           "in chunks of output rows (bounds memory on CPUs; GPUs prefer one "
           "large GEMM)">,
    Option<"packWeightRows", "pack-weight-rows", "int64_t", /*default=*/"0",
           "Pack constant convolution weights into [O / rows, C*KH*KW, rows] "
           "blocks, the CPU register tile's rows (0: not packed)">,
  ];
  let dependentDialects = [
    "::kiln::exec::KilnExecDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

#endif // KILN_COMPILER_CONVERSION_GRAPHTOLINALG_PASSES_TD
