//===- SequenceOps.cpp - ONNX sequences, resolved at import ---------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// SequenceEmpty, SequenceConstruct, SequenceInsert, SequenceErase,
// SequenceAt, SequenceLength, SplitToSequence and ConcatFromSequence on
// sequences that live inside the graph. A sequence is the list of its
// tensors (ImportContext's Sequence): its length and the positions that
// index it are compile-time values, so every one of these ops becomes
// nothing, a slice or a concatenation. Sequences as graph inputs or outputs
// are refused (exit 3).
//
//===----------------------------------------------------------------------===//

#include "frontend/onnx/TensorImport.h"
#include "frontend/onnx/ops/Common.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;

namespace kiln::onnx {

namespace {

/// Position input `i` as an index into a sequence of `length`: one integer,
/// negative counting from the end, in [-length, length) (or up to length
/// inclusive with `end`, where SequenceInsert appends). Absent: `fallback`.
FailureOr<int64_t> positionOf(ImportContext &ctx, int i, int64_t length,
                              bool end, int64_t fallback) {
  if (!ctx.input(i))
    return fallback;
  FailureOr<SmallVector<int64_t>> values = ctx.constantInts(i, "position");
  if (failed(values))
    return failure();
  if (values->size() != 1)
    return ctx.error() << "position must be one integer, it has "
                       << values->size() << " elements";
  int64_t position = (*values)[0];
  int64_t limit = end ? length + 1 : length;
  if (position < -length || position >= limit)
    return ctx.error() << "position " << position
                       << " is out of range for a sequence of " << length
                       << " tensor(s)";
  return position < 0 ? position + length : position;
}

/// Checks that `tensor` may join a sequence of `element`s.
LogicalResult checkElement(ImportContext &ctx, Value tensor, Type element) {
  if (element && elementTypeOf(tensor) != element)
    return ctx.error() << "the tensor's element type " << elementTypeOf(tensor)
                       << " differs from the sequence's " << element;
  return success();
}

LogicalResult convertSequenceEmpty(ImportContext &ctx) {
  FailureOr<int64_t> dtype = ctx.intAttr("dtype", 1);
  if (failed(dtype))
    return failure();
  Type element = importElementType(ctx.context(), int32_t(*dtype), ctx.loc());
  if (!element) {
    if (isUnsupportedOnnxType(int32_t(*dtype)))
      ctx.markUnsupported();
    return failure();
  }
  ctx.setSequenceOutput(0, Sequence{{}, element});
  return success();
}

LogicalResult convertSequenceConstruct(ImportContext &ctx) {
  Sequence sequence;
  for (int i = 0; i < ctx.numInputs(); ++i) {
    FailureOr<Value> tensor = ctx.requiredInput(i, "inputs");
    if (failed(tensor) || failed(checkElement(ctx, *tensor, sequence.element)))
      return failure();
    sequence.element = elementTypeOf(*tensor);
    sequence.tensors.push_back(*tensor);
  }
  if (sequence.tensors.empty())
    return ctx.error() << "SequenceConstruct needs at least one tensor";
  ctx.setSequenceOutput(0, std::move(sequence));
  return success();
}

LogicalResult convertSequenceInsert(ImportContext &ctx) {
  FailureOr<const Sequence *> input = ctx.sequenceInput(0, "input_sequence");
  FailureOr<Value> tensor = ctx.requiredInput(1, "tensor");
  if (failed(input) || failed(tensor) ||
      failed(checkElement(ctx, *tensor, (*input)->element)))
    return failure();
  int64_t length = (*input)->tensors.size();
  FailureOr<int64_t> position = positionOf(ctx, 2, length, true, length);
  if (failed(position))
    return failure();
  Sequence result = **input;
  result.tensors.insert(result.tensors.begin() + *position, *tensor);
  result.element = elementTypeOf(*tensor);
  ctx.setSequenceOutput(0, std::move(result));
  return success();
}

LogicalResult convertSequenceErase(ImportContext &ctx) {
  FailureOr<const Sequence *> input = ctx.sequenceInput(0, "input_sequence");
  if (failed(input))
    return failure();
  int64_t length = (*input)->tensors.size();
  if (length == 0)
    return ctx.error() << "cannot erase from an empty sequence";
  FailureOr<int64_t> position = positionOf(ctx, 1, length, false, length - 1);
  if (failed(position))
    return failure();
  Sequence result = **input;
  result.tensors.erase(result.tensors.begin() + *position);
  ctx.setSequenceOutput(0, std::move(result));
  return success();
}

LogicalResult convertSequenceAt(ImportContext &ctx) {
  FailureOr<const Sequence *> input = ctx.sequenceInput(0, "input_sequence");
  if (failed(input))
    return failure();
  if (!ctx.input(1))
    return ctx.error() << "missing input #1 (position)";
  FailureOr<int64_t> position =
      positionOf(ctx, 1, (*input)->tensors.size(), false, 0);
  if (failed(position))
    return failure();
  ctx.setOutput(0, (*input)->tensors[*position]);
  return success();
}

LogicalResult convertSequenceLength(ImportContext &ctx) {
  FailureOr<const Sequence *> input = ctx.sequenceInput(0, "input_sequence");
  if (failed(input))
    return failure();
  ctx.setOutput(0, scalarConstant(ctx, ctx.builder().getI64Type(),
                                  double((*input)->tensors.size())));
  return success();
}

/// SplitToSequence: `split` absent cuts pieces of 1 (squeezed unless
/// keepdims); a scalar cuts pieces of that size (the last may be
/// shorter); a 1-D tensor gives the sizes, which must add up.
LogicalResult convertSplitToSequence(ImportContext &ctx) {
  FailureOr<Value> input = ctx.requiredInput(0, "input");
  FailureOr<int64_t> axisAttr = ctx.intAttr("axis", 0);
  FailureOr<int64_t> keepdims = ctx.intAttr("keepdims", 1);
  if (failed(input) || failed(axisAttr) || failed(keepdims))
    return failure();
  ArrayRef<int64_t> shape = shapeOf(*input);
  FailureOr<int64_t> axis = normalizeAxisAt(ctx, *axisAttr, shape.size());
  if (failed(axis))
    return failure();
  int64_t size = shape[*axis];
  SmallVector<int64_t> pieces;
  bool squeeze = false;
  if (!ctx.input(1)) {
    pieces.assign(size, 1);
    squeeze = *keepdims == 0;
  } else {
    FailureOr<DenseElementsAttr> split = ctx.constantInput(1, "split");
    FailureOr<SmallVector<int64_t>> values = ctx.constantInts(1, "split");
    if (failed(split) || failed(values))
      return failure();
    if (split->getType().getRank() == 0) {
      int64_t piece = (*values)[0];
      if (piece <= 0)
        return ctx.error() << "split must be positive, it is " << piece;
      for (int64_t at = 0; at < size; at += piece)
        pieces.push_back(std::min(piece, size - at));
    } else {
      int64_t total = 0;
      for (int64_t piece : *values) {
        if (piece < 0 || piece > size)
          return ctx.error() << "split sizes must be in [0, " << size
                             << "], one is " << piece;
        total += piece;
      }
      if (total != size)
        return ctx.error() << "split sizes add up to " << total
                           << ", the axis has " << size;
      pieces.assign(values->begin(), values->end());
    }
  }
  Sequence result{{}, elementTypeOf(*input)};
  SmallVector<int64_t> starts(shape.size(), 0), limits(shape),
      steps(shape.size(), 1);
  for (int64_t piece : pieces) {
    limits[*axis] = starts[*axis] + piece;
    FailureOr<Value> slice = sliceOf(ctx, *input, starts, limits, steps);
    if (failed(slice))
      return failure();
    Value tensor = *slice;
    if (squeeze) {
      SmallVector<int64_t> squeezed(shapeOf(tensor));
      squeezed.erase(squeezed.begin() + *axis);
      tensor = reshapeTo(ctx, tensor, squeezed);
    }
    result.tensors.push_back(tensor);
    starts[*axis] = limits[*axis];
  }
  ctx.setSequenceOutput(0, std::move(result));
  return success();
}

/// ConcatFromSequence: a concatenation along `axis`, or with new_axis a
/// stack (each tensor gains a unit dimension at `axis`, in [-r-1, r]).
LogicalResult convertConcatFromSequence(ImportContext &ctx) {
  FailureOr<const Sequence *> input = ctx.sequenceInput(0, "input_sequence");
  FailureOr<int64_t> axisAttr = ctx.intAttr("axis", 0);
  FailureOr<int64_t> newAxis = ctx.intAttr("new_axis", 0);
  if (failed(input) || failed(axisAttr) || failed(newAxis))
    return failure();
  if (!ctx.attribute("axis"))
    return ctx.error() << "missing attribute 'axis'";
  ArrayRef<Value> tensors = (*input)->tensors;
  if (tensors.empty())
    return ctx.error() << "cannot concatenate an empty sequence";
  int64_t rank = shapeOf(tensors.front()).size();
  FailureOr<int64_t> axis =
      normalizeAxisAt(ctx, *axisAttr, *newAxis ? rank + 1 : rank);
  if (failed(axis))
    return failure();
  for (Value tensor : tensors)
    if (int64_t(shapeOf(tensor).size()) != rank)
      return ctx.error() << "the sequence's tensors differ in rank";
  FailureOr<Value> result =
      *newAxis ? stackOf(ctx, tensors, *axis) : concatOf(ctx, tensors, *axis);
  if (failed(result))
    return failure();
  ctx.setOutput(0, *result);
  return success();
}

} // namespace

void registerSequenceConverters(ConverterRegistry &r) {
  r.add("SequenceEmpty", 11, convertSequenceEmpty);
  r.add("SequenceConstruct", 11, convertSequenceConstruct);
  r.add("SequenceInsert", 11, convertSequenceInsert);
  r.add("SequenceErase", 11, convertSequenceErase);
  r.add("SequenceAt", 11, convertSequenceAt);
  r.add("SequenceLength", 11, convertSequenceLength);
  r.add("SplitToSequence", 11, convertSplitToSequence);
  r.add("ConcatFromSequence", 11, convertConcatFromSequence);
}

} // namespace kiln::onnx
