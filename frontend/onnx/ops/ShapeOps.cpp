//===- ShapeOps.cpp - ONNX data movement and constants -> kiln ------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Shape-like inputs (Reshape's shape, Slice's bounds, axes from opset 13...)
// must be constants: Kiln compiles static shapes. Because converters fold
// as they build, an exporter's Shape -> Gather -> Concat chain is a
// constant by the time a Reshape reads it.
//
//===----------------------------------------------------------------------===//

#include "frontend/onnx/ops/Common.h"
#include "frontend/onnx/TensorImport.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;

namespace kiln::onnx {

namespace {

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

LogicalResult convertConstant(ImportContext &ctx) {
  const pb::NodeProto &node = ctx.node();
  if (node.attribute_size() != 1)
    return ctx.error() << "expects exactly one value attribute";
  const pb::AttributeProto &attr = node.attribute(0);
  Builder b(ctx.context());
  DenseElementsAttr value;
  if (attr.name() == "value") {
    if (attr.type() != pb::AttributeProto::TENSOR || !attr.has_t())
      return ctx.error() << "attribute 'value' must be a tensor";
    FailureOr<DenseElementsAttr> tensor =
        importTensor(attr.t(), ctx.context(), ctx.modelFolder(), ctx.loc());
    if (failed(tensor)) {
      if (isUnsupportedOnnxType(attr.t().data_type()))
        ctx.markUnsupported();
      return failure();
    }
    value = *tensor;
  } else if (attr.name() == "value_float") {
    value = DenseElementsAttr::get(RankedTensorType::get({}, b.getF32Type()),
                                   attr.f());
  } else if (attr.name() == "value_int") {
    value = DenseElementsAttr::get(RankedTensorType::get({}, b.getI64Type()),
                                   int64_t(attr.i()));
  } else if (attr.name() == "value_floats") {
    SmallVector<float> values(attr.floats().begin(), attr.floats().end());
    value = DenseElementsAttr::get(
        RankedTensorType::get({int64_t(values.size())}, b.getF32Type()),
        ArrayRef<float>(values));
  } else if (attr.name() == "value_ints") {
    SmallVector<int64_t> values(attr.ints().begin(), attr.ints().end());
    value = DenseElementsAttr::get(
        RankedTensorType::get({int64_t(values.size())}, b.getI64Type()),
        ArrayRef<int64_t>(values));
  } else if (attr.name() == "sparse_value" || attr.name() == "value_string" ||
             attr.name() == "value_strings") {
    ctx.markUnsupported();
    return ctx.error() << "constant attribute '" << attr.name()
                       << "' is not supported (strings and sparse tensors)";
  } else {
    return ctx.error() << "unknown constant attribute '" << attr.name() << "'";
  }
  ctx.setOutput(0, ctx.constant(value));
  return success();
}

LogicalResult convertConstantOfShape(ImportContext &ctx) {
  FailureOr<SmallVector<int64_t>> shape = ctx.constantInts(0, "input");
  if (failed(shape))
    return failure();
  for (int64_t dim : *shape)
    if (dim < 0)
      return ctx.error() << "shape has a negative dimension " << dim;
  if (!checkedElementCount(*shape) || *checkedElementCount(*shape) > (1 << 30))
    return ctx.error() << "shape is implausibly large";
  Builder b(ctx.context());
  Attribute element = b.getF32FloatAttr(0.0f);
  if (const pb::AttributeProto *attr = ctx.attribute("value")) {
    if (attr->type() != pb::AttributeProto::TENSOR || !attr->has_t())
      return ctx.error() << "attribute 'value' must be a tensor";
    FailureOr<DenseElementsAttr> tensor =
        importTensor(attr->t(), ctx.context(), ctx.modelFolder(), ctx.loc());
    if (failed(tensor))
      return failure();
    if (tensor->getNumElements() != 1)
      return ctx.error() << "value must hold one element";
    element = *tensor->getValues<Attribute>().begin();
  }
  auto type = RankedTensorType::get(*shape, cast<TypedAttr>(element).getType());
  ctx.setOutput(0, ctx.constant(DenseElementsAttr::get(type, element)));
  return success();
}

/// EyeLike depends only on its input's (static) shape: a constant with ones
/// on diagonal k, of type `dtype` (default: the input's).
LogicalResult convertEyeLike(ImportContext &ctx) {
  FailureOr<Value> x = ctx.requiredInput(0, "input");
  FailureOr<int64_t> k = ctx.intAttr("k", 0);
  if (failed(x) || failed(k))
    return failure();
  ArrayRef<int64_t> shape = shapeOf(*x);
  if (shape.size() != 2)
    return ctx.error() << "input must have rank 2";
  if (shape[0] * shape[1] > (int64_t(1) << 26))
    return ctx.error() << "the matrix is implausibly large";
  Type element = elementTypeOf(*x);
  if (ctx.attribute("dtype")) {
    FailureOr<int64_t> dtype = ctx.intAttr("dtype", 0);
    if (failed(dtype))
      return failure();
    if (*dtype <= 0 || *dtype > 1000)
      return ctx.error() << "invalid dtype " << *dtype;
    element = importElementType(ctx.context(), int32_t(*dtype), ctx.loc());
    if (!element) {
      if (isUnsupportedOnnxType(int32_t(*dtype)))
        ctx.markUnsupported();
      return failure();
    }
  }
  SmallVector<Attribute> entries;
  for (int64_t i = 0; i < shape[0]; ++i)
    for (int64_t j = 0; j < shape[1]; ++j) {
      bool one = j - i == *k;
      entries.push_back(isa<FloatType>(element)
                            ? Attribute(FloatAttr::get(element, one))
                            : Attribute(IntegerAttr::get(element, one)));
    }
  ctx.setOutput(0, ctx.constant(DenseElementsAttr::get(
                       RankedTensorType::get(shape, element), entries)));
  return success();
}

LogicalResult convertShape(ImportContext &ctx) {
  FailureOr<Value> x = ctx.requiredInput(0, "data");
  FailureOr<int64_t> start = ctx.intAttr("start", 0);
  FailureOr<int64_t> end = ctx.intAttr("end", INT64_MAX);
  if (failed(x) || failed(start) || failed(end))
    return failure();
  SmallVector<int64_t> shape(shapeOf(*x));
  int64_t rank = shape.size();
  auto clampIndex = [rank](int64_t i) {
    if (i < 0)
      i += rank;
    return std::clamp<int64_t>(i, 0, rank);
  };
  int64_t from = clampIndex(*start), to = clampIndex(*end);
  ArrayRef<int64_t> dims =
      to > from ? ArrayRef<int64_t>(shape).slice(from, to - from)
                : ArrayRef<int64_t>();
  ctx.setOutput(0, i64Constant(ctx, {int64_t(dims.size())}, dims));
  return success();
}

LogicalResult convertSize(ImportContext &ctx) {
  FailureOr<Value> x = ctx.requiredInput(0, "data");
  if (failed(x))
    return failure();
  int64_t count = cast<RankedTensorType>(x->getType()).getNumElements();
  ctx.setOutput(0, i64Constant(ctx, {}, {count}));
  return success();
}

LogicalResult convertRange(ImportContext &ctx) {
  SmallVector<DenseElementsAttr> operands;
  for (int i = 0; i < 3; ++i) {
    FailureOr<DenseElementsAttr> operand =
        ctx.constantInput(i, i == 0 ? "start" : i == 1 ? "limit" : "delta");
    if (failed(operand))
      return failure();
    if (operand->getNumElements() != 1)
      return ctx.error() << "start, limit and delta must be scalars";
    operands.push_back(*operand);
  }
  Type element = operands[0].getElementType();
  auto scalar = [](DenseElementsAttr attr) {
    return isa<FloatType>(attr.getElementType())
               ? (*attr.getValues<APFloat>().begin()).convertToDouble()
               : double((*attr.getValues<APInt>().begin()).getSExtValue());
  };
  double start = scalar(operands[0]), limit = scalar(operands[1]),
         delta = scalar(operands[2]);
  if (delta == 0)
    return ctx.error() << "delta must not be zero";
  double steps = std::ceil((limit - start) / delta);
  // Checked in double before converting: a NaN or huge count is an error,
  // never an undefined conversion.
  constexpr double kMaxRange = 1 << 20;
  if (!std::isfinite(steps) || steps > kMaxRange)
    return ctx.error() << "the range has too many elements (at most "
                       << int64_t(kMaxRange) << ")";
  int64_t count = steps > 0 ? int64_t(steps) : 0;
  auto type = RankedTensorType::get({count}, element);
  if (isa<FloatType>(element)) {
    SmallVector<APFloat> values;
    for (int64_t i = 0; i < count; ++i) {
      APFloat v(start + double(i) * delta);
      bool lost;
      v.convert(cast<FloatType>(element).getFloatSemantics(),
                APFloat::rmNearestTiesToEven, &lost);
      values.push_back(v);
    }
    ctx.setOutput(0, ctx.constant(DenseElementsAttr::get(type, values)));
  } else {
    unsigned width = element.getIntOrFloatBitWidth();
    SmallVector<APInt> values;
    for (int64_t i = 0; i < count; ++i)
      values.push_back(APInt(width, uint64_t(int64_t(start + double(i) * delta)),
                             /*isSigned=*/true, /*implicitTrunc=*/true));
    ctx.setOutput(0, ctx.constant(DenseElementsAttr::get(type, values)));
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Reshapes
//===----------------------------------------------------------------------===//

LogicalResult convertReshape(ImportContext &ctx) {
  FailureOr<Value> x = ctx.requiredInput(0, "data");
  FailureOr<SmallVector<int64_t>> requested = ctx.constantInts(1, "shape");
  FailureOr<int64_t> allowZero = ctx.intAttr("allowzero", 0);
  if (failed(x) || failed(requested) || failed(allowZero))
    return failure();
  ArrayRef<int64_t> input = shapeOf(*x);
  std::optional<int64_t> total = checkedElementCount(input);
  SmallVector<int64_t> shape;
  int64_t inferred = -1, known = 1;
  for (auto [i, dim] : llvm::enumerate(*requested)) {
    if (dim == 0 && !*allowZero) {
      if (i >= input.size())
        return ctx.error() << "shape copies dimension " << i
                           << ", which the input does not have";
      dim = input[i];
    }
    if (dim == -1) {
      if (inferred >= 0)
        return ctx.error() << "shape has more than one -1";
      inferred = int64_t(i);
      shape.push_back(1);
      continue;
    }
    if (dim < 0)
      return ctx.error() << "shape has a negative dimension " << dim;
    if (llvm::MulOverflow(known, dim, known))
      return ctx.error() << "shape is implausibly large";
    shape.push_back(dim);
  }
  if (inferred >= 0) {
    if (known == 0 || *total % known != 0)
      return ctx.error() << "cannot infer the -1 dimension: "
                         << *total << " elements do not divide into " << known;
    shape[inferred] = *total / known;
  }
  if (checkedElementCount(shape) != total)
    return ctx.error() << "cannot reshape " << *total << " elements into "
                       << "the requested shape";
  ctx.setOutput(0, reshapeTo(ctx, *x, shape));
  return success();
}

LogicalResult convertFlatten(ImportContext &ctx) {
  FailureOr<Value> x = ctx.requiredInput(0, "input");
  FailureOr<int64_t> axisAttr = ctx.intAttr("axis", 1);
  if (failed(x) || failed(axisAttr))
    return failure();
  ArrayRef<int64_t> shape = shapeOf(*x);
  int64_t rank = shape.size(), axis = *axisAttr < 0 ? *axisAttr + rank : *axisAttr;
  if (axis < 0 || axis > rank)
    return ctx.error() << "axis " << *axisAttr << " is out of range";
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < rank; ++d)
    (d < axis ? outer : inner) *= shape[d];
  ctx.setOutput(0, reshapeTo(ctx, *x, {outer, inner}));
  return success();
}

/// Squeeze/Unsqueeze axes: attribute before opset 13, input from 13.
FailureOr<std::optional<SmallVector<int64_t>>> readAxesOperand(ImportContext &ctx) {
  if (ctx.opset() >= 13) {
    if (!ctx.input(1))
      return std::optional<SmallVector<int64_t>>();
    FailureOr<SmallVector<int64_t>> axes = ctx.constantInts(1, "axes");
    if (failed(axes))
      return failure();
    return std::optional<SmallVector<int64_t>>(*axes);
  }
  return ctx.intsAttr("axes");
}

LogicalResult convertSqueeze(ImportContext &ctx) {
  FailureOr<Value> x = ctx.requiredInput(0, "data");
  auto axes = readAxesOperand(ctx);
  if (failed(x) || failed(axes))
    return failure();
  ArrayRef<int64_t> shape = shapeOf(*x);
  SmallVector<bool> drop(shape.size(), false);
  if (axes->has_value()) {
    for (int64_t axis : **axes) {
      FailureOr<int64_t> d = normalizeAxisAt(ctx, axis, shape.size());
      if (failed(d))
        return failure();
      if (shape[*d] != 1)
        return ctx.error() << "cannot squeeze dimension " << *d << " of size "
                           << shape[*d];
      drop[*d] = true;
    }
  } else {
    for (size_t d = 0; d < shape.size(); ++d)
      drop[d] = shape[d] == 1;
  }
  SmallVector<int64_t> result;
  for (size_t d = 0; d < shape.size(); ++d)
    if (!drop[d])
      result.push_back(shape[d]);
  ctx.setOutput(0, reshapeTo(ctx, *x, result));
  return success();
}

LogicalResult convertUnsqueeze(ImportContext &ctx) {
  FailureOr<Value> x = ctx.requiredInput(0, "data");
  auto axes = readAxesOperand(ctx);
  if (failed(x) || failed(axes))
    return failure();
  if (!axes->has_value())
    return ctx.error() << "missing axes";
  ArrayRef<int64_t> shape = shapeOf(*x);
  int64_t rank = shape.size() + (*axes)->size();
  SmallVector<bool> inserted(rank, false);
  for (int64_t axis : **axes) {
    FailureOr<int64_t> d = normalizeAxisAt(ctx, axis, rank);
    if (failed(d))
      return failure();
    if (inserted[*d])
      return ctx.error() << "axis " << axis << " is listed twice";
    inserted[*d] = true;
  }
  SmallVector<int64_t> result;
  size_t next = 0;
  for (int64_t d = 0; d < rank; ++d)
    result.push_back(inserted[d] ? 1 : shape[next++]);
  ctx.setOutput(0, reshapeTo(ctx, *x, result));
  return success();
}

//===----------------------------------------------------------------------===//
// Permutation, joining, slicing
//===----------------------------------------------------------------------===//

LogicalResult convertTranspose(ImportContext &ctx) {
  FailureOr<Value> x = ctx.requiredInput(0, "data");
  auto perm = ctx.intsAttr("perm");
  if (failed(x) || failed(perm))
    return failure();
  int64_t rank = shapeOf(*x).size();
  SmallVector<int64_t> permutation =
      perm->value_or(llvm::to_vector(llvm::reverse(llvm::seq<int64_t>(0, rank))));
  SmallVector<Type> types;
  if (failed(kiln::inferTranspose(ctx.loc(), x->getType(), permutation, types)))
    return failure();
  ctx.setOutput(0, ctx.finish(TransposeOp::create(ctx.builder(), ctx.loc(),
                                                  types[0], *x, permutation)));
  return success();
}

LogicalResult convertConcat(ImportContext &ctx) {
  FailureOr<int64_t> axis = ctx.intAttr("axis", INT64_MIN);
  if (failed(axis))
    return failure();
  if (*axis == INT64_MIN)
    return ctx.error() << "missing attribute 'axis'";
  SmallVector<Value> inputs;
  for (int i = 0; i < ctx.numInputs(); ++i) {
    FailureOr<Value> input = ctx.requiredInput(i, "inputs");
    if (failed(input))
      return failure();
    inputs.push_back(*input);
  }
  if (inputs.empty())
    return ctx.error() << "needs at least one input";
  SmallVector<Type> types;
  if (failed(kiln::inferConcat(ctx.loc(), ValueRange(inputs).getTypes(), *axis,
                               types)))
    return failure();
  ctx.setOutput(0, ctx.finish(ConcatOp::create(ctx.builder(), ctx.loc(),
                                               types[0], inputs, *axis)));
  return success();
}

LogicalResult convertSplit(ImportContext &ctx) {
  FailureOr<Value> x = ctx.requiredInput(0, "input");
  FailureOr<int64_t> axisAttr = ctx.intAttr("axis", 0);
  if (failed(x) || failed(axisAttr))
    return failure();
  ArrayRef<int64_t> shape = shapeOf(*x);
  FailureOr<int64_t> axis = normalizeAxisAt(ctx, *axisAttr, shape.size());
  if (failed(axis))
    return failure();
  int outputs = ctx.node().output_size();
  if (outputs == 0)
    return ctx.error() << "has no outputs";
  SmallVector<int64_t> sizes;
  if (ctx.opset() >= 13 && ctx.input(1)) {
    FailureOr<SmallVector<int64_t>> split = ctx.constantInts(1, "split");
    if (failed(split))
      return failure();
    sizes = *split;
  } else if (ctx.opset() < 13) {
    auto attr = ctx.intsAttr("split");
    if (failed(attr))
      return failure();
    if (attr->has_value())
      sizes = **attr;
  }
  if (sizes.empty()) {
    if (shape[*axis] % outputs != 0)
      return ctx.error() << "cannot split size " << shape[*axis]
                         << " evenly into " << outputs << " outputs";
    sizes.assign(outputs, shape[*axis] / outputs);
  }
  if (int(sizes.size()) != outputs)
    return ctx.error() << "split has " << sizes.size() << " sizes for "
                       << outputs << " outputs";
  SmallVector<Type> types;
  int64_t total = 0;
  for (int64_t size : sizes) {
    if (size < 0 || llvm::AddOverflow(total, size, total))
      return ctx.error() << "bad split size " << size;
    SmallVector<int64_t> piece(shape);
    piece[*axis] = size;
    types.push_back(RankedTensorType::get(piece, elementTypeOf(*x)));
  }
  if (total != shape[*axis])
    return ctx.error() << "split sizes add up to " << total
                       << ", the axis has " << shape[*axis];
  auto op = SplitOp::create(ctx.builder(), ctx.loc(), types, *x, *axis);
  for (int i = 0; i < outputs; ++i)
    ctx.setOutput(i, op.getResult(i));
  return success();
}

/// ONNX Slice bounds normalised to kiln.slice's (Python semantics with
/// clamping).
void normalizeSliceBounds(int64_t size, int64_t step, int64_t &start,
                          int64_t &end) {
  auto wrap = [size](int64_t v) { return v < 0 ? (v < -size ? -1 - size : v) + size : v; };
  start = wrap(start);
  end = wrap(end);
  if (step > 0) {
    start = std::clamp<int64_t>(start, 0, size);
    end = std::clamp<int64_t>(end, 0, size);
    end = std::max(end, start);
  } else {
    start = std::clamp<int64_t>(start, -1, size - 1);
    end = std::clamp<int64_t>(end, -1, size - 1);
    end = std::min(end, start);
  }
}

LogicalResult convertSlice(ImportContext &ctx) {
  FailureOr<Value> x = ctx.requiredInput(0, "data");
  if (failed(x))
    return failure();
  ArrayRef<int64_t> shape = shapeOf(*x);
  int64_t rank = shape.size();
  SmallVector<int64_t> starts, ends, axes, steps;
  if (ctx.opset() < 10) {
    auto s = ctx.intsAttr("starts"), e = ctx.intsAttr("ends"),
         a = ctx.intsAttr("axes");
    if (failed(s) || failed(e) || failed(a))
      return failure();
    if (!s->has_value() || !e->has_value())
      return ctx.error() << "missing 'starts' or 'ends'";
    starts = **s;
    ends = **e;
    if (a->has_value())
      axes = **a;
  } else {
    auto s = ctx.constantInts(1, "starts"), e = ctx.constantInts(2, "ends");
    if (failed(s) || failed(e))
      return failure();
    starts = *s;
    ends = *e;
    if (ctx.input(3)) {
      auto a = ctx.constantInts(3, "axes");
      if (failed(a))
        return failure();
      axes = *a;
    }
    if (ctx.input(4)) {
      auto st = ctx.constantInts(4, "steps");
      if (failed(st))
        return failure();
      steps = *st;
    }
  }
  if (axes.empty())
    axes = llvm::to_vector(llvm::seq<int64_t>(0, starts.size()));
  if (steps.empty())
    steps.assign(starts.size(), 1);
  if (starts.size() != ends.size() || starts.size() != axes.size() ||
      starts.size() != steps.size())
    return ctx.error() << "starts, ends, axes and steps differ in length";
  SmallVector<int64_t> lo(rank, 0), hi(shape), st(rank, 1);
  SmallVector<bool> seen(rank, false);
  for (size_t i = 0; i < starts.size(); ++i) {
    FailureOr<int64_t> d = normalizeAxisAt(ctx, axes[i], rank);
    if (failed(d))
      return failure();
    if (seen[*d])
      return ctx.error() << "axis " << axes[i] << " is sliced twice";
    seen[*d] = true;
    if (steps[i] == 0)
      return ctx.error() << "step of axis " << axes[i] << " is zero";
    int64_t start = starts[i], end = ends[i];
    normalizeSliceBounds(shape[*d], steps[i], start, end);
    lo[*d] = start;
    hi[*d] = end;
    st[*d] = steps[i];
  }
  SmallVector<Type> types;
  if (failed(kiln::inferSlice(ctx.loc(), x->getType(), lo, hi, st, types)))
    return failure();
  ctx.setOutput(0, ctx.finish(SliceOp::create(ctx.builder(), ctx.loc(),
                                              types[0], *x, lo, hi, st)));
  return success();
}

LogicalResult convertGather(ImportContext &ctx) {
  FailureOr<Value> x = ctx.requiredInput(0, "data");
  FailureOr<Value> indices = ctx.requiredInput(1, "indices");
  FailureOr<int64_t> axis = ctx.intAttr("axis", 0);
  if (failed(x) || failed(indices) || failed(axis))
    return failure();
  SmallVector<Type> types;
  if (failed(kiln::inferGather(ctx.loc(), x->getType(), indices->getType(),
                               *axis, types)))
    return failure();
  if (!isa<IntegerType>(elementTypeOf(*indices)))
    return ctx.error() << "indices must be integers";
  // Constant indices are checked here: out of range is a model error.
  DenseElementsAttr constant;
  if (matchPattern(*indices, m_Constant(&constant))) {
    int64_t size = shapeOf(*x)[*normalizeAxis(*axis, shapeOf(*x).size())];
    for (const APInt &v : constant.getValues<APInt>())
      if (v.getSExtValue() < -size || v.getSExtValue() >= size)
        return ctx.error() << "index " << v.getSExtValue()
                           << " is out of range for an axis of size " << size;
  }
  ctx.setOutput(0, ctx.finish(GatherOp::create(ctx.builder(), ctx.loc(),
                                               types[0], *x, *indices, *axis)));
  return success();
}

LogicalResult convertExpand(ImportContext &ctx) {
  FailureOr<Value> x = ctx.requiredInput(0, "input");
  FailureOr<SmallVector<int64_t>> requested = ctx.constantInts(1, "shape");
  if (failed(x) || failed(requested))
    return failure();
  for (int64_t dim : *requested)
    if (dim < 0)
      return ctx.error() << "shape has a negative dimension " << dim;
  // Expand broadcasts both ways: the result is broadcast(input, shape).
  std::optional<SmallVector<int64_t>> shape =
      broadcastShapes(shapeOf(*x), *requested);
  if (!shape)
    return ctx.error() << "cannot expand the input to the requested shape";
  auto type = RankedTensorType::get(*shape, elementTypeOf(*x));
  ctx.setOutput(0, ctx.finish(
                       BroadcastOp::create(ctx.builder(), ctx.loc(), type, *x)));
  return success();
}

LogicalResult convertTile(ImportContext &ctx) {
  FailureOr<Value> x = ctx.requiredInput(0, "input");
  FailureOr<SmallVector<int64_t>> repeats = ctx.constantInts(1, "repeats");
  if (failed(x) || failed(repeats))
    return failure();
  ArrayRef<int64_t> shape = shapeOf(*x);
  if (repeats->size() != shape.size())
    return ctx.error() << "repeats must have one value per dimension";
  // [d0, d1] -> [1, d0, 1, d1] -> broadcast [r0, d0, r1, d1] -> [r0*d0, r1*d1]
  SmallVector<int64_t> interleaved, broadcast, result;
  for (auto [dim, repeat] : llvm::zip(shape, *repeats)) {
    if (repeat < 0)
      return ctx.error() << "repeats must be non-negative";
    int64_t tiled;
    if (llvm::MulOverflow(repeat, dim, tiled))
      return ctx.error() << "the tiled tensor is implausibly large";
    interleaved.append({1, dim});
    broadcast.append({repeat, dim});
    result.push_back(tiled);
  }
  if (!checkedElementCount(broadcast) ||
      *checkedElementCount(broadcast) > (int64_t(1) << 32))
    return ctx.error() << "the tiled tensor is implausibly large";
  Value spread = reshapeTo(ctx, *x, interleaved);
  auto type = RankedTensorType::get(broadcast, elementTypeOf(*x));
  Value tiled =
      ctx.finish(BroadcastOp::create(ctx.builder(), ctx.loc(), type, spread));
  ctx.setOutput(0, reshapeTo(ctx, tiled, result));
  return success();
}

LogicalResult convertPad(ImportContext &ctx) {
  FailureOr<Value> x = ctx.requiredInput(0, "data");
  FailureOr<std::string> modeName = ctx.stringAttr("mode", "constant");
  if (failed(x) || failed(modeName))
    return failure();
  int64_t rank = shapeOf(*x).size();
  SmallVector<int64_t> pads;
  double value = 0.0;
  if (ctx.opset() < 11) {
    auto attr = ctx.intsAttr("pads");
    FailureOr<float> v = ctx.floatAttr("value", 0.0f);
    if (failed(attr) || failed(v))
      return failure();
    if (!attr->has_value())
      return ctx.error() << "missing attribute 'pads'";
    pads = **attr;
    value = *v;
  } else {
    FailureOr<SmallVector<int64_t>> p = ctx.constantInts(1, "pads");
    if (failed(p))
      return failure();
    pads = *p;
    if (ctx.input(2)) {
      FailureOr<DenseElementsAttr> v = ctx.constantInput(2, "constant_value");
      if (failed(v))
        return failure();
      if (v->getNumElements() != 1)
        return ctx.error() << "constant_value must be a scalar";
      value = isa<FloatType>(v->getElementType())
                  ? (*v->getValues<APFloat>().begin()).convertToDouble()
                  : double((*v->getValues<APInt>().begin()).getSExtValue());
    }
  }
  if (int64_t(pads.size()) != 2 * rank)
    return ctx.error() << "pads must have 2 x rank = " << 2 * rank
                       << " values, got " << pads.size();
  PadMode mode;
  if (*modeName == "constant")
    mode = PadMode::constant;
  else if (*modeName == "reflect")
    mode = PadMode::reflect;
  else if (*modeName == "edge")
    mode = PadMode::edge;
  else
    return ctx.error() << "unknown pad mode '" << *modeName << "'";
  // Negative pads crop: slice them off first, then pad the positive part.
  Value input = *x;
  ArrayRef<int64_t> shape = shapeOf(input);
  SmallVector<int64_t> starts(rank, 0), limits(shape), steps(rank, 1), low(rank),
      high(rank);
  bool crop = false;
  for (int64_t d = 0; d < rank; ++d) {
    // A crop larger than the dimension (or INT64_MIN, which cannot even be
    // negated) is malformed.
    if (pads[d] < -shape[d] || pads[rank + d] < -shape[d] ||
        (pads[d] < 0 && pads[rank + d] < 0 &&
         pads[d] + pads[rank + d] < -shape[d]))
      return ctx.error() << "pads of dimension " << d
                         << " crop more than its " << shape[d] << " elements";
    if (pads[d] < 0) {
      starts[d] = -pads[d];
      crop = true;
    }
    if (pads[rank + d] < 0) {
      limits[d] = shape[d] + pads[rank + d];
      crop = true;
    }
    low[d] = std::max<int64_t>(pads[d], 0);
    high[d] = std::max<int64_t>(pads[rank + d], 0);
  }
  if (crop) {
    SmallVector<Type> types;
    if (failed(kiln::inferSlice(ctx.loc(), input.getType(), starts, limits,
                                steps, types)))
      return failure();
    input = ctx.finish(SliceOp::create(ctx.builder(), ctx.loc(), types[0],
                                       input, starts, limits, steps));
  }
  SmallVector<Type> types;
  if (failed(kiln::inferPad(ctx.loc(), input.getType(), low, high, mode, types)))
    return failure();
  ctx.setOutput(0, ctx.finish(PadOp::create(ctx.builder(), ctx.loc(), types[0],
                                            input, low, high, mode,
                                            APFloat(value))));
  return success();
}

/// Trilu keeps the upper (or lower) triangle of the last two dimensions,
/// shifted by k: a select with a triangular mask. With a constant k the mask
/// is a constant (which folds away when the input is constant, as for
/// exporters' causal masks); with k known only at run time it is a
/// comparison of the constant diagonal offsets j - i against k.
LogicalResult convertTrilu(ImportContext &ctx) {
  FailureOr<Value> x = ctx.requiredInput(0, "input");
  FailureOr<int64_t> upper = ctx.intAttr("upper", 1);
  if (failed(x) || failed(upper))
    return failure();
  ArrayRef<int64_t> shape = shapeOf(*x);
  if (shape.size() < 2)
    return ctx.error() << "input must have rank >= 2";
  int64_t rows = shape[shape.size() - 2], cols = shape.back();
  if (rows * cols > (int64_t(1) << 26))
    return ctx.error() << "the triangle is implausibly large";
  Value kInput = ctx.input(1);
  if (kInput && !isa<IntegerType>(elementTypeOf(kInput)))
    return ctx.error() << "k must be an integer";
  if (kInput && cast<RankedTensorType>(kInput.getType()).getNumElements() != 1)
    return ctx.error() << "k must be a scalar";
  Value mask;
  if (kInput && !matchPattern(kInput, m_Constant())) {
    SmallVector<int64_t> offsets;
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j)
        offsets.push_back(j - i);
    Type i64 = ctx.builder().getI64Type();
    Value offset = ctx.constant(DenseElementsAttr::get(
        RankedTensorType::get({rows, cols}, i64), ArrayRef<int64_t>(offsets)));
    Value k = reshapeTo(ctx, castTo(ctx, kInput, i64), {});
    SmallVector<Type> types;
    if (failed(kiln::inferBroadcastElementwise(ctx.loc(), ValueRange{offset, k},
                                               ctx.builder().getI1Type(),
                                               types)))
      return failure();
    mask = ctx.finish(CompareOp::create(
        ctx.builder(), ctx.loc(), types[0],
        *upper ? ComparePredicate::ge : ComparePredicate::le, offset, k));
  } else {
    int64_t k = 0;
    if (kInput) {
      FailureOr<SmallVector<int64_t>> values = ctx.constantInts(1, "k");
      if (failed(values))
        return failure();
      k = (*values)[0];
    }
    SmallVector<bool> keep;
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j)
        keep.push_back(*upper ? j - i >= k : j - i <= k);
    auto maskType =
        RankedTensorType::get({rows, cols}, ctx.builder().getI1Type());
    mask = ctx.constant(DenseElementsAttr::get(maskType, ArrayRef<bool>(keep)));
  }
  Value zero = scalarConstant(ctx, elementTypeOf(*x), 0.0);
  SmallVector<Type> types;
  if (failed(kiln::inferSelect(ctx.loc(), mask.getType(), x->getType(),
                               zero.getType(), types)))
    return failure();
  ctx.setOutput(0, ctx.finish(SelectOp::create(ctx.builder(), ctx.loc(),
                                               types[0], mask, *x, zero)));
  return success();
}

} // namespace

void registerShapeConverters(ConverterRegistry &r) {
  r.add("Trilu", 14, convertTrilu);
  r.add("Constant", 1, convertConstant);
  r.add("ConstantOfShape", 9, convertConstantOfShape);
  r.add("EyeLike", 9, convertEyeLike);
  r.add("Shape", 1, convertShape);
  r.add("Size", 1, convertSize);
  r.add("Range", 11, convertRange);
  r.add("Reshape", 5, convertReshape);
  r.add("Flatten", 1, convertFlatten);
  r.add("Squeeze", 1, convertSqueeze);
  r.add("Unsqueeze", 1, convertUnsqueeze);
  r.add("Transpose", 1, convertTranspose);
  r.add("Concat", 4, convertConcat);
  r.add("Split", 2, convertSplit);
  r.add("Slice", 1, convertSlice);
  r.add("Gather", 1, convertGather);
  r.add("Expand", 8, convertExpand);
  r.add("Tile", 6, convertTile);
  r.add("Pad", 2, convertPad);
}

} // namespace kiln::onnx
