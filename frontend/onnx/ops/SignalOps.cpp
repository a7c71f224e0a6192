//===- SignalOps.cpp - Window functions -----------------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// HannWindow, HammingWindow and BlackmanWindow depend on their size only:
// the window is computed here, in double precision, and becomes a constant
// of the requested type (a size given as a graph input is bound by the
// JIT, as any shape operand is).
//
//===----------------------------------------------------------------------===//

#include "frontend/onnx/ConverterRegistry.h"
#include "frontend/onnx/TensorImport.h"
#include "frontend/onnx/ops/Common.h"

#include <cmath>

using namespace mlir;

namespace kiln::onnx {

namespace {

/// A generalised cosine window: sum over k of (-1)^k a_k cos(2 pi k n / N).
LogicalResult convertCosineWindow(ImportContext &ctx,
                                  ArrayRef<double> coefficients) {
  FailureOr<SmallVector<int64_t>> size = ctx.constantInts(0, "size");
  FailureOr<int64_t> periodic = ctx.intAttr("periodic", 1);
  FailureOr<int64_t> dtype = ctx.intAttr("output_datatype", 1);
  if (failed(size) || failed(periodic) || failed(dtype))
    return failure();
  if (size->size() != 1 || (*size)[0] < 1 || (*size)[0] > (int64_t(1) << 24))
    return ctx.error() << "size must be one value in [1, 2^24]";
  Type element = importElementType(ctx.context(), int32_t(*dtype), ctx.loc());
  if (!element)
    return failure();
  int64_t n = (*size)[0];
  // The periodic window is the symmetric one of n + 1 points, cut to n.
  double denominator = double(*periodic ? n : n - 1);
  SmallVector<double> values(n);
  for (int64_t i = 0; i < n; ++i) {
    double sum = 0;
    for (auto [k, a] : llvm::enumerate(coefficients))
      sum += (k % 2 ? -a : a) *
             std::cos(2.0 * M_PI * double(k) * double(i) / denominator);
    values[i] = denominator == 0 ? 1.0 : sum;
  }
  auto type = RankedTensorType::get({n}, element);
  SmallVector<Attribute> attrs;
  for (double v : values)
    attrs.push_back(isa<FloatType>(element)
                        ? Attribute(FloatAttr::get(element, v))
                        : Attribute(IntegerAttr::get(element, int64_t(v))));
  ctx.setOutput(0, ctx.constant(DenseElementsAttr::get(type, attrs)));
  return success();
}

LogicalResult convertHann(ImportContext &ctx) {
  return convertCosineWindow(ctx, {0.5, 0.5});
}
LogicalResult convertHamming(ImportContext &ctx) {
  return convertCosineWindow(ctx, {25.0 / 46.0, 21.0 / 46.0});
}
LogicalResult convertBlackman(ImportContext &ctx) {
  return convertCosineWindow(ctx, {0.42, 0.5, 0.08});
}

} // namespace

void registerSignalConverters(ConverterRegistry &r) {
  r.add("HannWindow", 17, convertHann);
  r.add("HammingWindow", 17, convertHamming);
  r.add("BlackmanWindow", 17, convertBlackman);
}

} // namespace kiln::onnx
