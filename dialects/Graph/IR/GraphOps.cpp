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

using namespace mlir;
using namespace kiln;

#include "dialects/Graph/IR/GraphEnums.cpp.inc"

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

LogicalResult ClipOp::verify() {
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
           << input << " into " << result
           << ": the element counts differ";
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
    total += piece.getDimSize(*axis);
  }
  if (total != input.getDimSize(*axis))
    return emitOpError("result sizes along axis ")
           << *axis << " add up to " << total << ", the input has "
           << input.getDimSize(*axis);
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
  auto yield = dyn_cast_if_present<YieldOp>(
      block.empty() ? nullptr : &block.back());
  if (!yield)
    return emitOpError("expects the body to end with 'kiln.yield'");
  if (yield.getValues().getTypes() != getResultTypes())
    return emitOpError("yields (")
           << yield.getValues().getTypes() << ") but has results ("
           << getResultTypes() << ")";
  // Everything inside becomes one kernel: only graph ops belong here.
  for (Operation &op : block.without_terminator())
    if (!isa<KilnDialect>(op.getDialect()) || isa<FusionOp>(op))
      return op.emitOpError("cannot be inside a 'kiln.fusion' body: only "
                            "non-fusion kiln ops can");
  return success();
}

#define GET_OP_CLASSES
#include "dialects/Graph/IR/GraphOps.cpp.inc"
