//===- GraphCanonicalization.cpp - Canonicalisation patterns --------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Rewrites that need new ops or attributes (folders cannot create ops):
// chains of reshapes and transposes collapse into one op, and a transpose
// that only moves size-1 dimensions becomes a reshape, which later stages
// treat as free.
//
//===----------------------------------------------------------------------===//

#include "dialects/Graph/IR/GraphOps.h"

#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace kiln;

namespace {

/// reshape(reshape(x)) -> reshape(x)
struct CollapseReshapeChain : OpRewritePattern<ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReshapeOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getInput().getDefiningOp<ReshapeOp>();
    if (!inner)
      return rewriter.notifyMatchFailure(op, "input is not a reshape");
    rewriter.modifyOpInPlace(
        op, [&] { op.getInputMutable().assign(inner.getInput()); });
    return success();
  }
};

/// transpose(transpose(x, p), q) -> transpose(x, p o q)
struct ComposeTransposes : OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getInput().getDefiningOp<TransposeOp>();
    if (!inner)
      return rewriter.notifyMatchFailure(op, "input is not a transpose");
    ArrayRef<int64_t> outer = op.getPermutation();
    ArrayRef<int64_t> first = inner.getPermutation();
    SmallVector<int64_t> composed;
    for (int64_t p : outer)
      composed.push_back(first[p]);
    rewriter.replaceOpWithNewOp<TransposeOp>(op, inner.getInput(), composed);
    return success();
  }
};

/// A transpose that keeps the relative order of all non-unit dimensions only
/// moves size-1 dimensions around: the data layout is unchanged.
struct TransposeOfUnitDimsToReshape : OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    ArrayRef<int64_t> shape = op.getInput().getType().getShape();
    int64_t previous = -1;
    for (int64_t p : op.getPermutation()) {
      if (shape[p] == 1)
        continue;
      if (p < previous)
        return rewriter.notifyMatchFailure(op, "moves non-unit dimensions");
      previous = p;
    }
    rewriter.replaceOpWithNewOp<ReshapeOp>(op, op.getType(), op.getInput());
    return success();
  }
};

} // namespace

void ReshapeOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                            MLIRContext *context) {
  results.add<CollapseReshapeChain>(context);
}

void TransposeOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                              MLIRContext *context) {
  results.add<ComposeTransposes, TransposeOfUnitDimsToReshape>(context);
}
