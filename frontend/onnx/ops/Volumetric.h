//===- Volumetric.h - 3-D convolution and pooling via 2-D ops ---*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Kiln's window ops are 2-D. A 3-D window is separable into its depth taps
// and a 2-D window, so 3-D convolution and pooling are built from the 2-D
// ops (and their fast kernels) plus slices along the depth:
// - convolution: the KD depth taps of each output depth are stacked into
//   the channels of one image per output depth, and one conv2d with the
//   weight's taps folded into its input channels does all the work;
// - pooling: a 2-D pool of every depth slice, then the max or the sum of
//   KD strided depth slices (an average divides by the taps counted).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_FRONTEND_ONNX_OPS_VOLUMETRIC_H
#define KILN_FRONTEND_ONNX_OPS_VOLUMETRIC_H

#include "frontend/onnx/ImportContext.h"
#include "frontend/onnx/ops/Window.h"

namespace kiln::onnx {

/// Conv of x [N, C, D, H, W] with w [O, C / groups, KD, KH, KW] (+ bias [O]
/// or null) over the 3-D `window`.
mlir::FailureOr<mlir::Value> buildConv3d(ImportContext &ctx, mlir::Value x,
                                         mlir::Value w, mlir::Value bias,
                                         const Window &window, int64_t groups);

/// MaxPool (`isMax`) or AveragePool of x [N, C, D, H, W] over the 3-D
/// `window`.
mlir::FailureOr<mlir::Value> buildPool3d(ImportContext &ctx, mlir::Value x,
                                         const Window &window, bool isMax,
                                         bool ceilMode, bool countIncludePad);

} // namespace kiln::onnx

#endif // KILN_FRONTEND_ONNX_OPS_VOLUMETRIC_H
