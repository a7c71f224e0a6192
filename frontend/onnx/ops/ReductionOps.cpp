//===- ReductionOps.cpp - ONNX reductions -> kiln -------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// ReduceSum takes its axes as an input from opset 13, the other reductions
// as an attribute up to opset 17. No axes means every axis, unless
// noop_with_empty_axes. The composite reductions (L1, L2, SumSquare,
// LogSum, LogSumExp) are built from kiln ops.
//
//===----------------------------------------------------------------------===//

#include "frontend/onnx/ops/Common.h"
#include "frontend/onnx/ops/Expr.h"

#include <cmath>

using namespace mlir;

namespace kiln::onnx {

namespace {

enum class Prologue { None, Square, Abs, Exp };
enum class Epilogue { None, Sqrt, Log };

/// Reads the axes (attribute or input 1) and keepdims of a reduction.
LogicalResult readAxes(ImportContext &ctx, bool axesAsInput, int64_t rank,
                       SmallVector<int64_t> &axes, bool &keepDims,
                       bool &noop) {
  FailureOr<int64_t> keep = ctx.intAttr("keepdims", 1);
  FailureOr<int64_t> noopAttr = ctx.intAttr("noop_with_empty_axes", 0);
  if (failed(keep) || failed(noopAttr))
    return failure();
  keepDims = *keep != 0;
  if (axesAsInput) {
    if (ctx.input(1)) {
      FailureOr<SmallVector<int64_t>> values = ctx.constantInts(1, "axes");
      if (failed(values))
        return failure();
      axes = *values;
    }
  } else {
    auto attr = ctx.intsAttr("axes");
    if (failed(attr))
      return failure();
    if (attr->has_value())
      axes = **attr;
  }
  noop = axes.empty() && *noopAttr != 0;
  if (axes.empty() && !noop)
    axes = llvm::to_vector(llvm::seq<int64_t>(0, rank));
  return success();
}

template <typename OpTy, bool AxesAsInput, Prologue Pre = Prologue::None,
          Epilogue Post = Epilogue::None>
LogicalResult convertReduce(ImportContext &ctx) {
  FailureOr<Value> x = ctx.requiredInput(0, "data");
  if (failed(x))
    return failure();
  SmallVector<int64_t> axes;
  bool keepDims = true, noop = false;
  if (failed(readAxes(ctx, AxesAsInput, shapeOf(*x).size(), axes, keepDims,
                      noop)))
    return failure();
  OpBuilder &b = ctx.builder();
  Value input = *x;
  if constexpr (Pre == Prologue::Square) {
    FailureOr<Value> square = buildBroadcast<MulOp>(ctx, input, input);
    if (failed(square))
      return failure();
    input = *square;
  } else if constexpr (Pre == Prologue::Abs) {
    input = ctx.finish(AbsOp::create(b, ctx.loc(), input.getType(), input));
  } else if constexpr (Pre == Prologue::Exp) {
    input = ctx.finish(ExpOp::create(b, ctx.loc(), input.getType(), input));
  }
  Value result = input;
  if (!noop) {
    SmallVector<Type> types;
    if (failed(kiln::inferReduce(ctx.loc(), input.getType(), axes, keepDims,
                                 types)))
      return failure();
    result = ctx.finish(
        OpTy::create(b, ctx.loc(), types[0], input, axes, keepDims));
  }
  if constexpr (Post == Epilogue::Sqrt)
    result = ctx.finish(SqrtOp::create(b, ctx.loc(), result.getType(), result));
  else if constexpr (Post == Epilogue::Log)
    result = ctx.finish(LogOp::create(b, ctx.loc(), result.getType(), result));
  ctx.setOutput(0, result);
  return success();
}

template <typename OpTy> LogicalResult convertArgReduce(ImportContext &ctx) {
  FailureOr<Value> x = ctx.requiredInput(0, "data");
  FailureOr<int64_t> axis = ctx.intAttr("axis", 0);
  FailureOr<int64_t> keep = ctx.intAttr("keepdims", 1);
  FailureOr<int64_t> last = ctx.intAttr("select_last_index", 0);
  if (failed(x) || failed(axis) || failed(keep) || failed(last))
    return failure();
  SmallVector<Type> types;
  if (failed(kiln::inferArgReduce(ctx.loc(), x->getType(), *axis, *keep != 0,
                                  types)))
    return failure();
  ctx.setOutput(0, ctx.finish(OpTy::create(ctx.builder(), ctx.loc(), types[0],
                                           *x, *axis, *keep != 0,
                                           *last != 0)));
  return success();
}

/// TopK (opset 10+: K an input) as k rounds of arg-reduction: each round
/// takes the largest (smallest) remaining element along the axis, the
/// lowest index among equal ones as ONNX asks, and masks it out. O(k * n):
/// for the small k of detection and beam-search heads.
LogicalResult convertTopK(ImportContext &ctx) {
  FailureOr<Value> x = ctx.requiredInput(0, "X");
  FailureOr<SmallVector<int64_t>> k = ctx.constantInts(1, "K");
  FailureOr<int64_t> axisAttr = ctx.intAttr("axis", -1);
  FailureOr<int64_t> largest = ctx.intAttr("largest", 1);
  FailureOr<int64_t> sorted = ctx.intAttr("sorted", 1);
  if (failed(x) || failed(k) || failed(axisAttr) || failed(largest) ||
      failed(sorted))
    return failure();
  ArrayRef<int64_t> shape = shapeOf(*x);
  FailureOr<int64_t> axis = normalizeAxisAt(ctx, *axisAttr, shape.size());
  if (failed(axis))
    return failure();
  if (k->size() != 1 || (*k)[0] < 0 || (*k)[0] > shape[*axis])
    return ctx.error() << "K must be one value in [0, " << shape[*axis]
                       << "]";
  int64_t count = (*k)[0];
  if (count == 0) {
    ctx.markUnsupported();
    return ctx.error() << "K = 0 (empty outputs) is not supported";
  }
  Type element = elementTypeOf(*x);
  OpBuilder &b = ctx.builder();
  // Positions along the axis, shaped to broadcast: [1, .., n, .., 1].
  SmallVector<int64_t> iotaShape(shape.size(), 1);
  iotaShape[*axis] = shape[*axis];
  Value iota = i64Iota(ctx, iotaShape);
  Value removed = scalarConstant(ctx, element, *largest ? -INFINITY : INFINITY);
  Expr e(ctx);
  Value remaining = *x;
  SmallVector<Value> values, indices;
  for (int64_t round = 0; round < count; ++round) {
    SmallVector<Type> argTypes, reduceTypes;
    SmallVector<int64_t> axes{*axis};
    if (failed(kiln::inferArgReduce(ctx.loc(), remaining.getType(), *axis,
                                    true, argTypes)) ||
        failed(kiln::inferReduce(ctx.loc(), remaining.getType(), axes, true,
                                 reduceTypes)))
      return failure();
    Value index = *largest
                      ? ctx.finish(ArgMaxOp::create(b, ctx.loc(), argTypes[0],
                                                    remaining, *axis, true,
                                                    false))
                      : ctx.finish(ArgMinOp::create(b, ctx.loc(), argTypes[0],
                                                    remaining, *axis, true,
                                                    false));
    Value value = *largest ? ctx.finish(ReduceMaxOp::create(
                                 b, ctx.loc(), reduceTypes[0], remaining, axes,
                                 true))
                           : ctx.finish(ReduceMinOp::create(
                                 b, ctx.loc(), reduceTypes[0], remaining, axes,
                                 true));
    values.push_back(value);
    indices.push_back(index);
    if (round + 1 < count)
      remaining = e.select(e.cmp(ComparePredicate::eq, iota, index), removed,
                           remaining);
  }
  auto concat = [&](ArrayRef<Value> parts) -> Value {
    if (parts.size() == 1)
      return parts.front();
    SmallVector<Type> types;
    if (failed(kiln::inferConcat(ctx.loc(), ValueRange(parts).getTypes(),
                                 *axis, types)))
      return {};
    return ctx.finish(
        ConcatOp::create(b, ctx.loc(), types[0], parts, *axis));
  };
  Value topValues = concat(values), topIndices = concat(indices);
  if (!topValues || !topIndices || !remaining)
    return failure();
  ctx.setOutput(0, topValues);
  ctx.setOutput(1, topIndices);
  return success();
}

} // namespace

void registerReductionConverters(ConverterRegistry &r) {
  r.add("ReduceSum", 1, convertReduce<ReduceSumOp, false>);
  r.add("ReduceSum", 13, convertReduce<ReduceSumOp, true>);
  r.add("ReduceMean", 1, convertReduce<ReduceMeanOp, false>);
  r.add("ReduceMax", 1, convertReduce<ReduceMaxOp, false>);
  r.add("ReduceMin", 1, convertReduce<ReduceMinOp, false>);
  r.add("ReduceProd", 1, convertReduce<ReduceProdOp, false>);
  r.add("ReduceSumSquare", 1,
        convertReduce<ReduceSumOp, false, Prologue::Square>);
  r.add("ReduceL1", 1, convertReduce<ReduceSumOp, false, Prologue::Abs>);
  r.add("ReduceL2", 1,
        convertReduce<ReduceSumOp, false, Prologue::Square, Epilogue::Sqrt>);
  r.add("ReduceLogSum", 1,
        convertReduce<ReduceSumOp, false, Prologue::None, Epilogue::Log>);
  r.add("ReduceLogSumExp", 1,
        convertReduce<ReduceSumOp, false, Prologue::Exp, Epilogue::Log>);
  r.add("ArgMax", 1, convertArgReduce<ArgMaxOp>);
  r.add("TopK", 10, convertTopK);
  r.add("ArgMin", 1, convertArgReduce<ArgMinOp>);
}

} // namespace kiln::onnx
