//===- IndexingOps.cpp - One-hot style ONNX ops -> kiln -------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Hardmax, OneHot, GatherElements, GatherND, ScatterElements, ScatterND,
// CumSum and the NLL / softmax cross-entropy losses, expressed with kiln ops: a
// comparison against an index ramp gives one-hot masks; selects and sums pick
// or gather; a triangular matrix product gives cumulative sums. These are the
// shapes of classification heads and losses, not hot loops, so clarity wins
// here.
//
//===----------------------------------------------------------------------===//

#include "frontend/onnx/ops/Common.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;

namespace kiln::onnx {

namespace {

Type i64(ImportContext &ctx) { return ctx.builder().getI64Type(); }

/// Longest ramp materialised (128 MiB of i64): the one-hot expansions below
/// build one over a dimension of the model, which may claim any size.
constexpr int64_t kMaxRamp = int64_t(1) << 24;

/// 0, 1, ..., n-1 along dimension `axis` of a rank-`rank` tensor (other
/// dimensions 1), as i64; an error at the node when `n` exceeds kMaxRamp.
FailureOr<Value> ramp(ImportContext &ctx, int64_t n, int64_t axis,
                      int64_t rank) {
  if (n > kMaxRamp)
    return ctx.error() << "the node expands to a constant of " << n
                       << " indices (at most " << kMaxRamp
                       << "): implausibly large";
  SmallVector<int64_t> shape(rank, 1);
  shape[axis] = n;
  SmallVector<int64_t> values = llvm::to_vector(llvm::seq<int64_t>(0, n));
  auto type = RankedTensorType::get(shape, i64(ctx));
  return ctx.constant(DenseElementsAttr::get(type, ArrayRef<int64_t>(values)));
}

/// `shape` with a 1 inserted at `axis`.
SmallVector<int64_t> insertUnit(ArrayRef<int64_t> shape, int64_t axis) {
  SmallVector<int64_t> result(shape);
  result.insert(result.begin() + axis, 1);
  return result;
}

FailureOr<Value> compareEq(ImportContext &ctx, Value a, Value b) {
  SmallVector<Type> types;
  if (failed(kiln::inferBroadcastElementwise(
          ctx.loc(), ValueRange{a, b}, ctx.builder().getI1Type(), types)))
    return failure();
  return ctx.finish(CompareOp::create(ctx.builder(), ctx.loc(), types[0],
                                      ComparePredicate::eq, a, b));
}

FailureOr<Value> select(ImportContext &ctx, Value c, Value a, Value b) {
  SmallVector<Type> types;
  if (failed(kiln::inferSelect(ctx.loc(), c.getType(), a.getType(),
                               b.getType(), types)))
    return failure();
  return ctx.finish(
      SelectOp::create(ctx.builder(), ctx.loc(), types[0], c, a, b));
}

/// The shared builders with a null result on failure (reported at the
/// node), for the expressions below.
Value reduceSum(ImportContext &ctx, Value v, ArrayRef<int64_t> axes,
                bool keep) {
  FailureOr<Value> sum = reduceOf<ReduceSumOp>(ctx, v, axes, keep);
  return succeeded(sum) ? *sum : Value();
}

Value transpose(ImportContext &ctx, Value v, ArrayRef<int64_t> perm) {
  FailureOr<Value> moved = transposeOf(ctx, v, perm);
  return succeeded(moved) ? *moved : Value();
}

/// Indices with negative values counted from the end of a dimension of
/// `size` (as i64).
FailureOr<Value> wrapNegative(ImportContext &ctx, Value indices, int64_t size) {
  Value index = castTo(ctx, indices, i64(ctx));
  Value zero = scalarConstant(ctx, i64(ctx), 0);
  SmallVector<Type> t;
  (void)kiln::inferBroadcastElementwise(ctx.loc(), ValueRange{index, zero},
                                        ctx.builder().getI1Type(), t);
  Value negative = ctx.finish(CompareOp::create(
      ctx.builder(), ctx.loc(), t[0], ComparePredicate::lt, index, zero));
  FailureOr<Value> wrapped =
      buildBroadcast<AddOp>(ctx, index, scalarConstant(ctx, i64(ctx), size));
  if (failed(wrapped))
    return failure();
  return select(ctx, negative, *wrapped, index);
}

/// Hardmax: 1 at the (first) maximum along the axis, 0 elsewhere. Before
/// opset 13 the input is flattened into rows at `axis`, as for Softmax.
template <bool Coerced2d> LogicalResult convertHardmax(ImportContext &ctx) {
  FailureOr<Value> x = ctx.requiredInput(0, "input");
  FailureOr<int64_t> axisAttr = ctx.intAttr("axis", Coerced2d ? 1 : -1);
  if (failed(x) || failed(axisAttr))
    return failure();
  ArrayRef<int64_t> shape = shapeOf(*x);
  FailureOr<int64_t> axis = normalizeAxisAt(ctx, *axisAttr, shape.size());
  if (failed(axis))
    return failure();
  Value input = *x;
  int64_t along = *axis;
  if (Coerced2d) {
    input = flattenAt(ctx, input, along);
    along = 1;
  }
  SmallVector<Type> types;
  if (failed(kiln::inferArgReduce(ctx.loc(), input.getType(), along, true,
                                  types)))
    return failure();
  Value best = ctx.finish(ArgMaxOp::create(ctx.builder(), ctx.loc(), types[0],
                                           input, along, true, false));
  int64_t rank = shapeOf(input).size();
  FailureOr<Value> positions = ramp(ctx, shapeOf(input)[along], along, rank);
  if (failed(positions))
    return failure();
  FailureOr<Value> hot = compareEq(ctx, *positions, best);
  if (failed(hot))
    return failure();
  ctx.setOutput(0, reshapeTo(ctx, castTo(ctx, *hot, elementTypeOf(*x)), shape));
  return success();
}

LogicalResult convertOneHot(ImportContext &ctx) {
  FailureOr<Value> indices = ctx.requiredInput(0, "indices");
  FailureOr<DenseElementsAttr> depthAttr = ctx.constantInput(1, "depth");
  FailureOr<Value> values = ctx.requiredInput(2, "values");
  FailureOr<int64_t> axisAttr = ctx.intAttr("axis", -1);
  if (failed(indices) || failed(depthAttr) || failed(values) ||
      failed(axisAttr))
    return failure();
  if (depthAttr->getNumElements() != 1 || shapeOf(*values) != ArrayRef<int64_t>{2})
    return ctx.error() << "depth must be a scalar and values a pair";
  double depthValue =
      isa<FloatType>(depthAttr->getElementType())
          ? (*depthAttr->getValues<APFloat>().begin()).convertToDouble()
          : double((*depthAttr->getValues<APInt>().begin()).getSExtValue());
  int64_t depth = int64_t(depthValue);
  if (depth <= 0 || depth > (1 << 24))
    return ctx.error() << "depth must be positive";
  int64_t rank = shapeOf(*indices).size() + 1;
  FailureOr<int64_t> axis = normalizeAxisAt(ctx, *axisAttr, rank);
  if (failed(axis))
    return failure();
  // Negative indices count from the end of the depth.
  FailureOr<Value> normalized = wrapNegative(ctx, *indices, depth);
  if (failed(normalized))
    return failure();
  Value expanded =
      reshapeTo(ctx, *normalized, insertUnit(shapeOf(*normalized), *axis));
  FailureOr<Value> positions = ramp(ctx, depth, *axis, rank);
  if (failed(positions))
    return failure();
  FailureOr<Value> hot = compareEq(ctx, *positions, expanded);
  if (failed(hot))
    return failure();
  Type element = elementTypeOf(*values);
  auto scalarType = RankedTensorType::get({}, element);
  auto pick = [&](int64_t i) {
    SmallVector<Type> types;
    (void)kiln::inferSlice(ctx.loc(), values->getType(), {i}, {i + 1}, {1},
                           types);
    Value one = ctx.finish(SliceOp::create(ctx.builder(), ctx.loc(), types[0],
                                           *values, ArrayRef<int64_t>{i},
                                           ArrayRef<int64_t>{i + 1},
                                           ArrayRef<int64_t>{1}));
    return reshapeTo(ctx, one, scalarType.getShape());
  };
  FailureOr<Value> result = select(ctx, *hot, pick(1), pick(0));
  if (failed(result))
    return failure();
  ctx.setOutput(0, *result);
  return success();
}

LogicalResult convertGatherElements(ImportContext &ctx) {
  FailureOr<Value> data = ctx.requiredInput(0, "data");
  FailureOr<Value> indices = ctx.requiredInput(1, "indices");
  FailureOr<int64_t> axisAttr = ctx.intAttr("axis", 0);
  if (failed(data) || failed(indices) || failed(axisAttr))
    return failure();
  ArrayRef<int64_t> dataShape = shapeOf(*data), indexShape = shapeOf(*indices);
  int64_t rank = dataShape.size();
  if (int64_t(indexShape.size()) != rank || rank == 0)
    return ctx.error() << "data and indices must have the same rank";
  FailureOr<int64_t> axis = normalizeAxisAt(ctx, *axisAttr, rank);
  if (failed(axis))
    return failure();
  for (int64_t d = 0; d < rank; ++d)
    if (d != *axis && indexShape[d] != dataShape[d])
      return ctx.error() << "indices must match data outside the axis";
  int64_t n = dataShape[*axis];
  // As for ScatterElements: the one-hot below has n elements per index.
  if (n * std::max<int64_t>(
              1, cast<RankedTensorType>(indices->getType()).getNumElements()) >
      (int64_t(1) << 28))
    return ctx.error() << "the gather is implausibly large";
  // One-hot over a new last dimension: hot[p, k] = (idx[p] mod n == k), and
  // data moved so that its axis lines up with k.
  FailureOr<Value> normalized = wrapNegative(ctx, *indices, n);
  FailureOr<Value> positions = ramp(ctx, n, rank, rank + 1);
  if (failed(normalized) || failed(positions))
    return failure();
  SmallVector<int64_t> hotShape(indexShape);
  hotShape.push_back(1);
  FailureOr<Value> hot = compareEq(ctx, reshapeTo(ctx, *normalized, hotShape),
                                   *positions);
  // data[..., axis -> 1, ..., n]: move the axis to the end, keep a unit
  // dimension in its place.
  SmallVector<int64_t> perm;
  for (int64_t d = 0; d < rank; ++d)
    if (d != *axis)
      perm.push_back(d);
  perm.push_back(*axis);
  Value moved = transpose(ctx, *data, perm);
  SmallVector<int64_t> spread(shapeOf(moved));
  spread.insert(spread.begin() + *axis, 1);
  Value aligned = reshapeTo(ctx, moved, spread);
  if (failed(hot))
    return failure();
  FailureOr<Value> picked = select(
      ctx, *hot, aligned, scalarConstant(ctx, elementTypeOf(*data), 0));
  if (failed(picked))
    return failure();
  ctx.setOutput(0, reduceSum(ctx, *picked, {rank}, false));
  return success();
}

/// The cumulative sum of `x` along `axis`:
/// y[..., j] = sum_i x[..., i] * M[i, j] with a triangular 0/1 matrix.
FailureOr<Value> cumulativeSum(ImportContext &ctx, Value x, int64_t axis,
                               bool exclusive, bool reverse) {
  ArrayRef<int64_t> shape = shapeOf(x);
  int64_t rank = shape.size();
  int64_t n = shape[axis];
  if (n > 4096)
    return ctx.error() << "CumSum along an axis of " << n
                       << " elements is not supported";
  Type element = elementTypeOf(x);
  SmallVector<Attribute> entries;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      bool take =
          reverse ? (exclusive ? i > j : i >= j) : (exclusive ? i < j : i <= j);
      entries.push_back(isa<FloatType>(element)
                            ? Attribute(FloatAttr::get(element, take))
                            : Attribute(IntegerAttr::get(element, take)));
    }
  Value matrix = ctx.constant(
      DenseElementsAttr::get(RankedTensorType::get({n, n}, element), entries));
  SmallVector<int64_t> perm;
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis)
      perm.push_back(d);
  perm.push_back(axis);
  Value moved = transpose(ctx, x, perm);
  if (rank == 1)
    moved = reshapeTo(ctx, moved, {1, n});
  FailureOr<Value> product = matmulOf(ctx, moved, matrix);
  if (failed(product))
    return failure();
  Value summed = *product;
  if (rank == 1)
    return reshapeTo(ctx, summed, {n});
  SmallVector<int64_t> inverse(rank);
  for (int64_t d = 0; d < rank; ++d)
    inverse[perm[d]] = d;
  return transpose(ctx, summed, inverse);
}

/// CumSum. The axis does not change the result's shape, so an axis known
/// only at run time is still compiled: the sums along every axis, of which
/// a comparison with the (normalised) axis selects one.
LogicalResult convertCumSum(ImportContext &ctx) {
  FailureOr<Value> x = ctx.requiredInput(0, "x");
  FailureOr<Value> axisInput = ctx.requiredInput(1, "axis");
  FailureOr<int64_t> exclusive = ctx.intAttr("exclusive", 0);
  FailureOr<int64_t> reverse = ctx.intAttr("reverse", 0);
  if (failed(x) || failed(axisInput) || failed(exclusive) || failed(reverse))
    return failure();
  int64_t rank = shapeOf(*x).size();
  if (cast<RankedTensorType>(axisInput->getType()).getNumElements() != 1 ||
      !isa<IntegerType>(elementTypeOf(*axisInput)) || rank == 0)
    return ctx.error() << "axis must be an integer scalar and x a tensor";
  if (matchPattern(*axisInput, m_Constant())) {
    FailureOr<SmallVector<int64_t>> axisValue = ctx.constantInts(1, "axis");
    if (failed(axisValue))
      return failure();
    FailureOr<int64_t> axis = normalizeAxisAt(ctx, (*axisValue)[0], rank);
    if (failed(axis))
      return failure();
    FailureOr<Value> result =
        cumulativeSum(ctx, *x, *axis, *exclusive != 0, *reverse != 0);
    if (failed(result))
      return failure();
    ctx.setOutput(0, *result);
    return success();
  }
  if (rank > 4) {
    ctx.markUnsupported();
    return ctx.error() << "a CumSum axis known only at run time is supported "
                          "up to rank 4 (bind it with --bind NAME=FILE.npy)";
  }
  FailureOr<Value> axis =
      wrapNegative(ctx, reshapeTo(ctx, *axisInput, {}), rank);
  if (failed(axis))
    return failure();
  Value result;
  for (int64_t d = rank - 1; d >= 0; --d) {
    FailureOr<Value> sum =
        cumulativeSum(ctx, *x, d, *exclusive != 0, *reverse != 0);
    if (failed(sum))
      return failure();
    if (!result) {
      result = *sum;
      continue;
    }
    FailureOr<Value> chosen =
        compareEq(ctx, *axis, scalarConstant(ctx, i64(ctx), d));
    if (failed(chosen))
      return failure();
    FailureOr<Value> picked = select(ctx, *chosen, *sum, result);
    if (failed(picked))
      return failure();
    result = *picked;
  }
  ctx.setOutput(0, result);
  return success();
}

//===----------------------------------------------------------------------===//
// GatherND, ScatterElements, ScatterND
//===----------------------------------------------------------------------===//

/// The row-major linear index into dimensions `dims` of each index tuple
/// along the last axis of `indices` (negative components count from the
/// end of their dimension), as i64 of shape indices.shape[:-1].
FailureOr<Value> linearIndex(ImportContext &ctx, Value indices,
                             ArrayRef<int64_t> dims) {
  int64_t k = dims.size();
  SmallVector<int64_t> strides(k, 1);
  for (int64_t t = k - 2; t >= 0; --t)
    strides[t] = strides[t + 1] * dims[t + 1];
  Value index = castTo(ctx, indices, i64(ctx));
  Value zero = scalarConstant(ctx, i64(ctx), 0);
  SmallVector<Type> t;
  if (failed(kiln::inferBroadcastElementwise(ctx.loc(), ValueRange{index, zero},
                                             ctx.builder().getI1Type(), t)))
    return failure();
  Value negative = ctx.finish(CompareOp::create(
      ctx.builder(), ctx.loc(), t[0], ComparePredicate::lt, index, zero));
  FailureOr<Value> wrapped =
      buildBroadcast<AddOp>(ctx, index, i64Constant(ctx, {k}, dims));
  if (failed(wrapped))
    return failure();
  FailureOr<Value> normalized = select(ctx, negative, *wrapped, index);
  if (failed(normalized))
    return failure();
  FailureOr<Value> scaled =
      buildBroadcast<MulOp>(ctx, *normalized, i64Constant(ctx, {k}, strides));
  if (failed(scaled))
    return failure();
  int64_t last = int64_t(shapeOf(index).size()) - 1;
  return reduceSum(ctx, *scaled, {last}, false);
}

/// GatherND: the index tuples become linear indices into the flattened
/// leading dimensions of data (per batch), and one kiln.gather picks the
/// trailing slices.
LogicalResult convertGatherND(ImportContext &ctx) {
  FailureOr<Value> data = ctx.requiredInput(0, "data");
  FailureOr<Value> indices = ctx.requiredInput(1, "indices");
  FailureOr<int64_t> batchDims = ctx.intAttr("batch_dims", 0);
  if (failed(data) || failed(indices) || failed(batchDims))
    return failure();
  ArrayRef<int64_t> dataShape = shapeOf(*data), indexShape = shapeOf(*indices);
  int64_t r = dataShape.size(), q = indexShape.size(), b = *batchDims;
  if (!isa<IntegerType>(elementTypeOf(*indices)) || q < 1 || r < 1)
    return ctx.error() << "data and indices must have rank >= 1 and indices "
                          "must hold integers";
  if (b < 0 || b >= std::min(r, q))
    return ctx.error() << "batch_dims must be in [0, min(rank(data), "
                          "rank(indices)))";
  int64_t k = indexShape.back();
  if (k < 1 || b + k > r)
    return ctx.error() << "indices.shape[-1] must be in [1, rank(data) - "
                          "batch_dims]";
  for (int64_t d = 0; d < b; ++d)
    if (indexShape[d] != dataShape[d])
      return ctx.error() << "the batch dimensions of data and indices differ";
  ArrayRef<int64_t> dims = dataShape.slice(b, k);
  int64_t batch = 1, block = 1, rest = 1;
  for (int64_t d = 0; d < r; ++d)
    (d < b ? batch : d < b + k ? block : rest) *= dataShape[d];
  FailureOr<Value> linear = linearIndex(ctx, *indices, dims);
  if (failed(linear))
    return failure();
  Value index = *linear;
  if (b > 0) {
    // Each batch starts `block` rows further into the flattened data.
    SmallVector<int64_t> offsetShape(indexShape.drop_back());
    for (int64_t d = b; d < q - 1; ++d)
      offsetShape[d] = 1;
    SmallVector<int64_t> offsets;
    for (int64_t i = 0; i < batch; ++i)
      offsets.push_back(i * block);
    FailureOr<Value> shifted = buildBroadcast<AddOp>(
        ctx, index, i64Constant(ctx, offsetShape, offsets));
    if (failed(shifted))
      return failure();
    index = *shifted;
  }
  Value table = reshapeTo(ctx, *data, {batch * block, rest});
  SmallVector<Type> types;
  if (failed(kiln::inferGather(ctx.loc(), table.getType(), index.getType(), 0,
                               types)))
    return failure();
  Value gathered = ctx.finish(
      GatherOp::create(ctx.builder(), ctx.loc(), types[0], table, index, 0));
  SmallVector<int64_t> resultShape(indexShape.drop_back());
  llvm::append_range(resultShape, dataShape.drop_front(b + k));
  ctx.setOutput(0, reshapeTo(ctx, gathered, resultShape));
  return success();
}

enum class ScatterReduction { None, Add, Mul };

FailureOr<ScatterReduction> readScatterReduction(ImportContext &ctx) {
  FailureOr<std::string> reduction = ctx.stringAttr("reduction", "none");
  if (failed(reduction))
    return failure();
  if (*reduction == "none")
    return ScatterReduction::None;
  if (*reduction == "add")
    return ScatterReduction::Add;
  if (*reduction == "mul")
    return ScatterReduction::Mul;
  ctx.markUnsupported();
  return ctx.error() << "scatter reduction '" << *reduction
                     << "' is not supported";
}

/// The scattered result from a one-hot mask `hot` (true where an update
/// lands on an output position, one extra dimension `over` for the updates
/// that are summed out) and `updates` broadcast against it: per position,
/// the sum (none, add) or product (mul) of the updates landing there, and
/// whether any does. `finish` reshapes/transposes both to data's layout.
FailureOr<Value>
combineScatter(ImportContext &ctx, Value data, Value hot, Value updates,
               int64_t over, ScatterReduction reduction,
               llvm::function_ref<Value(Value, double)> finish) {
  Type element = elementTypeOf(data);
  if (element.isInteger(1)) {
    ctx.markUnsupported();
    return ctx.error() << "scattering booleans is not supported";
  }
  bool isMul = reduction == ScatterReduction::Mul;
  FailureOr<Value> picked =
      select(ctx, hot, updates, scalarConstant(ctx, element, isMul ? 1 : 0));
  if (failed(picked))
    return failure();
  Value combined;
  if (isMul) {
    SmallVector<Type> types;
    if (failed(kiln::inferReduce(ctx.loc(), picked->getType(), {over}, false,
                                 types)))
      return failure();
    combined = finish(ctx.finish(ReduceProdOp::create(
                          ctx.builder(), ctx.loc(), types[0], *picked,
                          ArrayRef<int64_t>{over}, false)),
                      1.0);
    return buildBroadcast<MulOp>(ctx, data, combined);
  }
  combined = finish(reduceSum(ctx, *picked, {over}, false), 0.0);
  if (reduction == ScatterReduction::Add)
    return buildBroadcast<AddOp>(ctx, data, combined);
  // none: positions no update lands on keep data (duplicates are undefined
  // in ONNX; here they add up).
  Value count =
      finish(reduceSum(ctx, castTo(ctx, hot, i64(ctx)), {over}, false), 0.0);
  Value zero = scalarConstant(ctx, i64(ctx), 0);
  SmallVector<Type> t;
  if (failed(kiln::inferBroadcastElementwise(ctx.loc(), ValueRange{count, zero},
                                             ctx.builder().getI1Type(), t)))
    return failure();
  Value hit = ctx.finish(CompareOp::create(ctx.builder(), ctx.loc(), t[0],
                                           ComparePredicate::gt, count, zero));
  return select(ctx, hit, combined, data);
}

/// ScatterElements (and the older Scatter): a one-hot comparison of the
/// indices against the axis positions, with the updates summed over the
/// axis of the indices, then moved and padded to data's layout.
LogicalResult convertScatterElements(ImportContext &ctx) {
  FailureOr<Value> data = ctx.requiredInput(0, "data");
  FailureOr<Value> indices = ctx.requiredInput(1, "indices");
  FailureOr<Value> updates = ctx.requiredInput(2, "updates");
  FailureOr<int64_t> axisAttr = ctx.intAttr("axis", 0);
  FailureOr<ScatterReduction> reduction = readScatterReduction(ctx);
  if (failed(data) || failed(indices) || failed(updates) || failed(axisAttr) ||
      failed(reduction))
    return failure();
  ArrayRef<int64_t> dataShape = shapeOf(*data), indexShape = shapeOf(*indices);
  int64_t rank = dataShape.size();
  if (rank == 0 || int64_t(indexShape.size()) != rank ||
      shapeOf(*updates) != indexShape ||
      elementTypeOf(*updates) != elementTypeOf(*data) ||
      !isa<IntegerType>(elementTypeOf(*indices)))
    return ctx.error() << "data, indices and updates must have one rank, "
                          "indices and updates one shape, and indices hold "
                          "integers";
  FailureOr<int64_t> axis = normalizeAxisAt(ctx, *axisAttr, rank);
  if (failed(axis))
    return failure();
  for (int64_t d = 0; d < rank; ++d)
    if (indexShape[d] > dataShape[d])
      return ctx.error() << "indices are larger than data in dimension " << d;
  int64_t n = dataShape[*axis];
  if (n * int64_t(std::max<int64_t>(
              1, cast<RankedTensorType>(indices->getType()).getNumElements())) >
      (int64_t(1) << 28))
    return ctx.error() << "the scatter is implausibly large";
  FailureOr<Value> normalized = wrapNegative(ctx, *indices, n);
  if (failed(normalized))
    return failure();
  SmallVector<int64_t> expanded(indexShape);
  expanded.push_back(1);
  FailureOr<Value> positions = ramp(ctx, n, rank, rank + 1);
  if (failed(positions))
    return failure();
  FailureOr<Value> hot = compareEq(ctx, reshapeTo(ctx, *normalized, expanded),
                                   *positions);
  if (failed(hot))
    return failure();
  // After summing out the indices' axis, the positions along data's axis
  // are last: move them into place and pad the other dimensions to data's.
  SmallVector<int64_t> perm;
  for (int64_t d = 0; d < rank; ++d)
    perm.push_back(d < *axis ? d : d == *axis ? rank - 1 : d - 1);
  auto finish = [&](Value v, double fill) {
    Value moved = transpose(ctx, v, perm);
    SmallVector<int64_t> low(rank, 0), high(rank, 0);
    bool pad = false;
    for (int64_t d = 0; d < rank; ++d) {
      high[d] = dataShape[d] - shapeOf(moved)[d];
      pad |= high[d] != 0;
    }
    if (!pad)
      return moved;
    SmallVector<Type> types;
    (void)kiln::inferPad(ctx.loc(), moved.getType(), low, high,
                         PadMode::constant, types);
    return ctx.finish(PadOp::create(ctx.builder(), ctx.loc(), types[0], moved,
                                    low, high, PadMode::constant,
                                    APFloat(fill)));
  };
  FailureOr<Value> result =
      combineScatter(ctx, *data, *hot, reshapeTo(ctx, *updates, expanded),
                     *axis, *reduction, finish);
  if (failed(result))
    return failure();
  ctx.setOutput(0, *result);
  return success();
}

/// ScatterND: index tuples become linear indices into data's leading
/// dimensions (flattened); a one-hot comparison against those positions
/// scatters the update slices.
LogicalResult convertScatterND(ImportContext &ctx) {
  FailureOr<Value> data = ctx.requiredInput(0, "data");
  FailureOr<Value> indices = ctx.requiredInput(1, "indices");
  FailureOr<Value> updates = ctx.requiredInput(2, "updates");
  FailureOr<ScatterReduction> reduction = readScatterReduction(ctx);
  if (failed(data) || failed(indices) || failed(updates) || failed(reduction))
    return failure();
  ArrayRef<int64_t> dataShape = shapeOf(*data), indexShape = shapeOf(*indices);
  int64_t r = dataShape.size(), q = indexShape.size();
  if (r < 1 || q < 1 || !isa<IntegerType>(elementTypeOf(*indices)) ||
      elementTypeOf(*updates) != elementTypeOf(*data))
    return ctx.error() << "data and indices must have rank >= 1, indices "
                          "hold integers and updates data's element type";
  int64_t k = indexShape.back();
  SmallVector<int64_t> updateShape(indexShape.drop_back());
  llvm::append_range(updateShape, dataShape.drop_front(std::min(k, r)));
  if (k < 1 || k > r || shapeOf(*updates) != ArrayRef<int64_t>(updateShape))
    return ctx.error() << "indices.shape[-1] must be in [1, rank(data)] and "
                          "updates must be indices.shape[:-1] + "
                          "data.shape[indices.shape[-1]:]";
  int64_t block = 1, rest = 1, count = 1;
  for (int64_t d = 0; d < r; ++d)
    (d < k ? block : rest) *= dataShape[d];
  for (int64_t d = 0; d + 1 < q; ++d)
    count *= indexShape[d];
  if (count * block * std::max<int64_t>(rest, 1) > (int64_t(1) << 28))
    return ctx.error() << "the scatter is implausibly large";
  FailureOr<Value> linear = linearIndex(ctx, *indices, dataShape.take_front(k));
  if (failed(linear))
    return failure();
  FailureOr<Value> positions = ramp(ctx, block, 1, 3);
  if (failed(positions))
    return failure();
  FailureOr<Value> hot =
      compareEq(ctx, reshapeTo(ctx, *linear, {count, 1, 1}), *positions);
  if (failed(hot))
    return failure();
  Value flat = reshapeTo(ctx, *data, {block, rest});
  // Sums over the updates are already [block, rest] (counts [block, 1]).
  auto finish = [](Value v, double) { return v; };
  FailureOr<Value> result = combineScatter(
      ctx, flat, *hot, reshapeTo(ctx, *updates, {count, 1, rest}), 0,
      *reduction, finish);
  if (failed(result))
    return failure();
  ctx.setOutput(0, reshapeTo(ctx, *result, dataShape));
  return success();
}

/// ReverseSequence: out[b, t] = x[b, len[b] - 1 - t] for t < len[b], else
/// x[b, t]. The source time index is computed elementwise and picks
/// through a one-hot comparison over a new last axis, as GatherElements
/// does.
LogicalResult convertReverseSequence(ImportContext &ctx) {
  FailureOr<Value> x = ctx.requiredInput(0, "input");
  FailureOr<Value> lengths = ctx.requiredInput(1, "sequence_lens");
  FailureOr<int64_t> batchAttr = ctx.intAttr("batch_axis", 1);
  FailureOr<int64_t> timeAttr = ctx.intAttr("time_axis", 0);
  if (failed(x) || failed(lengths) || failed(batchAttr) || failed(timeAttr))
    return failure();
  ArrayRef<int64_t> shape = shapeOf(*x);
  int64_t rank = shape.size();
  if (rank < 2 || (*batchAttr != 0 && *batchAttr != 1) ||
      (*timeAttr != 0 && *timeAttr != 1) || *batchAttr == *timeAttr)
    return ctx.error() << "input must have rank >= 2 and batch_axis, "
                          "time_axis be 0 and 1 in some order";
  if (elementTypeOf(*x).isInteger(1)) {
    ctx.markUnsupported();
    return ctx.error() << "reversing boolean sequences is not supported";
  }
  int64_t batchAxis = *batchAttr, timeAxis = *timeAttr;
  int64_t batch = shape[batchAxis], steps = shape[timeAxis];
  if (shapeOf(*lengths) != ArrayRef<int64_t>{batch} ||
      !isa<IntegerType>(elementTypeOf(*lengths)))
    return ctx.error() << "sequence_lens must hold one integer per batch "
                          "entry ("
                       << batch << ")";
  // One-hot over time: batch * steps^2 elements (checked without overflow:
  // a dimension of 2^31 - 1 is a valid ONNX shape).
  int64_t work = 0;
  if (batch < 0 || steps < 0 || __builtin_mul_overflow(batch, steps, &work) ||
      __builtin_mul_overflow(work, steps, &work) || work > (int64_t(1) << 28))
    return ctx.error() << "the sequences are implausibly long";
  // [rank + 1] layout: batch and time on their axes, the source index on a
  // new last axis.
  SmallVector<int64_t> lengthShape(rank + 1, 1);
  lengthShape[batchAxis] = batch;
  Value length = reshapeTo(ctx, castTo(ctx, *lengths, i64(ctx)), lengthShape);
  FailureOr<Value> time = ramp(ctx, steps, timeAxis, rank + 1);
  FailureOr<Value> sourcePositions = ramp(ctx, steps, rank, rank + 1);
  if (failed(time) || failed(sourcePositions))
    return failure();
  Value t = *time;
  FailureOr<Value> reversed =
      buildBroadcast<SubOp>(ctx, length, scalarConstant(ctx, i64(ctx), 1));
  if (succeeded(reversed))
    reversed = buildBroadcast<SubOp>(ctx, *reversed, t);
  if (failed(reversed))
    return failure();
  SmallVector<Type> types;
  if (failed(kiln::inferBroadcastElementwise(ctx.loc(), ValueRange{t, length},
                                             ctx.builder().getI1Type(), types)))
    return failure();
  Value inside = ctx.finish(CompareOp::create(
      ctx.builder(), ctx.loc(), types[0], ComparePredicate::lt, t, length));
  FailureOr<Value> source = select(ctx, inside, *reversed, t);
  if (failed(source))
    return failure();
  FailureOr<Value> hot = compareEq(ctx, *source, *sourcePositions);
  if (failed(hot))
    return failure();
  // x with its time axis moved last and a unit dimension in its place.
  SmallVector<int64_t> perm;
  for (int64_t d = 0; d < rank; ++d)
    if (d != timeAxis)
      perm.push_back(d);
  perm.push_back(timeAxis);
  Value moved = transpose(ctx, *x, perm);
  SmallVector<int64_t> spread(shapeOf(moved));
  spread.insert(spread.begin() + timeAxis, 1);
  FailureOr<Value> picked = select(ctx, *hot, reshapeTo(ctx, moved, spread),
                                   scalarConstant(ctx, elementTypeOf(*x), 0));
  if (failed(picked))
    return failure();
  ctx.setOutput(0, reduceSum(ctx, *picked, {rank}, false));
  return success();
}

/// NegativeLogLikelihoodLoss on log-probabilities [N, C, d...] and targets
/// [N, d...]; shared with SoftmaxCrossEntropyLoss.
FailureOr<Value> negativeLogLikelihood(ImportContext &ctx, Value logProb,
                                       Value target, Value weight) {
  FailureOr<std::string> reduction = ctx.stringAttr("reduction", "mean");
  const pb::AttributeProto *ignoreAttr = ctx.attribute("ignore_index");
  FailureOr<int64_t> ignore = ctx.intAttr("ignore_index", 0);
  if (failed(reduction) || failed(ignore))
    return failure();
  ArrayRef<int64_t> shape = shapeOf(logProb);
  int64_t rank = shape.size();
  if (rank < 2 || int64_t(shapeOf(target).size()) != rank - 1)
    return ctx.error() << "expects input [N, C, ...] and target [N, ...]";
  int64_t classes = shape[1];
  Type element = elementTypeOf(logProb);
  Value labels = castTo(ctx, target, i64(ctx));
  Value expanded = reshapeTo(ctx, labels, insertUnit(shapeOf(labels), 1));
  FailureOr<Value> positions = ramp(ctx, classes, 1, rank);
  if (failed(positions))
    return failure();
  FailureOr<Value> hot = compareEq(ctx, *positions, expanded);
  if (failed(hot))
    return failure();
  Value zero = scalarConstant(ctx, element, 0);
  FailureOr<Value> chosen = select(ctx, *hot, logProb, zero);
  if (failed(chosen))
    return failure();
  Value picked = reduceSum(ctx, *chosen, {1}, false);
  // Per-element weight: weight[target] (1 without weights), 0 when ignored.
  Value perElement;
  if (weight) {
    SmallVector<int64_t> channel(rank, 1);
    channel[1] = classes;
    FailureOr<Value> w =
        select(ctx, *hot, reshapeTo(ctx, weight, channel), zero);
    if (failed(w))
      return failure();
    perElement = reduceSum(ctx, *w, {1}, false);
  } else {
    // Without weights every target weighs 1 (unless ignored below).
    auto type = RankedTensorType::get(shapeOf(labels), element);
    perElement = ctx.finish(BroadcastOp::create(
        ctx.builder(), ctx.loc(), type, scalarConstant(ctx, element, 1)));
  }
  if (ignoreAttr) {
    SmallVector<Type> t;
    Value ignored = scalarConstant(ctx, i64(ctx), *ignore);
    (void)kiln::inferBroadcastElementwise(ctx.loc(), ValueRange{labels, ignored},
                                          ctx.builder().getI1Type(), t);
    Value keep = ctx.finish(CompareOp::create(
        ctx.builder(), ctx.loc(), t[0], ComparePredicate::ne, labels, ignored));
    FailureOr<Value> masked = select(ctx, keep, perElement, zero);
    if (failed(masked))
      return failure();
    perElement = *masked;
  }
  FailureOr<Value> weighted = buildBroadcast<MulOp>(ctx, picked, perElement);
  if (failed(weighted))
    return failure();
  Value loss = ctx.finish(
      NegOp::create(ctx.builder(), ctx.loc(), weighted->getType(), *weighted));
  SmallVector<int64_t> all = llvm::to_vector(llvm::seq<int64_t>(0, rank - 1));
  if (*reduction == "none")
    return loss;
  Value total = reduceSum(ctx, loss, all, false);
  if (*reduction == "sum")
    return total;
  if (*reduction != "mean")
    return ctx.error() << "unknown reduction '" << *reduction << "'";
  return buildBroadcast<DivOp>(ctx, total, reduceSum(ctx, perElement, all, false));
}

LogicalResult convertNllLoss(ImportContext &ctx) {
  FailureOr<Value> input = ctx.requiredInput(0, "input");
  FailureOr<Value> target = ctx.requiredInput(1, "target");
  if (failed(input) || failed(target))
    return failure();
  FailureOr<Value> loss =
      negativeLogLikelihood(ctx, *input, *target, ctx.input(2));
  if (failed(loss))
    return failure();
  ctx.setOutput(0, *loss);
  return success();
}

LogicalResult convertSoftmaxCrossEntropy(ImportContext &ctx) {
  FailureOr<Value> scores = ctx.requiredInput(0, "scores");
  FailureOr<Value> labels = ctx.requiredInput(1, "labels");
  if (failed(scores) || failed(labels))
    return failure();
  if (shapeOf(*scores).size() < 2)
    return ctx.error() << "scores must be [N, C, ...]";
  Value logProb = ctx.finish(LogSoftmaxOp::create(
      ctx.builder(), ctx.loc(), scores->getType(), *scores, 1));
  FailureOr<Value> loss =
      negativeLogLikelihood(ctx, logProb, *labels, ctx.input(2));
  if (failed(loss))
    return failure();
  ctx.setOutput(0, *loss);
  ctx.setOutput(1, logProb);
  return success();
}

} // namespace

void registerIndexingConverters(ConverterRegistry &r) {
  r.add("Hardmax", 1, convertHardmax<true>);
  r.add("Hardmax", 13, convertHardmax<false>);
  r.add("OneHot", 9, convertOneHot);
  r.add("GatherElements", 11, convertGatherElements);
  r.add("GatherND", 11, convertGatherND);
  r.add("Scatter", 9, convertScatterElements);
  r.add("ScatterElements", 11, convertScatterElements);
  r.add("ScatterND", 11, convertScatterND);
  r.add("ReverseSequence", 10, convertReverseSequence);
  r.add("CumSum", 11, convertCumSum);
  r.add("NegativeLogLikelihoodLoss", 12, convertNllLoss);
  r.add("SoftmaxCrossEntropyLoss", 12, convertSoftmaxCrossEntropy);
}

} // namespace kiln::onnx
