//===- QuantizeGraph.h - int8 QDQ form for calibrated models ----*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Int8 post-training quantization writes Kiln's canonical quantized form:
// an activation goes through quantize (to an i8 tensor) and dequantize in
// front of its contraction, and the contraction's weights are rounded to
// int8 per output channel at compile time. For the CPU, matmul, gemm and
// conv2d become integer contractions instead (docs/quantization.md).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_QUANTIZATION_QUANTIZEGRAPH_H
#define KILN_COMPILER_QUANTIZATION_QUANTIZEGRAPH_H

#include "compiler/Quantization/Observers.h"
#include "dialects/Graph/IR/GraphOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/SmallVector.h"

namespace kiln::compiler {

/// The contractions int8 quantization covers, in program order: conv2d,
/// gemm and 2-D-weight matmul ops whose activation (operand 0) is fp32 and
/// whose weight is an fp32 constant. Their activations are what
/// calibration observes.
llvm::SmallVector<mlir::Operation *>
int8QuantizationPoints(mlir::func::FuncOp func);

/// Rewrites `op` (one of those points): its weights are rounded to
/// symmetric int8 per output channel and its activation is quantized with
/// `activation`. A matmul, gemm or ungrouped conv2d becomes int8 x int8 ->
/// i32 matmuls (a convolution's over the patches of its input) followed by
/// their dequantization (the CPU's integer kernels, CUDA's int8 tensor
/// cores); a grouped convolution reads its activation through
/// quantize/dequantize and stays fp32.
/// The parameters are recorded in the (integer) contraction's `kiln.int8`
/// attribute.
void quantizeContraction(mlir::Operation *op, QuantParams activation);

/// Pre-quantized models (ONNX's QDQ form): `op` (a matmul with 2-D
/// weights, a gemm or a conv2d) reads `quantized`, an i8 tensor with
/// `activation`'s scale and zero point, through its dequantization, and its
/// weights have the f32 `values` of dequantized int8 (exact int8 multiples
/// of a scale per output channel). Rewrites it into the integer contraction
/// that int8 calibration writes, reading `quantized` directly; the old
/// weight operand is left to dead-code elimination. False, and nothing
/// changed, when the weights are not of that form or the op has no integer
/// form (grouped convolutions).
bool foldQuantizedContraction(mlir::Operation *op, mlir::Value quantized,
                              QuantParams activation,
                              mlir::DenseFPElementsAttr values);

/// The patches of an ungrouped conv2d's int8 input `quantized` (NCHW, the
/// conv's input shape): [N, C*KH*KW, OH*OW], rows ordered as the conv's
/// weights flattened to [O, C*KH*KW], so that weights x patches is the
/// convolution. Padding reads `padValue` (the zero point, which the
/// caller's correction makes a true zero). A 1x1 convolution of stride 1
/// reads the input itself.
mlir::Value int8ConvPatches(mlir::OpBuilder &b, mlir::Location loc,
                            Conv2dOp conv, mlir::Value quantized,
                            int32_t padValue);

} // namespace kiln::compiler

#endif // KILN_COMPILER_QUANTIZATION_QUANTIZEGRAPH_H
