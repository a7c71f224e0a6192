//===- ElementwiseToLinalg.cpp - Elementwise kiln ops -> linalg -----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Each elementwise op becomes one parallel linalg.generic whose indexing
// maps implement broadcasting; ScalarOps.cpp supplies the per-element
// arithmetic.
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

/// Unary and binary ops: the generic's body is the op's scalar form.
template <typename OpTy> struct ElementwiseToGeneric : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Operation *operation = op.getOperation();
    Value result = buildElementwise(
        rewriter, op.getLoc(), cast<RankedTensorType>(op.getType()),
        operation->getOperands(),
        [&](OpBuilder &b, Location loc, ValueRange args) {
          return args.size() == 1 ? emitUnary(b, loc, operation, args[0])
                                  : emitBinary(b, loc, operation, args[0],
                                               args[1]);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct CompareToGeneric : OpRewritePattern<CompareOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(CompareOp op,
                                PatternRewriter &rewriter) const override {
    ComparePredicate predicate = op.getPredicate();
    rewriter.replaceOp(
        op, buildElementwise(rewriter, op.getLoc(), op.getType(),
                             op->getOperands(),
                             [&](OpBuilder &b, Location loc, ValueRange args) {
                               return emitCompare(b, loc, predicate, args[0],
                                                  args[1]);
                             }));
    return success();
  }
};

struct SelectToGeneric : OpRewritePattern<SelectOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(SelectOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOp(
        op, buildElementwise(rewriter, op.getLoc(), op.getType(),
                             op->getOperands(),
                             [&](OpBuilder &b, Location loc, ValueRange args) {
                               return arith::SelectOp::create(
                                   b, loc, args[0], args[1], args[2]);
                             }));
    return success();
  }
};

struct CastToGeneric : OpRewritePattern<CastOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(CastOp op,
                                PatternRewriter &rewriter) const override {
    Type to = op.getType().getElementType();
    rewriter.replaceOp(
        op, buildElementwise(rewriter, op.getLoc(), op.getType(),
                             op.getInput(),
                             [&](OpBuilder &b, Location loc, ValueRange args) {
                               return emitCast(b, loc, args[0], to);
                             }));
    return success();
  }
};

} // namespace

void kiln::compiler::populateElementwiseToLinalgPatterns(
    RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<
      // Unary.
      ElementwiseToGeneric<NegOp>, ElementwiseToGeneric<AbsOp>,
      ElementwiseToGeneric<SignOp>, ElementwiseToGeneric<ReluOp>,
      ElementwiseToGeneric<ExpOp>, ElementwiseToGeneric<LogOp>,
      ElementwiseToGeneric<SqrtOp>, ElementwiseToGeneric<RsqrtOp>,
      ElementwiseToGeneric<ReciprocalOp>, ElementwiseToGeneric<TanhOp>,
      ElementwiseToGeneric<SigmoidOp>, ElementwiseToGeneric<ErfOp>,
      ElementwiseToGeneric<FloorOp>, ElementwiseToGeneric<CeilOp>,
      ElementwiseToGeneric<SinOp>, ElementwiseToGeneric<CosOp>,
      ElementwiseToGeneric<AcosOp>, ElementwiseToGeneric<AsinOp>,
      ElementwiseToGeneric<AtanOp>, ElementwiseToGeneric<AcoshOp>,
      ElementwiseToGeneric<AsinhOp>, ElementwiseToGeneric<AtanhOp>,
      ElementwiseToGeneric<HardSwishOp>, ElementwiseToGeneric<NotOp>,
      ElementwiseToGeneric<GeluOp>, ElementwiseToGeneric<HardSigmoidOp>,
      ElementwiseToGeneric<LeakyReluOp>, ElementwiseToGeneric<ClipOp>,
      // Binary.
      ElementwiseToGeneric<AddOp>, ElementwiseToGeneric<SubOp>,
      ElementwiseToGeneric<MulOp>, ElementwiseToGeneric<DivOp>,
      ElementwiseToGeneric<RemOp>, ElementwiseToGeneric<PowOp>,
      ElementwiseToGeneric<MinOp>, ElementwiseToGeneric<MaxOp>,
      ElementwiseToGeneric<AndOp>, ElementwiseToGeneric<OrOp>,
      ElementwiseToGeneric<XorOp>, ElementwiseToGeneric<ShiftLeftOp>,
      ElementwiseToGeneric<ShiftRightOp>,
      // Others.
      CompareToGeneric, SelectToGeneric, CastToGeneric>(context);
}
