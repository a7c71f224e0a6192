//===- LinearAlgebraOps.cpp - ONNX Det ------------------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Det of [..., M, M] by Gaussian elimination with partial pivoting, unrolled
// over the M columns at import time and vectorised over the batch: each
// step picks the row of the largest magnitude (argmax), swaps it to the
// top through a one-hot row selection (a batched matmul), multiplies the
// determinant by the pivot (and by -1 for a swap), and eliminates the
// column from the rows below. M is bounded (kMaxDetOrder) since the graph
// grows with it.
//
//===----------------------------------------------------------------------===//

#include "frontend/onnx/ConverterRegistry.h"
#include "frontend/onnx/ops/Expr.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;

namespace kiln::onnx {

namespace {

constexpr int64_t kMaxDetOrder = 64;

/// Rows [r0, r1) and columns [c0, c1) of a batch of matrices [B, M, N].
FailureOr<Value> block(ImportContext &ctx, Value m, int64_t r0, int64_t r1,
                       int64_t c0, int64_t c1) {
  return sliceOf(ctx, m, {0, r0, c0}, {shapeOf(m)[0], r1, c1}, {1, 1, 1});
}

LogicalResult convertDet(ImportContext &ctx) {
  FailureOr<Value> x = ctx.requiredInput(0, "X");
  if (failed(x))
    return failure();
  ArrayRef<int64_t> shape = shapeOf(*x);
  if (shape.size() < 2 || shape[shape.size() - 1] != shape[shape.size() - 2])
    return ctx.error() << "X must be [..., M, M], it is " << x->getType();
  if (!isa<FloatType>(elementTypeOf(*x)))
    return ctx.error() << "X must be a floating-point tensor";
  int64_t m = shape.back();
  if (m > kMaxDetOrder) {
    ctx.markUnsupported();
    return ctx.error() << "Det of " << m << "x" << m
                       << " matrices (Kiln unrolls the elimination up to "
                       << kMaxDetOrder << ")";
  }
  SmallVector<int64_t> batchShape(shape.drop_back(2));
  int64_t batch = 1;
  for (int64_t d : batchShape)
    batch *= d;
  Expr e(ctx);
  Type element = elementTypeOf(*x);
  Type i64 = ctx.builder().getI64Type();
  Value a = reshapeTo(ctx, *x, {batch, m, m});
  Value det = scalarConstant(ctx, element, 1.0);
  for (int64_t k = 0; k < m && a; ++k) {
    int64_t n = m - k;
    // The pivot: the row of the largest magnitude in the first column.
    FailureOr<Value> column = block(ctx, a, 0, n, 0, 1);
    if (failed(column))
      return failure();
    Value magnitude = e.unary<AbsOp>(reshapeTo(ctx, *column, {batch, n}));
    SmallVector<Type> types;
    if (failed(kiln::inferArgReduce(ctx.loc(), magnitude.getType(), 1, true,
                                    types)))
      return failure();
    Value best = ctx.finish(ArgMaxOp::create(ctx.builder(), ctx.loc(), types[0],
                                             magnitude, 1, true,
                                             false)); // [B, 1]
    SmallVector<int64_t> rows = llvm::to_vector(llvm::seq<int64_t>(0, n));
    Value ramp = ctx.constant(DenseElementsAttr::get(
        RankedTensorType::get({1, n}, i64), ArrayRef<int64_t>(rows)));
    Value hot = castTo(ctx, e.cmp(ComparePredicate::eq, ramp, best), element);
    Value hotRow = reshapeTo(ctx, hot, {batch, 1, n});
    FailureOr<Value> selected = matmulOf(ctx, hotRow, a);
    if (failed(selected))
      return failure();
    Value pivotRow = *selected;
    FailureOr<Value> top = block(ctx, a, 0, 1, 0, n); // [B, 1, n]
    if (failed(top))
      return failure();
    // Swap: the pivot's row receives the top row.
    Value hotColumn = reshapeTo(ctx, hot, {batch, n, 1});
    Value swapped = e.add(a, e.mul(hotColumn, e.sub(*top, pivotRow)));
    // det *= pivot, negated when the pivot was not already on top.
    FailureOr<Value> pivotAt = block(ctx, pivotRow, 0, 1, 0, 1);
    if (failed(pivotAt))
      return failure();
    Value pivot = reshapeTo(ctx, *pivotAt, {batch});
    Value moved = e.cmp(ComparePredicate::ne, reshapeTo(ctx, best, {batch}),
                        scalarConstant(ctx, i64, 0));
    det = e.mul(det, e.select(moved, e.unary<NegOp>(pivot), pivot));
    if (n == 1 || !det)
      break;
    // Eliminate the column from the rows below (a zero pivot divides by 1:
    // the determinant is already 0 and must not become NaN).
    FailureOr<Value> below = block(ctx, swapped, 1, n, 0, n);
    FailureOr<Value> belowFirst = block(ctx, swapped, 1, n, 0, 1);
    FailureOr<Value> pivotRest = block(ctx, pivotRow, 0, 1, 1, n);
    if (failed(below) || failed(belowFirst) || failed(pivotRest))
      return failure();
    Value safe = e.select(e.cmp(ComparePredicate::eq, pivot, e.c(pivot, 0)),
                          e.c(pivot, 1), pivot);
    Value factors =
        e.div(*belowFirst, reshapeTo(ctx, safe, {batch, 1, 1})); // [B,n-1,1]
    FailureOr<Value> rest = block(ctx, *below, 0, n - 1, 1, n);
    if (failed(rest))
      return failure();
    a = e.sub(*rest, e.mul(factors, *pivotRest));
  }
  if (!det || ctx.hadError())
    return failure();
  ctx.setOutput(0, reshapeTo(ctx, det, batchShape));
  return success();
}

} // namespace

void registerLinearAlgebraConverters(ConverterRegistry &r) {
  r.add("Det", 11, convertDet);
}

} // namespace kiln::onnx
