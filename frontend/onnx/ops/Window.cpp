//===- Window.cpp - Conv and pooling window attributes --------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "frontend/onnx/ops/Window.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace mlir;

namespace kiln::onnx {

FailureOr<Window>
readWindow(ImportContext &ctx, ArrayRef<int64_t> inputShape,
           std::optional<SmallVector<int64_t>> kernelSpatial) {
  int64_t spatial = int64_t(inputShape.size()) - 2;
  if (spatial < 1)
    return ctx.error() << "the input must be [N, C, spatial...], it has rank "
                       << inputShape.size();
  if (spatial > 3) {
    ctx.markUnsupported();
    return ctx.error() << "only 1-D, 2-D and 3-D windows are supported, the "
                          "input has rank "
                       << inputShape.size();
  }
  auto kernelAttr = ctx.intsAttr("kernel_shape");
  auto stridesAttr = ctx.intsAttr("strides");
  auto dilationsAttr = ctx.intsAttr("dilations");
  auto padsAttr = ctx.intsAttr("pads");
  FailureOr<std::string> autoPad = ctx.stringAttr("auto_pad", "NOTSET");
  if (failed(kernelAttr) || failed(stridesAttr) || failed(dilationsAttr) ||
      failed(padsAttr) || failed(autoPad))
    return failure();
  Window w;
  w.kernel = kernelAttr->has_value()
                 ? **kernelAttr
                 : kernelSpatial.value_or(SmallVector<int64_t>());
  w.strides = stridesAttr->value_or(SmallVector<int64_t>(spatial, 1));
  w.dilations = dilationsAttr->value_or(SmallVector<int64_t>(spatial, 1));
  w.pads = padsAttr->value_or(SmallVector<int64_t>(2 * spatial, 0));
  if (int64_t(w.kernel.size()) != spatial ||
      int64_t(w.strides.size()) != spatial ||
      int64_t(w.dilations.size()) != spatial ||
      int64_t(w.pads.size()) != 2 * spatial)
    return ctx.error() << "kernel_shape, strides, dilations and pads must "
                          "match the "
                       << spatial << " spatial dimension(s)";
  if (*autoPad == "SAME_UPPER" || *autoPad == "SAME_LOWER") {
    for (int64_t d = 0; d < spatial; ++d) {
      int64_t in = inputShape[2 + d], s = w.strides[d];
      if (s <= 0 || w.dilations[d] <= 0 || w.kernel[d] <= 0)
        return ctx.error() << "kernel_shape, strides and dilations must be "
                              "positive";
      int64_t out = in / s + (in % s != 0);
      // (out - 1) * s + (k - 1) * d + 1 - in, overflow-checked: the
      // attributes are untrusted.
      int64_t covered, span, total;
      if (llvm::MulOverflow(out > 0 ? out - 1 : 0, s, covered) ||
          llvm::MulOverflow(w.kernel[d] - 1, w.dilations[d], span) ||
          llvm::AddOverflow(covered, span, total) ||
          llvm::AddOverflow(total, int64_t(1) - in, total))
        return ctx.error() << "window arithmetic overflows for spatial "
                              "dimension "
                           << d;
      total = std::max<int64_t>(0, total);
      int64_t small = total / 2, large = total - small;
      w.pads[d] = *autoPad == "SAME_UPPER" ? small : large;
      w.pads[spatial + d] = *autoPad == "SAME_UPPER" ? large : small;
    }
  } else if (*autoPad == "VALID") {
    w.pads.assign(2 * spatial, 0);
  } else if (*autoPad != "NOTSET") {
    return ctx.error() << "unknown auto_pad '" << *autoPad << "'";
  }
  if (spatial == 1) {
    // [L] -> [1, L]: a unit height that nothing slides over.
    w.oneDimensional = true;
    w.kernel.insert(w.kernel.begin(), 1);
    w.strides.insert(w.strides.begin(), 1);
    w.dilations.insert(w.dilations.begin(), 1);
    w.pads = {0, w.pads[0], 0, w.pads[1]};
  }
  return w;
}

} // namespace kiln::onnx
