//===- Im2col.h - Convolutions as im2col + matmul ---------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_CONVERSION_GRAPHTOLINALG_IM2COL_H
#define KILN_COMPILER_CONVERSION_GRAPHTOLINALG_IM2COL_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

namespace kiln::compiler::lowering {

/// An ungrouped 2-D convolution of `input` [N, C, H, W] (unpadded; `pads`
/// is top, left, bottom, right, zeros) by `weight` [O, C, KH, KW] as
/// im2col + matmul, in chunks of output rows when the whole col matrix
/// would be larger than both the output and `largestTensorBytes` (the
/// largest tensor the function computes; 0 when unknown). With `packRows`
/// > 1 a constant weight whose output channels it divides is packed into
/// [O / packRows, C*KH*KW, packRows], the CPU micro-kernel's layout.
mlir::Value im2colConvolution(mlir::OpBuilder &b, mlir::Location loc,
                              mlir::Value input, mlir::Value weight,
                              mlir::RankedTensorType resultType,
                              llvm::ArrayRef<int64_t> pads,
                              llvm::ArrayRef<int64_t> strides,
                              llvm::ArrayRef<int64_t> dilations,
                              int64_t largestTensorBytes, int64_t packRows);

/// Output rows per chunk (a divisor of `outRows`) for a col matrix of
/// `colRowBytes` per output row, at most `budget` bytes when it can be.
int64_t im2colChunkRows(int64_t outRows, int64_t outColumns,
                        int64_t colRowBytes, int64_t budget);

} // namespace kiln::compiler::lowering

#endif // KILN_COMPILER_CONVERSION_GRAPHTOLINALG_IM2COL_H
