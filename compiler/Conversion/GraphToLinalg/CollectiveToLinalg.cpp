//===- CollectiveToLinalg.cpp - kiln collectives -> exec.communicate ------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Collectives stay single ops in destination style (exec.communicate) so
// that bufferisation and the memory plan place their buffers and the
// scheduler turns each into one exec.collective step. An all-gather along
// an inner axis receives rank-major bytes and is transposed into place.
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
    if (axis == 0) {
      // Rank after rank along the outermost axis is the result's layout.
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
    int64_t rank = input.getRank() + 1;
    SmallVector<int64_t> moved(input.getShape().take_front(axis));
    moved.push_back(ranks);
    llvm::append_range(moved, input.getShape().drop_front(axis));
    auto movedType = RankedTensorType::get(moved, input.getElementType());
    // moved[i0..i(axis-1), r, i_axis, ...] = gathered[r, i0, ...].
    MLIRContext *context = rewriter.getContext();
    SmallVector<AffineExpr> source = {getAffineDimExpr(axis, context)};
    for (int64_t d = 0; d < rank; ++d)
      if (d != axis)
        source.push_back(getAffineDimExpr(d, context));
    SmallVector<AffineMap> maps = {
        AffineMap::get(rank, 0, source, context),
        AffineMap::getMultiDimIdentityMap(rank, context)};
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    Value transposed =
        buildGeneric(rewriter, loc, movedType, gathered,
                     emptyTensor(rewriter, loc, movedType), maps, iterators,
                     [](OpBuilder &, Location, ValueRange args) {
                       return SmallVector<Value>{args[0]};
                     })[0];
    rewriter.replaceOp(op, reshapeTensor(rewriter, loc, transposed, result));
    return success();
  }
};

} // namespace

void kiln::compiler::populateCollectiveToLinalgPatterns(
    RewritePatternSet &patterns) {
  patterns.add<AllReduceToCommunicate, AllGatherToCommunicate>(
      patterns.getContext());
}
