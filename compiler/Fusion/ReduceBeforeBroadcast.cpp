//===- ReduceBeforeBroadcast.cpp - Reduce once, then broadcast ------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "compiler/Fusion/ReduceBeforeBroadcast.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AffineMap.h"
#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;

namespace kiln::compiler {

namespace {

struct ReduceBeforeBroadcast : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() || op.getNumDpsInits() != 1 ||
        op.getNumReductionLoops() == 0 || op.hasIndexSemantics())
      return failure();
    OpOperand *init = op.getDpsInitOperand(0);
    auto fill = init->get().getDefiningOp<linalg::FillOp>();
    auto outType = dyn_cast<RankedTensorType>(init->get().getType());
    AffineMap outMap = op.getMatchingIndexingMap(init);
    if (!fill || !outType || !outType.hasStaticShape() ||
        !outMap.isProjectedPermutation())
      return failure();

    // Loops some input reads; the others only spread the result.
    unsigned loops = op.getNumLoops();
    llvm::SmallBitVector read(loops);
    for (OpOperand *input : op.getDpsInputOperands())
      op.getMatchingIndexingMap(input).walkExprs([&](AffineExpr expr) {
        if (auto dim = dyn_cast<AffineDimExpr>(expr))
          read.set(dim.getPosition());
      });
    // Loops dropped, and the output dimensions they index.
    llvm::SmallBitVector dropped(loops);
    llvm::SmallBitVector droppedResultBits(outMap.getNumResults());
    SmallVector<int64_t> keptShape;
    for (auto [position, expr] : llvm::enumerate(outMap.getResults())) {
      unsigned dim = cast<AffineDimExpr>(expr).getPosition();
      if (read.test(dim)) {
        keptShape.push_back(outType.getDimSize(position));
      } else {
        dropped.set(dim);
        droppedResultBits.set(position);
      }
    }
    if (droppedResultBits.none())
      return failure();

    // The reduction over the loops that matter, from the same fill value.
    Location loc = op.getLoc();
    Type element = outType.getElementType();
    Value empty = tensor::EmptyOp::create(rewriter, loc, keptShape, element);
    Value reducedInit =
        linalg::FillOp::create(rewriter, loc, fill.getInputs()[0], empty)
            .getResult(0);
    SmallVector<AffineMap> maps;
    for (OpOperand *input : op.getDpsInputOperands())
      maps.push_back(compressDims(op.getMatchingIndexingMap(input), dropped));
    maps.push_back(compressDims(outMap.dropResults(droppedResultBits), dropped));
    SmallVector<utils::IteratorType> iterators;
    for (auto [loop, type] : llvm::enumerate(op.getIteratorTypesArray()))
      if (!dropped.test(loop))
        iterators.push_back(type);
    auto reduced = linalg::GenericOp::create(
        rewriter, loc, TypeRange{reducedInit.getType()}, op.getDpsInputs(),
        ValueRange{reducedInit}, maps, iterators);
    rewriter.inlineRegionBefore(op.getRegion(), reduced.getRegion(),
                                reduced.getRegion().begin());

    // Then spread it along the dropped loops.
    unsigned rank = unsigned(outType.getRank());
    SmallVector<AffineExpr> keptDims;
    for (unsigned d = 0; d < rank; ++d)
      if (!droppedResultBits.test(d))
        keptDims.push_back(rewriter.getAffineDimExpr(d));
    AffineMap spread = AffineMap::get(rank, 0, keptDims, op.getContext());
    AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
    Value full = tensor::EmptyOp::create(rewriter, loc, outType.getShape(),
                                         element);
    auto broadcast = linalg::GenericOp::create(
        rewriter, loc, TypeRange{outType}, ValueRange{reduced.getResult(0)},
        ValueRange{full}, ArrayRef<AffineMap>{spread, identity},
        SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
        [](OpBuilder &builder, Location loc, ValueRange args) {
          linalg::YieldOp::create(builder, loc, args[0]);
        });
    // Both keep the op's annotations (its fusion group).
    for (NamedAttribute attr : op->getDiscardableAttrs()) {
      reduced->setAttr(attr.getName(), attr.getValue());
      broadcast->setAttr(attr.getName(), attr.getValue());
    }
    rewriter.replaceOp(op, broadcast.getResults());
    return success();
  }
};

} // namespace

void populateReduceBeforeBroadcastPatterns(RewritePatternSet &patterns) {
  patterns.add<ReduceBeforeBroadcast>(patterns.getContext());
}

} // namespace kiln::compiler
