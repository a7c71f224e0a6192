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
  r.add("ArgMin", 1, convertArgReduce<ArgMinOp>);
}

} // namespace kiln::onnx
