//===- Builders.cpp - Shape-moving kiln ops for converters
//-----------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Slices, transposes, pads and concatenations that converters build to
// rearrange data. Their result types come from the shared shape rules, so a
// bad request is an error at the node, never an abort in a builder.
//
//===----------------------------------------------------------------------===//

#include "frontend/onnx/ops/Common.h"

using namespace mlir;

namespace kiln::onnx {

FailureOr<Value> sliceOf(ImportContext &ctx, Value value,
                         ArrayRef<int64_t> starts, ArrayRef<int64_t> limits,
                         ArrayRef<int64_t> steps) {
  SmallVector<Type> types;
  if (failed(kiln::inferSlice(ctx.loc(), value.getType(), starts, limits, steps,
                              types)))
    return failure();
  return ctx.finish(SliceOp::create(ctx.builder(), ctx.loc(), types[0], value,
                                    starts, limits, steps));
}

FailureOr<Value> transposeOf(ImportContext &ctx, Value value,
                             ArrayRef<int64_t> perm) {
  SmallVector<Type> types;
  if (failed(kiln::inferTranspose(ctx.loc(), value.getType(), perm, types)))
    return failure();
  return ctx.finish(
      TransposeOp::create(ctx.builder(), ctx.loc(), types[0], value, perm));
}

FailureOr<Value> padOf(ImportContext &ctx, Value value, ArrayRef<int64_t> low,
                       ArrayRef<int64_t> high, double fill) {
  if (llvm::all_of(low, [](int64_t p) { return p == 0; }) &&
      llvm::all_of(high, [](int64_t p) { return p == 0; }))
    return value;
  SmallVector<Type> types;
  if (failed(kiln::inferPad(ctx.loc(), value.getType(), low, high,
                            PadMode::constant, types)))
    return failure();
  return ctx.finish(PadOp::create(ctx.builder(), ctx.loc(), types[0], value,
                                  low, high, PadMode::constant, APFloat(fill)));
}

FailureOr<Value> concatOf(ImportContext &ctx, ValueRange values, int64_t axis) {
  if (values.size() == 1)
    return values.front();
  SmallVector<Type> types;
  if (failed(kiln::inferConcat(ctx.loc(), values.getTypes(), axis, types)))
    return failure();
  return ctx.finish(
      ConcatOp::create(ctx.builder(), ctx.loc(), types[0], values, axis));
}

FailureOr<Value> stackOf(ImportContext &ctx, ValueRange values, int64_t axis) {
  SmallVector<Value> parts;
  for (Value v : values) {
    if (v.getType() != values.front().getType())
      return ctx.error() << "cannot stack " << values.front().getType()
                         << " and " << v.getType();
    SmallVector<int64_t> shape(shapeOf(v));
    shape.insert(shape.begin() + axis, 1);
    parts.push_back(reshapeTo(ctx, v, shape));
  }
  return concatOf(ctx, parts, axis);
}

FailureOr<Value> takeAlong(ImportContext &ctx, Value value, int64_t axis,
                           int64_t index) {
  ArrayRef<int64_t> shape = shapeOf(value);
  SmallVector<int64_t> starts(shape.size(), 0), limits(shape),
      steps(shape.size(), 1);
  starts[axis] = index;
  limits[axis] = index + 1;
  FailureOr<Value> slice = sliceOf(ctx, value, starts, limits, steps);
  if (failed(slice))
    return failure();
  SmallVector<int64_t> dropped(shape);
  dropped.erase(dropped.begin() + axis);
  return reshapeTo(ctx, *slice, dropped);
}

FailureOr<Value> matmulOf(ImportContext &ctx, Value lhs, Value rhs) {
  SmallVector<Type> types;
  if (failed(kiln::inferMatmul(ctx.loc(), lhs.getType(), rhs.getType(), types)))
    return failure();
  return ctx.finish(
      MatmulOp::create(ctx.builder(), ctx.loc(), types[0], lhs, rhs));
}

} // namespace kiln::onnx
