//===- ReductionToLinalg.cpp - Reductions -> linalg -----------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// A reduction is one linalg.generic with reduction iterators over the
// reduced axes, accumulating into an output initialised with the
// operation's identity. Mean divides afterwards; arg-reductions carry the
// best value and its index as two outputs.
//
//===----------------------------------------------------------------------===//

#include "compiler/Conversion/GraphToLinalg/LoweringUtils.h"
#include "compiler/Conversion/GraphToLinalg/Passes.h"
#include "compiler/Conversion/GraphToLinalg/ScalarOps.h"
#include "dialects/Graph/IR/GraphOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::compiler::lowering;

namespace {

enum class ReduceKind { Sum, Mean, Max, Min, Prod };

template <typename OpTy, ReduceKind Kind>
struct ReduceToGeneric : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto inputType = cast<RankedTensorType>(op.getInput().getType());
    auto resultType = cast<RankedTensorType>(op.getType());
    Type element = resultType.getElementType();
    SmallVector<int64_t> axes =
        normalizeAxes(op.getAxes(), inputType.getRank());

    // An integer mean accumulates in i64 and divides there: the element
    // type can hold neither the sum nor the count in general.
    bool wideMean = Kind == ReduceKind::Mean && isa<IntegerType>(element);
    Value input = op.getInput();
    Type accumulator = element;
    if (wideMean) {
      accumulator = rewriter.getI64Type();
      input = buildElementwise(
          rewriter, loc, RankedTensorType::get(inputType.getShape(), accumulator),
          input, [&](OpBuilder &b, Location l, ValueRange args) {
            return emitCast(b, l, args[0], accumulator);
          });
    }
    auto accumulatorType =
        RankedTensorType::get(resultType.getShape(), accumulator);

    Value init;
    switch (Kind) {
    case ReduceKind::Sum:
    case ReduceKind::Mean:
      init = scalarConstant(rewriter, loc, accumulator, 0.0);
      break;
    case ReduceKind::Prod:
      init = scalarConstant(rewriter, loc, accumulator, 1.0);
      break;
    case ReduceKind::Max:
      init = lowestValue(rewriter, loc, accumulator);
      break;
    case ReduceKind::Min:
      init = highestValue(rewriter, loc, accumulator);
      break;
    }
    Value reduced = buildReduction(
        rewriter, loc, input, axes, accumulatorType, init,
        [](OpBuilder &b, Location l, Value acc, Value x) {
          switch (Kind) {
          case ReduceKind::Sum:
          case ReduceKind::Mean:
            return emitAdd(b, l, acc, x);
          case ReduceKind::Prod:
            return emitMul(b, l, acc, x);
          case ReduceKind::Max:
            return emitMax(b, l, acc, x);
          case ReduceKind::Min:
            return emitMin(b, l, acc, x);
          }
          return Value();
        });
    if (Kind == ReduceKind::Mean) {
      int64_t count = 1;
      for (int64_t axis : axes)
        count *= inputType.getDimSize(axis);
      Value divisor = scalarConstant(rewriter, loc, accumulator, double(count));
      reduced = buildElementwise(rewriter, loc, resultType, reduced,
                                 [&](OpBuilder &b, Location l, ValueRange args) {
                                   Value mean = emitDiv(b, l, args[0], divisor);
                                   return emitCast(b, l, mean, element);
                                 });
    }
    rewriter.replaceOp(op, reduced);
    return success();
  }
};

/// argmax/argmin: outputs (best value, its i64 index) along one axis.
template <typename OpTy, bool IsMax>
struct ArgReduceToGeneric : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *context = rewriter.getContext();
    auto inputType = cast<RankedTensorType>(op.getInput().getType());
    auto indexType = cast<RankedTensorType>(op.getType());
    int64_t rank = inputType.getRank();
    int64_t axis = normalizeAxes({static_cast<int64_t>(op.getAxis())}, rank)[0];
    Type element = inputType.getElementType();
    auto valueType = RankedTensorType::get(indexType.getShape(), element);
    bool keepDims = indexType.getRank() == rank;
    bool selectLast = op.getSelectLastIndex();

    SmallVector<AffineExpr> outputExprs;
    SmallVector<utils::IteratorType> iterators;
    for (int64_t d = 0; d < rank; ++d) {
      iterators.push_back(d == axis ? utils::IteratorType::reduction
                                    : utils::IteratorType::parallel);
      if (d != axis)
        outputExprs.push_back(getAffineDimExpr(d, context));
      else if (keepDims)
        outputExprs.push_back(getAffineConstantExpr(0, context));
    }
    AffineMap outputMap = AffineMap::get(rank, 0, outputExprs, context);
    SmallVector<AffineMap> maps = {
        AffineMap::getMultiDimIdentityMap(rank, context), outputMap, outputMap};
    Value bestInit = filledTensor(
        rewriter, loc, valueType,
        IsMax ? lowestValue(rewriter, loc, element)
              : highestValue(rewriter, loc, element));
    Value indexInit = filledTensor(
        rewriter, loc, indexType,
        scalarConstant(rewriter, loc, rewriter.getI64Type(), 0));
    SmallVector<Value> results = buildGeneric(
        rewriter, loc, TypeRange{valueType, indexType}, op.getInput(),
        ValueRange{bestInit, indexInit}, maps, iterators,
        [&](OpBuilder &b, Location l, ValueRange args) -> SmallVector<Value> {
          Value x = args[0], best = args[1], bestIndex = args[2];
          Value index = arith::IndexCastOp::create(
              b, l, b.getI64Type(), linalg::IndexOp::create(b, l, axis));
          // Strict comparison keeps the first of equal values; non-strict
          // moves to the last.
          ComparePredicate predicate =
              IsMax ? (selectLast ? ComparePredicate::ge : ComparePredicate::gt)
                    : (selectLast ? ComparePredicate::le : ComparePredicate::lt);
          Value better = emitCompare(b, l, predicate, x, best);
          return {arith::SelectOp::create(b, l, better, x, best),
                  arith::SelectOp::create(b, l, better, index, bestIndex)};
        });
    rewriter.replaceOp(op, results[1]);
    return success();
  }
};

} // namespace

void kiln::compiler::populateReductionToLinalgPatterns(
    RewritePatternSet &patterns) {
  patterns.add<ReduceToGeneric<ReduceSumOp, ReduceKind::Sum>,
               ReduceToGeneric<ReduceMeanOp, ReduceKind::Mean>,
               ReduceToGeneric<ReduceMaxOp, ReduceKind::Max>,
               ReduceToGeneric<ReduceMinOp, ReduceKind::Min>,
               ReduceToGeneric<ReduceProdOp, ReduceKind::Prod>,
               ArgReduceToGeneric<ArgMaxOp, true>,
               ArgReduceToGeneric<ArgMinOp, false>>(patterns.getContext());
}
