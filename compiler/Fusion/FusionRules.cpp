//===- FusionRules.cpp - Which graph ops may share a kernel ---------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Explicit lists rather than a trait: a new op stays unfused (always
// correct) until someone decides how it fuses.
//
//===----------------------------------------------------------------------===//

#include "compiler/Fusion/FusionRules.h"

#include "dialects/Graph/IR/GraphOps.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;

namespace kiln::compiler {

FusionRole fusionRoleOf(Operation *op) {
  if (isa<ConstantOp>(op))
    return FusionRole::kConstant;
  if (isa<NegOp, AbsOp, SignOp, ReluOp, ExpOp, LogOp, SqrtOp, RsqrtOp,
          ReciprocalOp, TanhOp, SigmoidOp, ErfOp, FloorOp, CeilOp, SinOp, CosOp,
          AcosOp, AsinOp, AtanOp, AcoshOp, AsinhOp, AtanhOp, HardSwishOp, NotOp,
          GeluOp, HardSigmoidOp, LeakyReluOp, ClipOp, AddOp, SubOp, MulOp,
          DivOp, RemOp, PowOp, MinOp, MaxOp, AndOp, OrOp, XorOp, ShiftLeftOp,
          ShiftRightOp, CompareOp,
          SelectOp, CastOp>(op))
    return FusionRole::kElementwise;
  if (isa<SoftmaxOp, LogSoftmaxOp, LayerNormOp, BatchNormOp, ReduceSumOp,
          ReduceMeanOp, ReduceMaxOp, ReduceMinOp, ReduceProdOp, GlobalAvgPoolOp,
          GlobalMaxPoolOp>(op))
    return FusionRole::kReduction;
  if (isa<MatmulOp, GemmOp, Conv2dOp, WeightOnlyMatmulOp>(op))
    return FusionRole::kContraction;
  return FusionRole::kNone;
}

void inlineFusionGroup(Operation *op) {
  auto group = cast<FusionOp>(op);
  IRRewriter rewriter(group.getContext());
  YieldOp yield = group.getYield();
  SmallVector<Value> results(yield.getValues());
  // A yielded body argument is the matching input once the body is inlined.
  for (Value &result : results)
    if (auto argument = dyn_cast<BlockArgument>(result);
        argument && argument.getOwner() == &group.getBodyBlock())
      result = group.getInputs()[argument.getArgNumber()];
  rewriter.setInsertionPoint(group);
  rewriter.inlineBlockBefore(&group.getBodyBlock(), group, group.getInputs());
  rewriter.eraseOp(yield);
  rewriter.replaceOp(group, results);
}

const char *fusionKindName(FusionRole role) {
  switch (role) {
  case FusionRole::kReduction:
    return "reduction";
  case FusionRole::kContraction:
    return "contraction";
  default:
    return "elementwise";
  }
}

} // namespace kiln::compiler
