//===- GraphOps.cpp - Verifiers and builders of kiln ops ------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Shape rules shared with builders live in TypeInference.cpp; this file holds
// the checks of ops whose result type is given rather than inferred, and the
// region op's structure. Folders are in GraphOpFolders.cpp, canonicalisation
// patterns in GraphCanonicalization.cpp.
//
//===----------------------------------------------------------------------===//

#include "dialects/Graph/IR/GraphOps.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>

using namespace mlir;
using namespace kiln;

#include "dialects/Graph/IR/GraphEnums.cpp.inc"

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

LogicalResult ClipOp::verify() {
  for (std::optional<APFloat> bound : {getMin(), getMax()})
    if (bound && bound->isNaN())
      return emitOpError("expects bounds that are numbers, not NaN");
  if (getMin() && getMax() &&
      getMin()->convertToDouble() > getMax()->convertToDouble())
    return emitOpError("expects min (")
           << getMin()->convertToDouble() << ") <= max ("
           << getMax()->convertToDouble() << ")";
  return success();
}

LogicalResult CastOp::verify() {
  auto input = getInput().getType(), result = getResult().getType();
  if (input.getShape() != result.getShape())
    return emitOpError("expects input and result of one shape, got ")
           << input << " and " << result;
  return success();
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

LogicalResult ReshapeOp::verify() {
  auto input = getInput().getType(), result = getResult().getType();
  if (input.getElementType() != result.getElementType())
    return emitOpError("expects input and result of one element type, got ")
           << input.getElementType() << " and " << result.getElementType();
  std::optional<int64_t> from = checkedElementCount(input.getShape());
  std::optional<int64_t> to = checkedElementCount(result.getShape());
  if (!from || !to || *from != *to)
    return emitOpError("cannot reshape ")
           << input << " into " << result << ": the element counts differ";
  return success();
}

LogicalResult BroadcastOp::verify() {
  auto input = getInput().getType(), result = getResult().getType();
  if (input.getElementType() != result.getElementType())
    return emitOpError("expects input and result of one element type, got ")
           << input.getElementType() << " and " << result.getElementType();
  if (!isBroadcastableTo(input.getShape(), result.getShape()))
    return emitOpError("cannot broadcast ") << input << " to " << result;
  return success();
}

LogicalResult PadOp::verify() {
  auto integer = dyn_cast<IntegerType>(getType().getElementType());
  if (!integer)
    return success();
  double value = getValue().convertToDouble();
  unsigned width = integer.getWidth();
  // i1 holds 0 and 1; wider integers are signed.
  double low = width == 1 ? 0.0 : -std::ldexp(1.0, width - 1);
  double high = width == 1 ? 1.0 : std::ldexp(1.0, width - 1) - 1;
  if (value != std::trunc(value) || value < low || value > high)
    return emitOpError("pad value ")
           << value << " is not representable in " << integer;
  return success();
}

LogicalResult SplitOp::verify() {
  auto input = getInput().getType();
  std::optional<int64_t> axis = normalizeAxis(getAxis(), input.getRank());
  if (!axis)
    return emitOpError("axis ")
           << static_cast<int64_t>(getAxis()) << " is out of range for rank "
           << input.getRank();
  if (getResults().empty())
    return emitOpError("expects at least one result");
  int64_t total = 0;
  for (auto [index, value] : llvm::enumerate(getResults())) {
    auto piece = cast<RankedTensorType>(value.getType());
    if (piece.getElementType() != input.getElementType() ||
        piece.getRank() != input.getRank())
      return emitOpError("result #")
             << index << " must have the input's rank and element type, got "
             << piece;
    for (int64_t d = 0; d < input.getRank(); ++d)
      if (d != *axis && piece.getDimSize(d) != input.getDimSize(d))
        return emitOpError("result #")
               << index << " differs from the input in dimension " << d;
    if (llvm::AddOverflow(total, piece.getDimSize(*axis), total))
      return emitOpError("result sizes along axis ") << *axis << " overflow";
  }
  if (total != input.getDimSize(*axis))
    return emitOpError("result sizes along axis ")
           << *axis << " add up to " << total << ", the input has "
           << input.getDimSize(*axis);
  return success();
}

//===----------------------------------------------------------------------===//
// Collectives
//===----------------------------------------------------------------------===//

LogicalResult MeshOp::verify() {
  ArrayRef<int64_t> shape = getShape();
  if (getAxes().empty())
    return emitOpError("has no axes");
  if (getAxes().size() != shape.size())
    return emitOpError("names ") << getAxes().size() << " axes but gives "
                                 << shape.size() << " sizes";
  int64_t devices = 1;
  for (auto [index, axis] : llvm::enumerate(getAxes())) {
    StringRef name = cast<StringAttr>(axis).getValue();
    if (name.empty())
      return emitOpError("axis ") << index << " has no name";
    for (Attribute earlier : getAxes().getValue().take_front(index))
      if (cast<StringAttr>(earlier).getValue() == name)
        return emitOpError("names axis '") << name << "' twice";
    if (shape[index] < 1)
      return emitOpError("axis '")
             << name << "' has " << shape[index] << " devices";
    devices *= shape[index];
    if (devices > 4096)
      return emitOpError("has more than 4096 devices");
  }
  for (Operation &other : (*this)->getBlock()->getOperations())
    if (auto first = dyn_cast<MeshOp>(other))
      return first == *this
                 ? success()
                 : emitOpError("is a second kiln.mesh of the module (@")
                       << first.getSymName() << " is the first)";
  return success();
}

std::optional<int64_t> MeshOp::axisSize(StringRef name) {
  for (auto [axis, size] : llvm::zip(getAxes(), getShape()))
    if (cast<StringAttr>(axis).getValue() == name)
      return size;
  return std::nullopt;
}

LogicalResult AllReduceOp::verify() {
  if (int32_t(getRanks()) < 1)
    return emitOpError("needs at least one rank, got ") << int32_t(getRanks());
  return success();
}

LogicalResult AllGatherOp::verify() {
  if (int32_t(getRanks()) < 1)
    return emitOpError("needs at least one rank, got ") << int32_t(getRanks());
  auto input = cast<RankedTensorType>(getInput().getType());
  auto result = cast<RankedTensorType>(getResult().getType());
  int64_t axis = getAxis();
  if (axis < 0 || axis >= input.getRank())
    return emitOpError("axis ")
           << axis << " is out of range for rank " << input.getRank();
  SmallVector<int64_t> expected(input.getShape());
  expected[axis] *= int64_t(getRanks());
  if (result.getElementType() != input.getElementType() ||
      result.getShape() != ArrayRef<int64_t>(expected))
    return emitOpError("result must be ")
           << RankedTensorType::get(expected, input.getElementType())
           << " (dimension " << axis << " times " << getRanks()
           << " ranks), got " << result;
  return success();
}

LogicalResult ReduceScatterOp::verify() {
  if (int32_t(getRanks()) < 1)
    return emitOpError("needs at least one rank, got ") << int32_t(getRanks());
  auto input = cast<RankedTensorType>(getInput().getType());
  auto result = cast<RankedTensorType>(getResult().getType());
  int64_t axis = getAxis(), ranks = int32_t(getRanks());
  if (axis < 0 || axis >= input.getRank())
    return emitOpError("axis ")
           << axis << " is out of range for rank " << input.getRank();
  if (input.getDimSize(axis) % ranks != 0)
    return emitOpError("dimension ")
           << axis << " (" << input.getDimSize(axis) << ") does not divide by "
           << ranks << " ranks";
  SmallVector<int64_t> expected(input.getShape());
  expected[axis] /= ranks;
  if (result.getElementType() != input.getElementType() ||
      result.getShape() != ArrayRef<int64_t>(expected))
    return emitOpError("result must be ")
           << RankedTensorType::get(expected, input.getElementType())
           << " (dimension " << axis << " divided by " << ranks
           << " ranks), got " << result;
  return success();
}

//===----------------------------------------------------------------------===//
// Fusion region
//===----------------------------------------------------------------------===//

void FusionOp::build(OpBuilder &builder, OperationState &state,
                     TypeRange resultTypes, ValueRange inputs) {
  state.addOperands(inputs);
  state.addTypes(resultTypes);
  Region *body = state.addRegion();
  Block *block = new Block();
  body->push_back(block);
  for (Value input : inputs)
    block->addArgument(input.getType(), input.getLoc());
}

YieldOp FusionOp::getYield() {
  return cast<YieldOp>(getBodyBlock().getTerminator());
}

LogicalResult FusionOp::verify() {
  Block &block = getBodyBlock();
  if (block.getArgumentTypes() != getInputs().getTypes())
    return emitOpError("expects the body's arguments to match the inputs' "
                       "types, got (")
           << block.getArgumentTypes() << ") for inputs ("
           << getInputs().getTypes() << ")";
  auto yield =
      dyn_cast_if_present<YieldOp>(block.empty() ? nullptr : &block.back());
  if (!yield)
    return emitOpError("expects the body to end with 'kiln.yield'");
  if (yield.getValues().getTypes() != getResultTypes())
    return emitOpError("yields (")
           << yield.getValues().getTypes() << ") but has results ("
           << getResultTypes() << ")";
  // Everything inside becomes one kernel: only graph ops belong here, or,
  // between kiln-convert-graph-to-linalg and kiln-fuse-group-loops, the
  // loop-level ops they lower to.
  if (getNumResults() == 0)
    return emitOpError("expects at least one result");
  for (Operation &op : block.without_terminator()) {
    Dialect *dialect = op.getDialect();
    bool graphOp = isa_and_present<KilnDialect>(dialect) && !isa<FusionOp>(op);
    bool loweredOp =
        dialect && llvm::is_contained({"arith", "linalg", "math", "tensor"},
                                      dialect->getNamespace());
    if (!graphOp && !loweredOp)
      return op.emitOpError(
          "cannot be inside a 'kiln.fusion' body: only non-fusion kiln ops "
          "(or the arith, linalg, math and tensor ops they lower to) can");
  }
  return success();
}

#define GET_OP_CLASSES
#include "dialects/Graph/IR/GraphOps.cpp.inc"
