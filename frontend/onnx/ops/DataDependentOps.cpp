//===- DataDependentOps.cpp - ONNX ops whose output length is data --------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// NonZero, Compress and Unique keep a number of entries that only the data
// decides. Kiln compiles static shapes, so each computes a bounded output
// (as long as it could possibly be) whose first `length` entries are the
// result, with `length` an i64 scalar beside it; the runtime cuts the output
// to it after a run (ImportContext::setRuntimeLength). Such outputs may
// only leave the graph.
//
// Compaction without a scatter: for a 0/1 mask m of n entries, the
// inclusive prefix sum c (log2 n shifted adds) counts the kept entries up to
// each position, and output slot k takes the entry at #{j : c_j <= k}, the
// position of the (k+1)-th kept entry, found for all slots at once by a
// binary search over c (log2 n rounds of gathers). O(n log n) work, no
// n x n temporary.
//
//===----------------------------------------------------------------------===//

#include "frontend/onnx/ops/DataDependentOps.h"
#include "frontend/onnx/ConverterRegistry.h"
#include "frontend/onnx/ops/Expr.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;

namespace kiln::onnx {

int64_t numElementsOf(Value value) {
  return cast<RankedTensorType>(value.getType()).getNumElements();
}

Value gatherRows(ImportContext &ctx, Value table, Value indices, int64_t axis) {
  SmallVector<Type> types;
  if (!table || !indices ||
      failed(kiln::inferGather(ctx.loc(), table.getType(), indices.getType(),
                               axis, types)))
    return {};
  return ctx.finish(GatherOp::create(ctx.builder(), ctx.loc(), types[0], table,
                                     indices, axis));
}

FailureOr<Compaction> compact(ImportContext &ctx, Value mask) {
  Expr e(ctx);
  int64_t n = shapeOf(mask)[0];
  // Its slot numbers and the output bound are constants of n entries.
  constexpr int64_t kMaxEntries = int64_t(1) << 22;
  if (n > kMaxEntries) {
    ctx.markUnsupported();
    return ctx.error() << "selecting from " << n
                       << " entries is not supported (at most " << kMaxEntries
                       << ")";
  }
  // Inclusive prefix sum by doubling shifts (Hillis-Steele).
  Value sums = mask;
  for (int64_t shift = 1; shift < n && sums; shift *= 2) {
    FailureOr<Value> head = sliceOf(ctx, sums, {0}, {n - shift}, {1});
    if (failed(head))
      return failure();
    FailureOr<Value> shifted = padOf(ctx, *head, {shift}, {0}, 0);
    sums = succeeded(shifted) ? e.add(sums, *shifted) : Value();
  }
  if (!sums)
    return failure();
  FailureOr<Value> last = sliceOf(ctx, sums, {n - 1}, {n}, {1});
  if (failed(last))
    return failure();
  Value count = reshapeTo(ctx, *last, {});

  Value slots = i64Iota(ctx, {n});
  // position = the largest p with sums[p - 1] <= slot (0 when none), by
  // binary lifting: try steps of 2^j from the largest down.
  int64_t top = 1;
  while (top * 2 <= n)
    top *= 2;
  Value position = i64Constant(ctx, {n}, SmallVector<int64_t>(n, 0));
  for (int64_t step = top; step >= 1 && position; step /= 2) {
    Value candidate = e.add(position, e.c(slots, step));
    Value probe = gatherRows(
        ctx, sums, e.sub(e.min(candidate, e.c(slots, n)), e.c(slots, 1)), 0);
    Value take =
        e.binary<AndOp>(e.cmp(ComparePredicate::le, candidate, e.c(slots, n)),
                        e.cmp(ComparePredicate::le, probe, slots));
    position = e.select(take, candidate, position);
  }
  Value inRange = e.cmp(ComparePredicate::lt, slots, count);
  Value positions = e.select(inRange, position, e.c(slots, 0));
  if (!positions)
    return failure();
  return Compaction{positions, inRange, count};
}

/// Sums `x` (i1 or i64) over `axis` as i64, dropping the axis.
Value countOver(ImportContext &ctx, Value x, int64_t axis) {
  if (!x)
    return {};
  Value counted = castTo(ctx, x, ctx.builder().getI64Type());
  FailureOr<Value> sum = reduceOf<ReduceSumOp>(ctx, counted, {axis}, false);
  return succeeded(sum) ? *sum : Value();
}

namespace {

/// The axis whose slices Compress and Unique select: `axis` when the node
/// has one, else 0 of `data` flattened (which it then becomes).
FailureOr<int64_t> slicingAxis(ImportContext &ctx, Value &data) {
  FailureOr<int64_t> axis = ctx.intAttr("axis", 0);
  if (failed(axis))
    return failure();
  if (ctx.attribute("axis"))
    return normalizeAxisAt(ctx, *axis, shapeOf(data).size());
  data = reshapeTo(ctx, data, {numElementsOf(data)});
  return int64_t(0);
}

/// A tensor's truth as an i64 0/1 mask, flattened.
Value truthMask(ImportContext &ctx, Value x) {
  Expr e(ctx);
  Value flat = reshapeTo(ctx, x, {shapeOf(x).empty() ? 1 : numElementsOf(x)});
  Value truth = elementTypeOf(flat).isInteger(1)
                    ? flat
                    : e.cmp(ComparePredicate::ne, flat, e.c(flat, 0));
  return truth ? castTo(ctx, truth, ctx.builder().getI64Type()) : Value();
}

/// NonZero: [rank(X), n] indices of the non-zero entries, in row-major
/// order, cut to their count.
LogicalResult convertNonZero(ImportContext &ctx) {
  FailureOr<Value> x = ctx.requiredInput(0, "X");
  if (failed(x))
    return failure();
  ArrayRef<int64_t> shape = shapeOf(*x);
  int64_t n = numElementsOf(*x);
  if (shape.empty() || n == 0) {
    ctx.markUnsupported();
    return ctx.error() << "NonZero of a scalar or an empty tensor is not "
                          "supported";
  }
  Value mask = truthMask(ctx, *x);
  if (!mask)
    return failure();
  FailureOr<Compaction> kept = compact(ctx, mask);
  if (failed(kept))
    return failure();
  Expr e(ctx);
  SmallVector<Value> coordinates;
  int64_t stride = n;
  for (int64_t size : shape) {
    stride /= size;
    Value coordinate =
        e.binary<RemOp>(e.div(kept->positions, e.c(kept->positions, stride)),
                        e.c(kept->positions, size));
    coordinates.push_back(coordinate);
  }
  if (llvm::any_of(coordinates, [](Value v) { return !v; }))
    return failure();
  FailureOr<Value> indices = stackOf(ctx, coordinates, 0);
  if (failed(indices))
    return failure();
  ctx.setOutput(0, *indices);
  ctx.setRuntimeLength(0, 1, kept->count);
  return success();
}

/// Compress: the slices of `input` along `axis` (of the flattened input
/// without one) whose `condition` entry is true; a shorter condition drops
/// the slices past its end.
LogicalResult convertCompress(ImportContext &ctx) {
  FailureOr<Value> input = ctx.requiredInput(0, "input");
  FailureOr<Value> condition = ctx.requiredInput(1, "condition");
  if (failed(input) || failed(condition))
    return failure();
  Value data = *input;
  FailureOr<int64_t> sliced = slicingAxis(ctx, data);
  if (failed(sliced))
    return failure();
  int64_t axis = *sliced;
  ArrayRef<int64_t> conditionShape = shapeOf(*condition);
  if (conditionShape.size() != 1 || !elementTypeOf(*condition).isInteger(1))
    return ctx.error() << "condition must be a 1-D bool tensor";
  int64_t m = conditionShape[0];
  int64_t extent = shapeOf(data)[axis];
  if (m > extent)
    return ctx.error() << "condition has " << m << " entries, more than the "
                       << extent << " slices it selects from";
  if (m == 0) {
    ctx.markUnsupported();
    return ctx.error() << "an empty condition is not supported";
  }
  FailureOr<Compaction> kept = compact(ctx, truthMask(ctx, *condition));
  if (failed(kept))
    return failure();
  Value selected = gatherRows(ctx, data, kept->positions, axis);
  if (!selected)
    return failure();
  ctx.setOutput(0, selected);
  ctx.setRuntimeLength(0, axis, kept->count);
  return success();
}

/// Unique: the distinct slices of X along `axis` (entries of the flattened
/// X without one), sorted or in order of first occurrence, with the first
/// index of each, the index in Y of every slice, and the counts. Built on
/// n x n comparisons of the n slices, so n is limited.
LogicalResult convertUnique(ImportContext &ctx) {
  FailureOr<Value> x = ctx.requiredInput(0, "X");
  FailureOr<int64_t> sorted = ctx.intAttr("sorted", 1);
  if (failed(x) || failed(sorted))
    return failure();
  Value data = *x;
  FailureOr<int64_t> sliced = slicingAxis(ctx, data);
  if (failed(sliced))
    return failure();
  int64_t axis = *sliced;
  int64_t n = shapeOf(data)[axis];
  int64_t width = n ? numElementsOf(data) / n : 0;
  constexpr int64_t kMaxComparisons = int64_t(1) << 24;
  if (n == 0 || width == 0 || n > kMaxComparisons / width / n) {
    ctx.markUnsupported();
    return ctx.error() << "Unique over " << n << " slices of " << width
                       << " elements is not supported (it compares every "
                          "pair: at most "
                       << kMaxComparisons << " element comparisons)";
  }
  // The slices as rows [n, width].
  SmallVector<int64_t> perm{axis};
  for (int64_t d = 0, e = shapeOf(data).size(); d < e; ++d)
    if (d != axis)
      perm.push_back(d);
  FailureOr<Value> moved = transposeOf(ctx, data, perm);
  if (failed(moved))
    return failure();
  Value rows = reshapeTo(ctx, *moved, {n, width});
  Value a = reshapeTo(ctx, rows, {n, 1, width});
  Value b = reshapeTo(ctx, rows, {1, n, width});

  Expr e(ctx);
  // differ[i, j, k]: slices i and j differ at k; equal[i, j]: nowhere.
  // less[i, j]: slice i sorts before slice j, lexicographically: it is
  // smaller at the first element where they differ. NaNs equal each other
  // and sort last (numpy.unique's order).
  Value differ = e.cmp(ComparePredicate::ne, a, b);
  Value less = e.cmp(ComparePredicate::lt, a, b);
  if (isa<FloatType>(elementTypeOf(rows))) {
    Value nanA = e.cmp(ComparePredicate::ne, a, a);
    Value nanB = e.cmp(ComparePredicate::ne, b, b);
    differ =
        e.binary<AndOp>(differ, e.unary<NotOp>(e.binary<AndOp>(nanA, nanB)));
    less = e.orOf(less, e.binary<AndOp>(e.unary<NotOp>(nanA), nanB));
  }
  Value equal = e.cmp(ComparePredicate::eq, countOver(ctx, differ, 2),
                      scalarConstant(ctx, ctx.builder().getI64Type(), 0));
  if (width > 1) {
    // Differences strictly before k, by an exclusive prefix sum over k.
    Value before = castTo(ctx, differ, ctx.builder().getI64Type());
    FailureOr<Value> shifted = padOf(ctx, before, {0, 0, 1}, {0, 0, 0}, 0);
    FailureOr<Value> cut =
        succeeded(shifted)
            ? sliceOf(ctx, *shifted, {0, 0, 0}, {n, n, width}, {1, 1, 1})
            : FailureOr<Value>(failure());
    if (failed(cut))
      return failure();
    before = *cut;
    for (int64_t shift = 1; shift < width && before; shift *= 2) {
      FailureOr<Value> head =
          sliceOf(ctx, before, {0, 0, 0}, {n, n, width - shift}, {1, 1, 1});
      if (failed(head))
        return failure();
      FailureOr<Value> moved = padOf(ctx, *head, {0, 0, shift}, {0, 0, 0}, 0);
      before = succeeded(moved) ? e.add(before, *moved) : Value();
    }
    Value decides = e.cmp(ComparePredicate::eq, before, e.c(before, 0));
    less = e.cmp(ComparePredicate::gt,
                 countOver(ctx, e.binary<AndOp>(less, decides), 2),
                 scalarConstant(ctx, ctx.builder().getI64Type(), 0));
  } else {
    less = reshapeTo(ctx, less, {n, n});
  }
  Value column = i64Iota(ctx, {1, n});
  Value row = i64Iota(ctx, {n, 1});
  // first[j]: no earlier slice equals slice j.
  Value earlierEqual =
      e.binary<AndOp>(equal, e.cmp(ComparePredicate::lt, row, column));
  Value first = e.cmp(ComparePredicate::eq, countOver(ctx, earlierEqual, 0),
                      scalarConstant(ctx, ctx.builder().getI64Type(), 0));
  Value firstRow = reshapeTo(ctx, first, {n, 1});
  // position[i]: where slice i's value lands in Y.
  Value position;
  if (*sorted) {
    // The distinct slices that sort before it: less[j, i] over first j.
    position = countOver(ctx, e.binary<AndOp>(less, firstRow), 0);
  } else {
    // The distinct slices first seen before its own first occurrence.
    Value firstIndex = countOver(
        ctx,
        e.mul(castTo(ctx, e.binary<AndOp>(equal, reshapeTo(ctx, first, {1, n})),
                     ctx.builder().getI64Type()),
              column),
        1);
    Value seenBefore =
        e.binary<AndOp>(firstRow, e.cmp(ComparePredicate::lt, row,
                                        reshapeTo(ctx, firstIndex, {1, n})));
    position = countOver(ctx, seenBefore, 0);
  }
  if (!position || !first)
    return failure();
  Value count = countOver(ctx, first, 0);
  // Slot p of Y: the first slice whose value lands at p, and how many do.
  Value lands = e.cmp(ComparePredicate::eq, reshapeTo(ctx, position, {1, n}),
                      row); // [p, i]
  Value source = countOver(
      ctx,
      e.mul(castTo(ctx, e.binary<AndOp>(lands, reshapeTo(ctx, first, {1, n})),
                   ctx.builder().getI64Type()),
            column),
      1);
  Value counts = countOver(ctx, lands, 1);
  Value unique = gatherRows(ctx, data, source, axis);
  if (!count || !source || !counts || !unique)
    return failure();
  ctx.setOutput(0, unique);
  ctx.setRuntimeLength(0, axis, count);
  if (ctx.node().output_size() > 1) {
    ctx.setOutput(1, source);
    ctx.setRuntimeLength(1, 0, count);
  }
  if (ctx.node().output_size() > 2)
    ctx.setOutput(2, position);
  if (ctx.node().output_size() > 3) {
    ctx.setOutput(3, counts);
    ctx.setRuntimeLength(3, 0, count);
  }
  return success();
}

} // namespace

void registerDataDependentConverters(ConverterRegistry &r) {
  r.add("NonZero", 9, convertNonZero);
  r.add("Compress", 9, convertCompress);
  r.add("Unique", 11, convertUnique);
  r.add("NonMaxSuppression", 10, convertNonMaxSuppression);
}

} // namespace kiln::onnx
