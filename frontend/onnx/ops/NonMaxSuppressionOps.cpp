//===- NonMaxSuppressionOps.cpp - ONNX NonMaxSuppression ------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// NonMaxSuppression with Kiln's static ops: its rows (batch, class, box)
// are as many as the data keeps, so it is a bounded output with a run-time
// length like NonZero's (DataDependentOps.cpp).
//
//===----------------------------------------------------------------------===//

#include "frontend/onnx/ConverterRegistry.h"
#include "frontend/onnx/ops/DataDependentOps.h"
#include "frontend/onnx/ops/Expr.h"

#include "mlir/IR/BuiltinTypes.h"

#include <cmath>

using namespace mlir;

namespace kiln::onnx {

namespace {

/// Coordinate `k` of every box of [B, N, 4] `boxes`, as [B, N].
Value coordinate(ImportContext &ctx, Value boxes, int64_t k) {
  ArrayRef<int64_t> shape = shapeOf(boxes);
  FailureOr<Value> slice =
      sliceOf(ctx, boxes, {0, 0, k}, {shape[0], shape[1], k + 1}, {1, 1, 1});
  return succeeded(slice) ? reshapeTo(ctx, *slice, {shape[0], shape[1]})
                          : Value();
}

/// `table` [B, ..., N] gathered along its last axis by `order` [B, C, N]
/// (indices of each row b): [B, C, N]. `table` is [B, N] or [B, C, N].
Value gatherPerRow(ImportContext &ctx, Value table, Value order) {
  Expr e(ctx);
  ArrayRef<int64_t> shape = shapeOf(order);
  int64_t batches = shape[0], classes = shape[1], n = shape[2];
  bool perClass = shapeOf(table).size() == 3;
  SmallVector<int64_t> offsets;
  for (int64_t b = 0; b < batches; ++b)
    for (int64_t c = 0; c < classes; ++c)
      offsets.push_back((perClass ? b * classes + c : b) * n);
  Value base = i64Constant(ctx, {batches, classes, 1}, offsets);
  Value flat = reshapeTo(ctx, table, {numElementsOf(table)});
  Value picked = gatherRows(ctx, flat, e.add(order, base), 0);
  return picked ? reshapeTo(ctx, picked, shape) : Value();
}

} // namespace

/// NonMaxSuppression: per batch and class, boxes in descending score order,
/// each kept unless its IoU with a kept higher-scoring box exceeds the
/// threshold (or its score is not above the score threshold), at most
/// `max_output_boxes_per_class`; [selected, 3] rows (batch, class, box).
/// The greedy pass is a fixed point: with `kept` the valid boxes, N - 1
/// rounds of "kept and not suppressed by a kept box" settle the box at
/// sorted position t by round t, so the rounds are unrolled (N is limited).
LogicalResult convertNonMaxSuppression(ImportContext &ctx) {
  FailureOr<Value> boxes = ctx.requiredInput(0, "boxes");
  FailureOr<Value> scores = ctx.requiredInput(1, "scores");
  FailureOr<int64_t> centerPointBox = ctx.intAttr("center_point_box", 0);
  if (failed(boxes) || failed(scores) || failed(centerPointBox))
    return failure();
  ArrayRef<int64_t> boxShape = shapeOf(*boxes);
  ArrayRef<int64_t> scoreShape = shapeOf(*scores);
  if (boxShape.size() != 3 || boxShape[2] != 4 || scoreShape.size() != 3 ||
      scoreShape[0] != boxShape[0] || scoreShape[2] != boxShape[1] ||
      !isa<FloatType>(elementTypeOf(*boxes)) ||
      elementTypeOf(*boxes) != elementTypeOf(*scores))
    return ctx.error() << "boxes must be [batches, boxes, 4] and scores "
                          "[batches, classes, boxes], of one float type";
  if (*centerPointBox != 0 && *centerPointBox != 1)
    return ctx.error() << "center_point_box must be 0 or 1, not "
                       << *centerPointBox;
  int64_t maxPerClass = 0;
  if (ctx.input(2)) {
    FailureOr<SmallVector<int64_t>> limit =
        ctx.constantInts(2, "max_output_boxes_per_class");
    if (failed(limit))
      return failure();
    if (limit->size() != 1)
      return ctx.error() << "max_output_boxes_per_class must hold one value";
    maxPerClass = (*limit)[0];
  }
  int64_t batches = boxShape[0], classes = scoreShape[1], n = boxShape[1];
  constexpr int64_t kMaxBoxes = 128;
  if (maxPerClass <= 0 || n == 0 || classes == 0 || n > kMaxBoxes) {
    ctx.markUnsupported();
    return ctx.error() << "NonMaxSuppression is supported for 1 to "
                       << kMaxBoxes
                       << " boxes (its greedy pass is unrolled) and a "
                          "positive max_output_boxes_per_class; this node has "
                       << n << " boxes and a limit of " << maxPerClass;
  }
  Expr e(ctx);
  Type i64 = ctx.builder().getI64Type();
  Value zero64 = scalarConstant(ctx, i64, 0);

  // Rank of each box in its (batch, class) by descending score, ties by
  // index, a NaN score last; `order[t]` is the box at rank t.
  Value across = i64Iota(ctx, {1, 1, 1, n});
  Value down = i64Iota(ctx, {1, 1, n, 1});
  Value ranked = e.select(e.cmp(ComparePredicate::ne, *scores, *scores),
                          e.c(*scores, -INFINITY), *scores);
  Value mine = reshapeTo(ctx, ranked, {batches, classes, n, 1});
  Value theirs = reshapeTo(ctx, ranked, {batches, classes, 1, n});
  Value ahead =
      e.orOf(e.cmp(ComparePredicate::gt, theirs, mine),
             e.binary<AndOp>(e.cmp(ComparePredicate::eq, theirs, mine),
                             e.cmp(ComparePredicate::lt, across, down)));
  Value rank = countOver(ctx, ahead, 3); // [B, C, N]
  Value atRank = e.cmp(ComparePredicate::eq,
                       reshapeTo(ctx, rank, {batches, classes, 1, n}), down);
  Value order =
      countOver(ctx, e.mul(castTo(ctx, atRank, i64), across), 3); // [B, C, N]
  if (!order)
    return failure();

  // Corners of the boxes in rank order, [B, C, N] each.
  Value c0 = coordinate(ctx, *boxes, 0), c1 = coordinate(ctx, *boxes, 1);
  Value c2 = coordinate(ctx, *boxes, 2), c3 = coordinate(ctx, *boxes, 3);
  Value yLow, xLow, yHigh, xHigh;
  if (*centerPointBox) { // [x_center, y_center, width, height]
    Value half = e.c(c0, 0.5);
    xLow = e.sub(c0, e.mul(c2, half));
    xHigh = e.add(c0, e.mul(c2, half));
    yLow = e.sub(c1, e.mul(c3, half));
    yHigh = e.add(c1, e.mul(c3, half));
  } else { // [y1, x1, y2, x2], either diagonal
    yLow = e.min(c0, c2);
    yHigh = e.max(c0, c2);
    xLow = e.min(c1, c3);
    xHigh = e.max(c1, c3);
  }
  auto sorted = [&](Value v) { return v ? gatherPerRow(ctx, v, order) : v; };
  yLow = sorted(yLow), xLow = sorted(xLow);
  yHigh = sorted(yHigh), xHigh = sorted(xHigh);
  Value sortedScores = gatherPerRow(ctx, *scores, order);
  if (!yLow || !xLow || !yHigh || !xHigh || !sortedScores)
    return failure();

  // IoU of ranks u (axis 2) and t (axis 3).
  auto asU = [&](Value v) {
    return reshapeTo(ctx, v, {batches, classes, n, 1});
  };
  auto asT = [&](Value v) {
    return reshapeTo(ctx, v, {batches, classes, 1, n});
  };
  Value zero = e.c(yLow, 0);
  Value area = e.mul(e.sub(yHigh, yLow), e.sub(xHigh, xLow));
  Value height = e.max(
      e.sub(e.min(asU(yHigh), asT(yHigh)), e.max(asU(yLow), asT(yLow))), zero);
  Value width = e.max(
      e.sub(e.min(asU(xHigh), asT(xHigh)), e.max(asU(xLow), asT(xLow))), zero);
  Value inter = e.mul(height, width);
  Value unionArea = e.sub(e.add(asU(area), asT(area)), inter);
  Value measurable = e.binary<AndOp>(
      e.binary<AndOp>(e.cmp(ComparePredicate::gt, asU(area), zero),
                      e.cmp(ComparePredicate::gt, asT(area), zero)),
      e.cmp(ComparePredicate::gt, unionArea, zero));
  Value iou = e.select(measurable, e.div(inter, unionArea), zero);
  Value threshold = ctx.input(3)
                        ? reshapeTo(ctx, ctx.input(3), {})
                        : scalarConstant(ctx, elementTypeOf(*boxes), 0);
  // suppresses[u, t]: a kept box at rank u removes the box at rank t; boxes
  // that do not overlap (or have no area) never do, whatever the threshold.
  Value overlapping =
      e.binary<AndOp>(measurable, e.cmp(ComparePredicate::gt, inter, zero));
  Value suppresses = e.binary<AndOp>(
      e.binary<AndOp>(overlapping, e.cmp(ComparePredicate::gt, iou, threshold)),
      e.cmp(ComparePredicate::lt, down, across));
  Value valid = ctx.input(4) ? e.cmp(ComparePredicate::gt, sortedScores,
                                     reshapeTo(ctx, ctx.input(4), {}))
                             : e.cmp(ComparePredicate::eq, order, order);
  Value kept = valid;
  for (int64_t round = 1; round < n && kept; ++round) {
    Value suppressed =
        countOver(ctx, e.binary<AndOp>(asU(kept), suppresses), 2);
    kept =
        e.binary<AndOp>(valid, e.cmp(ComparePredicate::eq, suppressed, zero64));
  }
  // At most maxPerClass per (batch, class): those with fewer kept before.
  Value keptBefore = countOver(
      ctx,
      e.binary<AndOp>(asU(kept), e.cmp(ComparePredicate::lt, down, across)), 2);
  Value selected = e.binary<AndOp>(
      kept, e.cmp(ComparePredicate::lt, keptBefore,
                  scalarConstant(ctx, i64, double(maxPerClass))));
  if (!selected)
    return failure();

  // Rows in (batch, class, rank) order.
  int64_t total = batches * classes * n;
  FailureOr<Compaction> rows =
      compact(ctx, castTo(ctx, reshapeTo(ctx, selected, {total}), i64));
  if (failed(rows))
    return failure();
  Value at = rows->positions;
  Value batch = e.div(at, e.c(at, classes * n));
  Value klass = e.binary<RemOp>(e.div(at, e.c(at, n)), e.c(at, classes));
  Value box = gatherRows(ctx, reshapeTo(ctx, order, {total}), at, 0);
  box = e.select(rows->inRange, box, e.c(at, 0));
  if (!batch || !klass || !box)
    return failure();
  FailureOr<Value> indices = stackOf(ctx, {batch, klass, box}, 1);
  if (failed(indices))
    return failure();
  ctx.setOutput(0, *indices);
  ctx.setRuntimeLength(0, 0, rows->count);
  return success();
}

} // namespace kiln::onnx
