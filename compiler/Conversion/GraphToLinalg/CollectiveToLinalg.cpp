//===- CollectiveToLinalg.cpp - kiln collectives -> exec.communicate ------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Collectives stay single ops in destination style (exec.communicate) so
// that bufferisation and the memory plan place their buffers and the
// scheduler turns each into one exec.collective step. The runtime exchanges
// rank-major blocks: an all-gather along an inner axis is transposed into
// place after, a reduce-scatter's input before (neither when every
// dimension outside the axis is 1).
//
//===----------------------------------------------------------------------===//

#include "compiler/Conversion/GraphToLinalg/LoweringUtils.h"
#include "compiler/Conversion/GraphToLinalg/Passes.h"

#include "dialects/Exec/IR/ExecOps.h"
#include "dialects/Graph/IR/GraphOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::compiler::lowering;

namespace {

exec::ReductionKind reductionOf(CollectiveReduction reduction) {
  switch (reduction) {
  case CollectiveReduction::sum:
    return exec::ReductionKind::sum;
  case CollectiveReduction::max:
    return exec::ReductionKind::max;
  case CollectiveReduction::min:
    return exec::ReductionKind::min;
  case CollectiveReduction::prod:
    return exec::ReductionKind::prod;
  }
  llvm_unreachable("unknown collective reduction");
}

Value communicate(OpBuilder &b, Location loc, exec::CollectiveKind kind,
                  exec::ReductionKind reduction, int32_t ranks, Value input,
                  RankedTensorType resultType) {
  Value init = emptyTensor(b, loc, resultType);
  return exec::CommunicateOp::create(b, loc, TypeRange{resultType}, kind,
                                     reduction, ranks, input, init)
      .getResult()[0];
}

/// Elements outside `axis` (the dimensions before it): 1 when blocks along
/// `axis` are contiguous and rank-major already.
int64_t outerElements(RankedTensorType type, int64_t axis) {
  int64_t outer = 1;
  for (int64_t d = 0; d < axis; ++d)
    outer *= type.getDimSize(d);
  return outer;
}

struct AllReduceToCommunicate : OpRewritePattern<AllReduceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AllReduceOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOp(
        op, communicate(rewriter, op.getLoc(), exec::CollectiveKind::all_reduce,
                        reductionOf(op.getReduction()), op.getRanks(),
                        op.getInput(), cast<RankedTensorType>(op.getType())));
    return success();
  }
};

struct AllGatherToCommunicate : OpRewritePattern<AllGatherOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AllGatherOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto input = cast<RankedTensorType>(op.getInput().getType());
    auto result = cast<RankedTensorType>(op.getType());
    int64_t axis = op.getAxis(), ranks = op.getRanks();
    if (outerElements(input, axis) == 1) {
      // Nothing outside the axis: rank after rank is the result's layout.
      rewriter.replaceOp(op, communicate(rewriter, loc,
                                         exec::CollectiveKind::all_gather,
                                         exec::ReductionKind::none, ranks,
                                         op.getInput(), result));
      return success();
    }
    // [ranks, d0, ..., dn) received, then [d0, ..., ranks, d_axis, ...].
    SmallVector<int64_t> stacked = {ranks};
    llvm::append_range(stacked, input.getShape());
    Value gathered =
        communicate(rewriter, loc, exec::CollectiveKind::all_gather,
                    exec::ReductionKind::none, ranks, op.getInput(),
                    RankedTensorType::get(stacked, input.getElementType()));
    // [d0, ..., ranks, d_axis, ...]: the rank dimension moves to `axis`.
    SmallVector<int64_t> permutation;
    for (int64_t d = 1; d <= axis; ++d)
      permutation.push_back(d);
    permutation.push_back(0);
    for (int64_t d = axis + 1; d <= input.getRank(); ++d)
      permutation.push_back(d);
    Value transposed = transposeTensor(rewriter, loc, gathered, permutation);
    rewriter.replaceOp(op, reshapeTensor(rewriter, loc, transposed, result));
    return success();
  }
};

struct ReduceScatterToCommunicate : OpRewritePattern<ReduceScatterOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReduceScatterOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto input = cast<RankedTensorType>(op.getInput().getType());
    auto result = cast<RankedTensorType>(op.getType());
    int64_t axis = op.getAxis(), ranks = op.getRanks();
    exec::ReductionKind reduction = reductionOf(op.getReduction());
    Value send = op.getInput();
    if (outerElements(input, axis) != 1) {
      // [d0, ..., ranks, d_axis / ranks, ...] -> [ranks, d0, ...]: rank r's
      // block is the r-th contiguous one.
      SmallVector<int64_t> blocked(input.getShape().take_front(axis));
      blocked.push_back(ranks);
      llvm::append_range(blocked, result.getShape().drop_front(axis));
      Value split =
          reshapeTensor(rewriter, loc, send,
                        RankedTensorType::get(blocked, input.getElementType()));
      SmallVector<int64_t> permutation = {axis};
      for (int64_t d = 0; d < int64_t(blocked.size()); ++d)
        if (d != axis)
          permutation.push_back(d);
      send = transposeTensor(rewriter, loc, split, permutation);
    }
    rewriter.replaceOp(op, communicate(rewriter, loc,
                                       exec::CollectiveKind::reduce_scatter,
                                       reduction, ranks, send, result));
    return success();
  }
};

} // namespace

void kiln::compiler::populateCollectiveToLinalgPatterns(
    RewritePatternSet &patterns) {
  patterns.add<AllReduceToCommunicate, AllGatherToCommunicate,
               ReduceScatterToCommunicate>(patterns.getContext());
}
