//===- LowerVectorOps.cpp - High-level vector ops to what LLVM maps well --===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Unit dimensions go; contractions become outer products and those FMAs on 1-D
// vectors (the register-blocked GEMM of toolchain.md); multi-reductions reduce
// along the innermost dimension; transposes, broadcasts and shape casts become
// 1-D shuffles. convert-vector-to-scf then unrolls the n-D transfers.
//
//===----------------------------------------------------------------------===//

#include "compiler/Codegen/CPU/Passes.h"
#include "compiler/Codegen/CPU/ReadPosition.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace kiln::compiler {
#define GEN_PASS_DEF_LOWERVECTOROPSPASS
#include "compiler/Codegen/CPU/Passes.h.inc"
} // namespace kiln::compiler

using namespace mlir;

namespace {

/// Largest innermost stride a read is widened over: every stride-th lane
/// of the wide read is kept, so wider strides waste most of the load.
constexpr int64_t kMaxWidenedStride = 4;

/// A 1-D read along a dimension of constant stride s > 1 (a stride-2
/// pooling window, im2col of a strided convolution) would become one
/// scalar load per lane. It becomes one contiguous read of the
/// (lanes - 1) * s + 1 elements it spans, masked to them, and a shuffle
/// keeping every s-th lane: a couple of vector loads and a permute.
struct WidenStridedRead : OpRewritePattern<vector::TransferReadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::TransferReadOp read,
                                PatternRewriter &rewriter) const override {
    auto source = dyn_cast<MemRefType>(read.getBase().getType());
    VectorType vectorType = read.getVectorType();
    if (!source || vectorType.getRank() != 1 || vectorType.isScalable() ||
        read.getMask() || !read.getPermutationMap().isMinorIdentity() ||
        !read.getInBoundsValues().front())
      return failure();
    SmallVector<int64_t> strides;
    int64_t offset;
    if (failed(source.getStridesAndOffset(strides, offset)) || strides.empty())
      return failure();
    int64_t stride = strides.back();
    if (ShapedType::isDynamic(stride) || stride < 2 ||
        stride > kMaxWidenedStride)
      return failure();
    Location loc = read.getLoc();
    kiln::compiler::ReadPosition position =
        kiln::compiler::readPosition(rewriter, read);
    Value start = position.element;
    int64_t lanes = vectorType.getNumElements();
    int64_t span = (lanes - 1) * stride + 1;
    Type element = vectorType.getElementType();
    auto spanType =
        MemRefType::get({span}, element,
                        StridedLayoutAttr::get(rewriter.getContext(),
                                               ShapedType::kDynamic, {1}),
                        source.getMemorySpace());
    Value contiguous = memref::ReinterpretCastOp::create(
        rewriter, loc, spanType, position.base, OpFoldResult(start),
        ArrayRef<OpFoldResult>{rewriter.getIndexAttr(span)},
        ArrayRef<OpFoldResult>{rewriter.getIndexAttr(1)});
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value wide = vector::TransferReadOp::create(
        rewriter, loc, VectorType::get({lanes * stride}, element), contiguous,
        ValueRange{zero}, read.getPadding(),
        /*inBounds=*/ArrayRef<bool>{false});
    SmallVector<int64_t> every;
    for (int64_t lane = 0; lane < lanes; ++lane)
      every.push_back(lane * stride);
    rewriter.replaceOpWithNewOp<vector::ShuffleOp>(read, wide, wide, every);
    return success();
  }
};

/// A contraction whose reduction is stepped by one and whose only wide
/// loop is the vector's: a grouped convolution's tile (one weight broadcast
/// over a row of output columns, between unit group, channel and window
/// dimensions), or the one-column tail of a matmul (a column of weights
/// times one broadcast input). The outer-product lowering wants a plain
/// matmul and would reduce the first lane by lane and make the second one
/// scalar FMA per row; matmul tiles (rows and columns) keep it.
bool isBroadcastContraction(vector::ContractionOp contract) {
  SmallVector<int64_t> ranges;
  contract.getIterationBounds(ranges);
  int64_t wideParallel = 0;
  for (auto [range, iterator] :
       llvm::zip(ranges, contract.getIteratorTypesArray())) {
    if (iterator == vector::IteratorType::reduction && range != 1)
      return false;
    if (iterator == vector::IteratorType::parallel && range != 1)
      ++wideParallel;
  }
  return wideParallel <= 1;
}

struct LowerVectorOpsPass
    : kiln::compiler::impl::LowerVectorOpsPassBase<LowerVectorOpsPass> {
  /// Broadcast contractions become elementwise FMAs (the parallel-arith
  /// lowering); matmul tiles keep the outer products below.
  LogicalResult lowerBroadcastContractions() {
    SmallVector<Operation *> contracts;
    getOperation().walk([&](vector::ContractionOp contract) {
      if (isBroadcastContraction(contract))
        contracts.push_back(contract);
    });
    if (contracts.empty())
      return success();
    RewritePatternSet patterns(&getContext());
    vector::populateVectorContractLoweringPatterns(
        patterns, vector::VectorContractLowering::ParallelArith);
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingOps);
    return applyOpPatternsGreedily(contracts, std::move(patterns), config);
  }

  void runOnOperation() override {
    MLIRContext *context = &getContext();
    if (failed(lowerBroadcastContractions()))
      return signalPassFailure();
    {
      // A reduction over unit dimensions only (a pooling window's (kh, kw)
      // in a tile) is an elementwise combine with its accumulator. Folded
      // first: the inner-reduction lowering would transpose it and reduce
      // lane by lane, scalarising the tile.
      RewritePatternSet patterns(context);
      vector::MultiDimReductionOp::getCanonicalizationPatterns(patterns,
                                                               context);
      if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
        return signalPassFailure();
    }
    {
      RewritePatternSet patterns(context);
      // Tiles are 1x..xN: without the unit dimensions elementwise ops are
      // 1-D, which is what math-to-llvm and arith-to-llvm lower.
      vector::populateCastAwayVectorLeadingOneDimPatterns(patterns);
      vector::populateDropUnitDimWithShapeCastPatterns(patterns);
      vector::populateVectorContractLoweringPatterns(
          patterns, vector::VectorContractLowering::OuterProduct);
      vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
      vector::populateVectorMultiReductionLoweringPatterns(
          patterns, vector::VectorMultiReductionLowering::InnerReduction);
      vector::populateVectorStepLoweringPatterns(patterns);
      patterns.add<WidenStridedRead>(context);
      if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
        return signalPassFailure();
    }
    RewritePatternSet patterns(context);
    vector::populateVectorOuterProductLoweringPatterns(patterns);
    vector::populateVectorBroadcastLoweringPatterns(patterns);
    vector::populateVectorTransposeLoweringPatterns(
        patterns, vector::VectorTransposeLowering::Shuffle1D);
    vector::populateVectorShapeCastLoweringPatterns(patterns);
    vector::populateVectorMaskOpLoweringPatterns(patterns);
    vector::populateVectorInsertExtractStridedSliceTransforms(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
