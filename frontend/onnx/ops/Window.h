//===- Window.h - Conv and pooling window attributes ------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// kernel_shape, strides, dilations, pads and auto_pad of Conv and the pools,
// read once and resolved into explicit pads, so kiln ops only know explicit
// padding.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_FRONTEND_ONNX_OPS_WINDOW_H
#define KILN_FRONTEND_ONNX_OPS_WINDOW_H

#include "frontend/onnx/ImportContext.h"

#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace kiln::onnx {

/// One entry per spatial dimension; `pads` holds the begins, then the ends.
/// A 1-D window is lifted to 2-D with a unit height (`oneDimensional`).
struct Window {
  llvm::SmallVector<int64_t> kernel, strides, dilations, pads;
  bool oneDimensional = false;

  int64_t spatial() const { return int64_t(kernel.size()); }
};

/// Reads the window of an input of `inputShape` ([N, C, spatial...], 1 to 3
/// spatial dimensions) with `kernelSpatial` when the kernel comes from a
/// weight.
mlir::FailureOr<Window>
readWindow(ImportContext &ctx, llvm::ArrayRef<int64_t> inputShape,
           std::optional<llvm::SmallVector<int64_t>> kernelSpatial);

} // namespace kiln::onnx

#endif // KILN_FRONTEND_ONNX_OPS_WINDOW_H
