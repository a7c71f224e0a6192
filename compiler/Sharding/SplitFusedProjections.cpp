//===- SplitFusedProjections.cpp - One projection per split part ----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Attention layers often compute Q, K and V with one matmul against the
// three weights side by side and split the result. Column parallelism
// would give rank 0 all of Q and half of K; the heads of each part must be
// spread over the ranks instead. Rewriting the fused projection as one
// projection per part (the weight's and bias's columns sliced at compile
// time) lets each part split its own columns.
//
//===----------------------------------------------------------------------===//

#include "compiler/Sharding/ShardGraph.h"

#include "dialects/Graph/IR/GraphOps.h"
#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace kiln;

namespace kiln::compiler::sharding {

namespace {

Value columns(OpBuilder &b, Location loc, Value constant, int64_t begin,
              int64_t end) {
  auto type = cast<RankedTensorType>(constant.getType());
  int64_t last = type.getRank() - 1;
  SmallVector<int64_t> starts(type.getRank(), 0), limits(type.getShape()),
      steps(type.getRank(), 1), shape(type.getShape());
  starts[last] = begin;
  limits[last] = end;
  shape[last] = end - begin;
  return SliceOp::create(b, loc,
                         RankedTensorType::get(shape, type.getElementType()),
                         constant, starts, limits, steps);
}

bool isConstant(Value value) {
  return isa_and_present<ConstantOp>(value.getDefiningOp());
}

/// split(matmul(x, W) [+ bias]) along the last axis, W and bias constant,
/// every intermediate used once.
LogicalResult splitOne(SplitOp split, int64_t ranks) {
  auto input = cast<RankedTensorType>(split.getInput().getType());
  int64_t last = input.getRank() - 1;
  if (split.getAxis() != last && split.getAxis() != -1)
    return failure();
  for (Value part : split.getResults())
    if (cast<RankedTensorType>(part.getType()).getDimSize(last) % ranks != 0)
      return failure();
  Value bias;
  Operation *producer = split.getInput().getDefiningOp();
  auto matmul = dyn_cast_or_null<MatmulOp>(producer);
  AddOp add = dyn_cast_or_null<AddOp>(producer);
  if (add) {
    if (!add->hasOneUse())
      return failure();
    for (auto [product, addend] : {std::pair(add.getLhs(), add.getRhs()),
                                   std::pair(add.getRhs(), add.getLhs())})
      if (auto candidate = product.getDefiningOp<MatmulOp>();
          candidate && isConstant(addend) &&
          cast<RankedTensorType>(addend.getType()).getRank() == 1) {
        matmul = candidate;
        bias = addend;
      }
  }
  if (!matmul || !matmul->hasOneUse() || !isConstant(matmul.getRhs()) ||
      cast<RankedTensorType>(matmul.getRhs().getType()).getRank() != 2)
    return failure();

  OpBuilder b(split);
  Location loc = split.getLoc();
  int64_t begin = 0;
  for (Value part : split.getResults()) {
    auto type = cast<RankedTensorType>(part.getType());
    int64_t end = begin + type.getDimSize(last);
    Value product =
        MatmulOp::create(b, matmul.getLoc(), type, matmul.getLhs(),
                         columns(b, loc, matmul.getRhs(), begin, end));
    if (bias)
      product = AddOp::create(b, add.getLoc(), type, product,
                              columns(b, loc, bias, begin, end));
    part.replaceAllUsesWith(product);
    begin = end;
  }
  split.erase();
  if (add)
    add.erase();
  matmul.erase();
  return success();
}

} // namespace

void splitFusedProjections(func::FuncOp function, int64_t ranks) {
  SmallVector<SplitOp> splits;
  function.walk([&](SplitOp split) { splits.push_back(split); });
  for (SplitOp split : splits)
    (void)splitOne(split, ranks);
}

} // namespace kiln::compiler::sharding
