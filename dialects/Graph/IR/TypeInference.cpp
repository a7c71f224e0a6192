//===- TypeInference.cpp - Shape and type rules of kiln ops ---------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dialects/Graph/IR/TypeInference.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;

namespace kiln {

//===----------------------------------------------------------------------===//
// Pure shape arithmetic
//===----------------------------------------------------------------------===//

std::optional<SmallVector<int64_t>> broadcastShapes(ArrayRef<int64_t> lhs,
                                                    ArrayRef<int64_t> rhs) {
  size_t rank = std::max(lhs.size(), rhs.size());
  SmallVector<int64_t> result(rank);
  for (size_t i = 0; i < rank; ++i) {
    // Align from the right; missing leading dimensions act as 1.
    int64_t l = i < lhs.size() ? lhs[lhs.size() - 1 - i] : 1;
    int64_t r = i < rhs.size() ? rhs[rhs.size() - 1 - i] : 1;
    if (l != r && l != 1 && r != 1)
      return std::nullopt;
    result[rank - 1 - i] = l == 1 ? r : l;
  }
  return result;
}

bool isBroadcastableTo(ArrayRef<int64_t> from, ArrayRef<int64_t> to) {
  if (from.size() > to.size())
    return false;
  size_t offset = to.size() - from.size();
  for (size_t i = 0; i < from.size(); ++i)
    if (from[i] != 1 && from[i] != to[offset + i])
      return false;
  return true;
}

std::optional<int64_t> normalizeAxis(int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank)
    return std::nullopt;
  return axis < 0 ? axis + rank : axis;
}

std::optional<int64_t> checkedElementCount(ArrayRef<int64_t> shape) {
  int64_t count = 1;
  for (int64_t dim : shape) {
    if (dim < 0)
      return std::nullopt;
    if (llvm::MulOverflow(count, dim, count))
      return std::nullopt;
  }
  return count;
}

int64_t windowOutputSize(int64_t inputSize, int64_t kernelSize, int64_t stride,
                         int64_t padBegin, int64_t padEnd, int64_t dilation,
                         bool ceilMode) {
  // Every step is overflow-checked: attributes come from untrusted models,
  // and a wrapped value would describe a window that does not exist.
  int64_t span, padded, start, room;
  if (kernelSize <= 0 || stride <= 0 || dilation <= 0 ||
      llvm::MulOverflow(dilation, kernelSize - 1, span) ||
      llvm::AddOverflow(span, int64_t(1), span) ||
      llvm::AddOverflow(inputSize, padBegin, start) ||
      llvm::AddOverflow(start, padEnd, padded) ||
      llvm::SubOverflow(padded, span, room) || room < 0)
    return 0;
  int64_t steps = ceilMode ? llvm::divideCeil(room, stride) : room / stride;
  // In ceil mode the last window must start inside the input or the leading
  // padding, never entirely in the trailing padding (ONNX and PyTorch rule).
  int64_t lastStart;
  if (ceilMode && (llvm::MulOverflow(steps, stride, lastStart) ||
                   lastStart >= start))
    --steps;
  return steps + 1;
}

int64_t sliceLength(int64_t start, int64_t limit, int64_t step) {
  // Unsigned arithmetic: |step| and the distance may not fit in int64_t.
  if (step > 0)
    return limit > start
               ? int64_t((uint64_t(limit) - uint64_t(start) - 1) /
                             uint64_t(step) +
                         1)
               : 0;
  uint64_t magnitude = uint64_t(0) - uint64_t(step);
  return start > limit ? int64_t((uint64_t(start) - uint64_t(limit) - 1) /
                                     magnitude +
                                 1)
                       : 0;
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

namespace {
/// Ranked tensor view of `type`, or an error when it is anything else (which
/// only happens while parsing, before the ODS type constraints are checked).
FailureOr<RankedTensorType> rankedTensor(OptionalLoc loc, Type type,
                                         StringRef what) {
  if (auto tensor = dyn_cast_or_null<RankedTensorType>(type))
    return tensor;
  return emitOptionalError(loc, "expects ", what, " to be a ranked tensor");
}

/// Formats a shape as `2x3x4` for messages.
std::string formatShape(ArrayRef<int64_t> shape) {
  std::string out;
  llvm::raw_string_ostream os(out);
  llvm::interleave(shape, os, "x");
  if (shape.empty())
    os << "scalar";
  return out;
}

LogicalResult checkRank(OptionalLoc loc, RankedTensorType type, int64_t rank,
                        StringRef what) {
  if (type.getRank() == rank)
    return success();
  return emitOptionalError(loc, "expects ", what, " of rank ", rank,
                           ", got rank ", type.getRank());
}

LogicalResult checkSameElementType(OptionalLoc loc, Type lhs, Type rhs,
                                   StringRef lhsName, StringRef rhsName) {
  if (lhs == rhs)
    return success();
  return emitOptionalError(loc, "expects ", lhsName, " and ", rhsName,
                           " to have one element type, got ", lhs, " and ",
                           rhs);
}

LogicalResult checkArraySize(OptionalLoc loc, ArrayRef<int64_t> values,
                             size_t size, StringRef what) {
  if (values.size() == size)
    return success();
  return emitOptionalError(loc, "expects '", what, "' to have ", size,
                           " values, got ", values.size());
}

LogicalResult checkAllPositive(OptionalLoc loc, ArrayRef<int64_t> values,
                               StringRef what) {
  if (llvm::all_of(values, [](int64_t v) { return v > 0; }))
    return success();
  return emitOptionalError(loc, "expects every '", what,
                           "' value to be positive");
}

LogicalResult checkAllNonNegative(OptionalLoc loc, ArrayRef<int64_t> values,
                                  StringRef what) {
  if (llvm::all_of(values, [](int64_t v) { return v >= 0; }))
    return success();
  return emitOptionalError(loc, "expects every '", what,
                           "' value to be non-negative");
}

FailureOr<int64_t> checkAxis(OptionalLoc loc, int64_t axis, int64_t rank) {
  if (std::optional<int64_t> normalized = normalizeAxis(axis, rank))
    return *normalized;
  return emitOptionalError(loc, "axis ", axis, " is out of range for rank ",
                           rank);
}

/// Output spatial size of a sliding window, or an error naming the dimension.
FailureOr<int64_t> windowSize(OptionalLoc loc, int64_t in, int64_t kernel,
                              int64_t stride, int64_t padBegin, int64_t padEnd,
                              int64_t dilation, bool ceilMode, int dim) {
  int64_t size = windowOutputSize(in, kernel, stride, padBegin, padEnd,
                                  dilation, ceilMode);
  if (size > 0)
    return size;
  return emitOptionalError(loc, "window of size ", kernel, " (dilation ",
                           dilation, ") does not fit spatial dimension ", dim,
                           " of size ", in, " with padding ", padBegin, "+",
                           padEnd);
}
} // namespace

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

LogicalResult inferSameAsOperand(Value input, InferredTypes &inferred) {
  inferred.push_back(input.getType());
  return success();
}

LogicalResult inferSameAsOperandWithAxis(OptionalLoc loc, Type input,
                                         int64_t axis,
                                         InferredTypes &inferred) {
  auto tensor = rankedTensor(loc, input, "input");
  if (failed(tensor) || failed(checkAxis(loc, axis, tensor->getRank())))
    return failure();
  inferred.push_back(input);
  return success();
}

LogicalResult inferBroadcastElementwise(OptionalLoc loc, ValueRange operands,
                                        Type resultElement,
                                        InferredTypes &inferred) {
  SmallVector<int64_t> shape;
  Type element;
  for (auto [index, operand] : llvm::enumerate(operands)) {
    auto tensor = rankedTensor(loc, operand.getType(), "operands");
    if (failed(tensor))
      return failure();
    if (index == 0) {
      element = tensor->getElementType();
      shape = llvm::to_vector(tensor->getShape());
      continue;
    }
    if (failed(checkSameElementType(loc, element, tensor->getElementType(),
                                    "lhs", "rhs")))
      return failure();
    std::optional<SmallVector<int64_t>> merged =
        broadcastShapes(shape, tensor->getShape());
    if (!merged)
      return emitOptionalError(loc, "operand shapes ", formatShape(shape),
                               " and ", formatShape(tensor->getShape()),
                               " are not broadcast-compatible");
    shape = std::move(*merged);
  }
  inferred.push_back(
      RankedTensorType::get(shape, resultElement ? resultElement : element));
  return success();
}

LogicalResult inferSelect(OptionalLoc loc, Type condition, Type onTrue,
                          Type onFalse, InferredTypes &inferred) {
  auto cond = rankedTensor(loc, condition, "condition");
  auto lhs = rankedTensor(loc, onTrue, "on_true");
  auto rhs = rankedTensor(loc, onFalse, "on_false");
  if (failed(cond) || failed(lhs) || failed(rhs))
    return failure();
  if (failed(checkSameElementType(loc, lhs->getElementType(),
                                  rhs->getElementType(), "on_true",
                                  "on_false")))
    return failure();
  auto shape = broadcastShapes(cond->getShape(), lhs->getShape());
  if (shape)
    shape = broadcastShapes(*shape, rhs->getShape());
  if (!shape)
    return emitOptionalError(loc, "operand shapes ",
                             formatShape(cond->getShape()), ", ",
                             formatShape(lhs->getShape()), " and ",
                             formatShape(rhs->getShape()),
                             " are not broadcast-compatible");
  inferred.push_back(RankedTensorType::get(*shape, lhs->getElementType()));
  return success();
}

//===----------------------------------------------------------------------===//
// Contractions
//===----------------------------------------------------------------------===//

LogicalResult inferMatmul(OptionalLoc loc, Type lhsType, Type rhsType,
                          InferredTypes &inferred) {
  auto lhs = rankedTensor(loc, lhsType, "lhs");
  auto rhs = rankedTensor(loc, rhsType, "rhs");
  if (failed(lhs) || failed(rhs))
    return failure();
  if (lhs->getRank() < 2 || rhs->getRank() < 2)
    return emitOptionalError(loc, "expects operands of rank >= 2, got ranks ",
                             lhs->getRank(), " and ", rhs->getRank());
  if (failed(checkSameElementType(loc, lhs->getElementType(),
                                  rhs->getElementType(), "lhs", "rhs")))
    return failure();
  ArrayRef<int64_t> l = lhs->getShape(), r = rhs->getShape();
  int64_t k = l.back(), kRhs = r[r.size() - 2];
  if (k != kRhs)
    return emitOptionalError(loc, "contracting dimensions differ: lhs has ", k,
                             ", rhs has ", kRhs);
  auto batch = broadcastShapes(l.drop_back(2), r.drop_back(2));
  if (!batch)
    return emitOptionalError(loc, "batch dimensions ",
                             formatShape(l.drop_back(2)), " and ",
                             formatShape(r.drop_back(2)),
                             " are not broadcast-compatible");
  batch->push_back(l[l.size() - 2]);
  batch->push_back(r.back());
  // int8 products accumulate in i32 (ONNX MatMulInteger); a result of
  // their own type would overflow at once.
  Type element = lhs->getElementType();
  if (element.isSignlessInteger(8))
    element = IntegerType::get(element.getContext(), 32);
  inferred.push_back(RankedTensorType::get(*batch, element));
  return success();
}

LogicalResult inferWeightOnlyMatmul(OptionalLoc loc, Type lhsType,
                                    Type weightsType, Type scalesType,
                                    int64_t bits, int64_t group,
                                    InferredTypes &inferred) {
  auto lhs = rankedTensor(loc, lhsType, "lhs");
  auto weights = rankedTensor(loc, weightsType, "weights");
  auto scales = rankedTensor(loc, scalesType, "scales");
  if (failed(lhs) || failed(weights) || failed(scales) ||
      failed(checkRank(loc, *weights, 2, "weights")) ||
      failed(checkRank(loc, *scales, 2, "scales")))
    return failure();
  if (lhs->getRank() < 2)
    return emitOptionalError(loc, "expects lhs of rank >= 2, got rank ",
                             lhs->getRank());
  if (!lhs->getElementType().isF32() || !scales->getElementType().isF32())
    return emitOptionalError(loc, "expects f32 lhs and scales");
  if (!weights->getElementType().isSignlessInteger(8))
    return emitOptionalError(loc, "expects i8 weights, got ",
                             weights->getElementType());
  if (bits != 4 && bits != 8)
    return emitOptionalError(loc, "bits must be 4 or 8, got ", bits);
  if (group < 1)
    return emitOptionalError(loc, "group must be positive, got ", group);
  int64_t k = lhs->getShape().back(), n = weights->getDimSize(1);
  if (weights->getDimSize(0) != k)
    return emitOptionalError(loc, "contracting dimensions differ: lhs has ", k,
                             ", weights have ", weights->getDimSize(0));
  int64_t groups = (k + group - 1) / group;
  if (scales->getDimSize(0) != groups || scales->getDimSize(1) != n)
    return emitOptionalError(loc, "scales must be ", formatShape({groups, n}),
                             " (", groups, " groups of ", group, " rows x ", n,
                             " columns), got ",
                             formatShape(scales->getShape()));
  SmallVector<int64_t> shape(lhs->getShape().drop_back());
  shape.push_back(n);
  inferred.push_back(RankedTensorType::get(shape, lhs->getElementType()));
  return success();
}

LogicalResult inferGemm(OptionalLoc loc, Type aType, Type bType, Type cType,
                        bool transA, bool transB, InferredTypes &inferred) {
  auto a = rankedTensor(loc, aType, "A");
  auto b = rankedTensor(loc, bType, "B");
  if (failed(a) || failed(b) || failed(checkRank(loc, *a, 2, "A")) ||
      failed(checkRank(loc, *b, 2, "B")) ||
      failed(checkSameElementType(loc, a->getElementType(),
                                  b->getElementType(), "A", "B")))
    return failure();
  int64_t m = a->getDimSize(transA ? 1 : 0), ka = a->getDimSize(transA ? 0 : 1);
  int64_t kb = b->getDimSize(transB ? 1 : 0), n = b->getDimSize(transB ? 0 : 1);
  if (ka != kb)
    return emitOptionalError(loc, "contracting dimensions differ: op(A) has ",
                             ka, ", op(B) has ", kb);
  SmallVector<int64_t> shape = {m, n};
  if (cType) {
    auto c = rankedTensor(loc, cType, "C");
    if (failed(c) ||
        failed(checkSameElementType(loc, a->getElementType(),
                                    c->getElementType(), "A", "C")))
      return failure();
    if (!isBroadcastableTo(c->getShape(), shape))
      return emitOptionalError(loc, "C of shape ", formatShape(c->getShape()),
                               " does not broadcast to the result shape ",
                               formatShape(shape));
  }
  inferred.push_back(RankedTensorType::get(shape, a->getElementType()));
  return success();
}

LogicalResult inferConv2d(OptionalLoc loc, Type inputType, Type weightType,
                          Type biasType, ArrayRef<int64_t> strides,
                          ArrayRef<int64_t> pads, ArrayRef<int64_t> dilations,
                          int64_t groups, InferredTypes &inferred) {
  auto input = rankedTensor(loc, inputType, "input");
  auto weight = rankedTensor(loc, weightType, "weight");
  if (failed(input) || failed(weight) ||
      failed(checkRank(loc, *input, 4, "input")) ||
      failed(checkRank(loc, *weight, 4, "weight")) ||
      failed(checkSameElementType(loc, input->getElementType(),
                                  weight->getElementType(), "input",
                                  "weight")) ||
      failed(checkArraySize(loc, strides, 2, "strides")) ||
      failed(checkArraySize(loc, dilations, 2, "dilations")) ||
      failed(checkArraySize(loc, pads, 4, "pads")) ||
      failed(checkAllPositive(loc, strides, "strides")) ||
      failed(checkAllPositive(loc, dilations, "dilations")) ||
      failed(checkAllNonNegative(loc, pads, "pads")))
    return failure();
  ArrayRef<int64_t> in = input->getShape(), w = weight->getShape();
  if (groups <= 0)
    return emitOptionalError(loc, "expects a positive group count, got ",
                             groups);
  if (in[1] % groups != 0 || w[0] % groups != 0)
    return emitOptionalError(loc, "input channels (", in[1],
                             ") and output channels (", w[0],
                             ") must be divisible by groups (", groups, ")");
  if (w[2] <= 0 || w[3] <= 0)
    return emitOptionalError(loc, "expects a non-empty kernel, got ", w[2],
                             "x", w[3]);
  if (w[1] * groups != in[1])
    return emitOptionalError(loc, "weight expects ", w[1] * groups,
                             " input channels, input has ", in[1]);
  if (biasType) {
    auto bias = rankedTensor(loc, biasType, "bias");
    if (failed(bias) ||
        failed(checkSameElementType(loc, input->getElementType(),
                                    bias->getElementType(), "input", "bias")))
      return failure();
    if (bias->getShape() != ArrayRef<int64_t>{w[0]})
      return emitOptionalError(loc, "expects bias of shape ", w[0], ", got ",
                               formatShape(bias->getShape()));
  }
  SmallVector<int64_t> shape = {in[0], w[0]};
  for (int d = 0; d < 2; ++d) {
    FailureOr<int64_t> size =
        windowSize(loc, in[2 + d], w[2 + d], strides[d], pads[d], pads[2 + d],
                   dilations[d], /*ceilMode=*/false, 2 + d);
    if (failed(size))
      return failure();
    shape.push_back(*size);
  }
  inferred.push_back(RankedTensorType::get(shape, input->getElementType()));
  return success();
}

//===----------------------------------------------------------------------===//
// Pooling and normalisation
//===----------------------------------------------------------------------===//

LogicalResult inferPool2d(OptionalLoc loc, Type inputType,
                          ArrayRef<int64_t> kernelShape,
                          ArrayRef<int64_t> strides, ArrayRef<int64_t> pads,
                          ArrayRef<int64_t> dilations, bool ceilMode,
                          InferredTypes &inferred) {
  auto input = rankedTensor(loc, inputType, "input");
  if (failed(input) || failed(checkRank(loc, *input, 4, "input")) ||
      failed(checkArraySize(loc, kernelShape, 2, "kernel_shape")) ||
      failed(checkArraySize(loc, strides, 2, "strides")) ||
      failed(checkArraySize(loc, dilations, 2, "dilations")) ||
      failed(checkArraySize(loc, pads, 4, "pads")) ||
      failed(checkAllPositive(loc, kernelShape, "kernel_shape")) ||
      failed(checkAllPositive(loc, strides, "strides")) ||
      failed(checkAllPositive(loc, dilations, "dilations")) ||
      failed(checkAllNonNegative(loc, pads, "pads")))
    return failure();
  ArrayRef<int64_t> in = input->getShape();
  SmallVector<int64_t> shape = {in[0], in[1]};
  for (int d = 0; d < 2; ++d) {
    int64_t span;
    if (llvm::MulOverflow(dilations[d], kernelShape[d] - 1, span) ||
        llvm::AddOverflow(span, int64_t(1), span))
      return emitOptionalError(loc, "window of size ", kernelShape[d],
                               " with dilation ", dilations[d],
                               " overflows in spatial dimension ", 2 + d);
    // A window made only of padding has no defined maximum or mean.
    if (pads[d] >= span || pads[2 + d] >= span)
      return emitOptionalError(loc, "padding of spatial dimension ", 2 + d,
                               " must be smaller than the window (", span,
                               ")");
    FailureOr<int64_t> size =
        windowSize(loc, in[2 + d], kernelShape[d], strides[d], pads[d],
                   pads[2 + d], dilations[d], ceilMode, 2 + d);
    if (failed(size))
      return failure();
    // With dilation, a window starting in the leading padding can step over
    // the whole input. Only windows that start before the input can miss it
    // (pads < span bounds how many there are).
    for (int64_t o = 0; o < *size && o * strides[d] < pads[d]; ++o) {
      int64_t start = o * strides[d] - pads[d];
      int64_t firstTap = llvm::divideCeil(-start, dilations[d]);
      if (firstTap > kernelShape[d] - 1 ||
          start + firstTap * dilations[d] >= in[2 + d])
        return emitOptionalError(loc, "window ", o, " of spatial dimension ",
                                 2 + d, " reads only padding");
    }
    shape.push_back(*size);
  }
  inferred.push_back(RankedTensorType::get(shape, input->getElementType()));
  return success();
}

LogicalResult inferGlobalPool(OptionalLoc loc, Type inputType,
                              InferredTypes &inferred) {
  auto input = rankedTensor(loc, inputType, "input");
  if (failed(input))
    return failure();
  if (input->getRank() < 3)
    return emitOptionalError(loc, "expects input of rank >= 3 ([N, C, ...]), "
                                  "got rank ",
                             input->getRank());
  SmallVector<int64_t> shape(input->getShape());
  std::fill(shape.begin() + 2, shape.end(), 1);
  inferred.push_back(RankedTensorType::get(shape, input->getElementType()));
  return success();
}

LogicalResult inferLayerNorm(OptionalLoc loc, Type inputType, Type scaleType,
                             Type biasType, int64_t axis,
                             InferredTypes &inferred) {
  auto input = rankedTensor(loc, inputType, "input");
  if (failed(input))
    return failure();
  FailureOr<int64_t> start = checkAxis(loc, axis, input->getRank());
  if (failed(start))
    return failure();
  ArrayRef<int64_t> normalized = input->getShape().drop_front(*start);
  for (auto [name, type] : {std::pair<StringRef, Type>{"scale", scaleType},
                            std::pair<StringRef, Type>{"bias", biasType}}) {
    if (!type)
      continue;
    auto param = rankedTensor(loc, type, name);
    if (failed(param) ||
        failed(checkSameElementType(loc, input->getElementType(),
                                    param->getElementType(), "input", name)))
      return failure();
    if (param->getShape() != normalized)
      return emitOptionalError(loc, "expects ", name, " of shape ",
                               formatShape(normalized),
                               " (the normalised dimensions), got ",
                               formatShape(param->getShape()));
  }
  inferred.push_back(inputType);
  return success();
}

LogicalResult inferBatchNorm(OptionalLoc loc, ValueRange operands,
                             InferredTypes &inferred) {
  auto input = rankedTensor(loc, operands[0].getType(), "input");
  if (failed(input))
    return failure();
  if (input->getRank() < 2)
    return emitOptionalError(loc, "expects input of rank >= 2 ([N, C, ...]), "
                                  "got rank ",
                             input->getRank());
  static constexpr StringRef names[] = {"scale", "bias", "mean", "variance"};
  int64_t channels = input->getDimSize(1);
  for (auto [name, operand] : llvm::zip(names, operands.drop_front())) {
    auto param = rankedTensor(loc, operand.getType(), name);
    if (failed(param) ||
        failed(checkSameElementType(loc, input->getElementType(),
                                    param->getElementType(), "input", name)))
      return failure();
    if (param->getShape() != ArrayRef<int64_t>{channels})
      return emitOptionalError(loc, "expects ", name, " of shape ", channels,
                               " (the channel count), got ",
                               formatShape(param->getShape()));
  }
  inferred.push_back(operands[0].getType());
  return success();
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

LogicalResult inferReduce(OptionalLoc loc, Type inputType,
                          ArrayRef<int64_t> axes, bool keepDims,
                          InferredTypes &inferred) {
  auto input = rankedTensor(loc, inputType, "input");
  if (failed(input))
    return failure();
  int64_t rank = input->getRank();
  llvm::SmallBitVector reduced(rank);
  for (int64_t axis : axes) {
    FailureOr<int64_t> normalized = checkAxis(loc, axis, rank);
    if (failed(normalized))
      return failure();
    if (reduced.test(*normalized))
      return emitOptionalError(loc, "axis ", axis, " is listed twice");
    reduced.set(*normalized);
  }
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < rank; ++d) {
    if (!reduced.test(d))
      shape.push_back(input->getDimSize(d));
    else if (keepDims)
      shape.push_back(1);
  }
  inferred.push_back(RankedTensorType::get(shape, input->getElementType()));
  return success();
}

LogicalResult inferArgReduce(OptionalLoc loc, Type inputType, int64_t axis,
                             bool keepDims, InferredTypes &inferred) {
  auto input = rankedTensor(loc, inputType, "input");
  if (failed(input))
    return failure();
  FailureOr<int64_t> normalized = checkAxis(loc, axis, input->getRank());
  if (failed(normalized))
    return failure();
  if (input->getDimSize(*normalized) == 0)
    return emitOptionalError(loc, "cannot take an index over the empty axis ",
                             axis);
  SmallVector<int64_t> shape(input->getShape());
  if (keepDims)
    shape[*normalized] = 1;
  else
    shape.erase(shape.begin() + *normalized);
  inferred.push_back(
      RankedTensorType::get(shape, IntegerType::get(input->getContext(), 64)));
  return success();
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

LogicalResult inferTranspose(OptionalLoc loc, Type inputType,
                             ArrayRef<int64_t> permutation,
                             InferredTypes &inferred) {
  auto input = rankedTensor(loc, inputType, "input");
  if (failed(input))
    return failure();
  int64_t rank = input->getRank();
  if (failed(checkArraySize(loc, permutation, rank, "permutation")))
    return failure();
  llvm::SmallBitVector seen(rank);
  SmallVector<int64_t> shape;
  for (int64_t p : permutation) {
    if (p < 0 || p >= rank || seen.test(p))
      return emitOptionalError(loc, "permutation is not a permutation of 0..",
                               rank - 1);
    seen.set(p);
    shape.push_back(input->getDimSize(p));
  }
  inferred.push_back(RankedTensorType::get(shape, input->getElementType()));
  return success();
}

LogicalResult inferConcat(OptionalLoc loc, TypeRange inputs, int64_t axis,
                          InferredTypes &inferred) {
  if (inputs.empty())
    return emitOptionalError(loc, "expects at least one input");
  auto first = rankedTensor(loc, inputs.front(), "inputs");
  if (failed(first))
    return failure();
  FailureOr<int64_t> dim = checkAxis(loc, axis, first->getRank());
  if (failed(dim))
    return failure();
  SmallVector<int64_t> shape(first->getShape());
  for (auto [index, type] : llvm::enumerate(inputs.drop_front())) {
    auto input = rankedTensor(loc, type, "inputs");
    if (failed(input) ||
        failed(checkSameElementType(loc, first->getElementType(),
                                    input->getElementType(), "input #0",
                                    "input #" + std::to_string(index + 1))))
      return failure();
    if (input->getRank() != first->getRank())
      return emitOptionalError(loc, "input #", index + 1, " has rank ",
                               input->getRank(), ", input #0 has rank ",
                               first->getRank());
    for (int64_t d = 0; d < first->getRank(); ++d) {
      if (d == *dim)
        continue;
      if (input->getDimSize(d) != shape[d])
        return emitOptionalError(
            loc, "input #", index + 1, " has size ", input->getDimSize(d),
            " in dimension ", d, " where input #0 has ", shape[d]);
    }
    if (llvm::AddOverflow(shape[*dim], input->getDimSize(*dim), shape[*dim]))
      return emitOptionalError(loc, "concatenated size overflows");
  }
  inferred.push_back(RankedTensorType::get(shape, first->getElementType()));
  return success();
}

LogicalResult inferSlice(OptionalLoc loc, Type inputType,
                         ArrayRef<int64_t> starts, ArrayRef<int64_t> limits,
                         ArrayRef<int64_t> steps, InferredTypes &inferred) {
  auto input = rankedTensor(loc, inputType, "input");
  if (failed(input))
    return failure();
  int64_t rank = input->getRank();
  if (failed(checkArraySize(loc, starts, rank, "starts")) ||
      failed(checkArraySize(loc, limits, rank, "limits")) ||
      failed(checkArraySize(loc, steps, rank, "steps")))
    return failure();
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t size = input->getDimSize(d);
    int64_t start = starts[d], limit = limits[d], step = steps[d];
    if (step == 0)
      return emitOptionalError(loc, "step of dimension ", d, " is zero");
    bool valid = step > 0
                     ? 0 <= start && start <= limit && limit <= size
                     : -1 <= limit && limit <= start && start < size;
    if (!valid)
      return emitOptionalError(loc, "slice ", start, ":", limit, ":", step,
                               " is out of bounds for dimension ", d,
                               " of size ", size);
    shape.push_back(sliceLength(start, limit, step));
  }
  inferred.push_back(RankedTensorType::get(shape, input->getElementType()));
  return success();
}

LogicalResult inferGather(OptionalLoc loc, Type inputType, Type indicesType,
                          int64_t axis, InferredTypes &inferred) {
  auto input = rankedTensor(loc, inputType, "input");
  auto indices = rankedTensor(loc, indicesType, "indices");
  if (failed(input) || failed(indices))
    return failure();
  if (input->getRank() == 0)
    return emitOptionalError(loc, "cannot gather from a scalar");
  FailureOr<int64_t> dim = checkAxis(loc, axis, input->getRank());
  if (failed(dim))
    return failure();
  SmallVector<int64_t> shape(input->getShape().take_front(*dim));
  llvm::append_range(shape, indices->getShape());
  llvm::append_range(shape, input->getShape().drop_front(*dim + 1));
  inferred.push_back(RankedTensorType::get(shape, input->getElementType()));
  return success();
}

LogicalResult inferPad(OptionalLoc loc, Type inputType, ArrayRef<int64_t> low,
                       ArrayRef<int64_t> high, PadMode mode,
                       InferredTypes &inferred) {
  auto input = rankedTensor(loc, inputType, "input");
  if (failed(input))
    return failure();
  int64_t rank = input->getRank();
  if (failed(checkArraySize(loc, low, rank, "low")) ||
      failed(checkArraySize(loc, high, rank, "high")) ||
      failed(checkAllNonNegative(loc, low, "low")) ||
      failed(checkAllNonNegative(loc, high, "high")))
    return failure();
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t size = input->getDimSize(d);
    int64_t widest = std::max(low[d], high[d]);
    if (mode == PadMode::reflect && widest > 0 && widest >= size)
      return emitOptionalError(loc, "reflect padding of ", widest,
                               " needs dimension ", d,
                               " to be larger, it has size ", size);
    if (mode == PadMode::edge && widest > 0 && size == 0)
      return emitOptionalError(loc, "edge padding needs dimension ", d,
                               " to be non-empty");
    int64_t padded;
    if (llvm::AddOverflow(size, low[d], padded) ||
        llvm::AddOverflow(padded, high[d], padded))
      return emitOptionalError(loc, "padded size of dimension ", d,
                               " overflows");
    shape.push_back(padded);
  }
  inferred.push_back(RankedTensorType::get(shape, input->getElementType()));
  return success();
}

} // namespace kiln
