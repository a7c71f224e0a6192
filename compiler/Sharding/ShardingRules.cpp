//===- ShardingRules.cpp - Propagation rules per op family ----------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The table: elementwise ops keep a split of a dimension their result has;
// matmul and gemm split rows, columns (tensor parallelism: a constant
// weight's columns when the input is replicated) or the reduction (giving
// a partial sum); reshapes and transposes move a split to the dimension
// that holds the same elements; normalisations and reductions keep a split
// they do not reduce over; convolutions, pooling and batch norm keep a
// split batch. Everything else runs replicated.
//
//===----------------------------------------------------------------------===//

#include "compiler/Sharding/ShardingRules.h"

#include "compiler/Fusion/FusionRules.h"
#include "dialects/Graph/IR/GraphOps.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

namespace kiln::compiler::sharding {

std::string Sharding::str() const {
  switch (kind) {
  case Kind::kReplicated:
    return "replicated";
  case Kind::kSplit:
    return "split(" + std::to_string(dim) + ")";
  case Kind::kPartial:
    return "partial";
  }
  return "?";
}

RankedTensorType localType(RankedTensorType global, Sharding sharding,
                           int64_t ranks) {
  if (!sharding.isSplit())
    return global;
  SmallVector<int64_t> shape(global.getShape());
  shape[sharding.dim] /= ranks;
  return RankedTensorType::get(shape, global.getElementType());
}

namespace {

RankedTensorType typeOf(Value value) {
  return cast<RankedTensorType>(value.getType());
}

int64_t normalized(int64_t axis, int64_t rank) {
  return axis < 0 ? axis + rank : axis;
}

Decision replicatedDecision(Operation *op) {
  Decision decision;
  decision.operands.assign(op->getNumOperands(), Sharding::replicated());
  return decision;
}

/// Keeps `current` for the first operand and nothing else (ops whose other
/// operands are small parameters).
Decision splitFirstOperand(Operation *op, Sharding first, Sharding result) {
  Decision decision = replicatedDecision(op);
  decision.operands[0] = first;
  decision.result = result;
  return decision;
}

/// A weight the rules may lay out: a constant, or slices and reshapes of
/// one (folded later), that no `kiln.shard` annotation has laid out.
bool isConstant(Value value) {
  Operation *op = value.getDefiningOp();
  while (isa_and_present<SliceOp, ReshapeOp, TransposeOp, CastOp>(op))
    op = op->getOperand(0).getDefiningOp();
  return isa_and_present<ConstantOp>(op) && !op->hasAttr(kShardAnnotation);
}

/// Whether constant weights are split by columns (tensor parallelism, with
/// or without sequence parallelism).
bool columnParallel(const RuleContext &context) {
  return context.strategy == Strategy::kTensor ||
         context.strategy == Strategy::kSequence;
}

Decision elementwise(Operation *op, ArrayRef<Sharding> current) {
  RankedTensorType result = typeOf(op->getResult(0));
  int64_t rank = result.getRank();
  std::optional<int64_t> dim;
  for (auto [operand, sharding] : llvm::zip(op->getOperands(), current)) {
    if (!sharding.isSplit())
      continue;
    RankedTensorType type = typeOf(operand);
    int64_t resultDim = sharding.dim + rank - type.getRank();
    if (type.getDimSize(sharding.dim) == result.getDimSize(resultDim)) {
      dim = resultDim;
      break;
    }
  }
  Decision decision = replicatedDecision(op);
  if (!dim)
    return decision;
  for (auto [index, operand] : llvm::enumerate(op->getOperands())) {
    RankedTensorType type = typeOf(operand);
    int64_t own = *dim - (rank - type.getRank());
    // A dimension broadcast along the split is read whole on every rank.
    if (own >= 0 && type.getDimSize(own) == result.getDimSize(*dim))
      decision.operands[index] = Sharding::split(own);
  }
  decision.result = Sharding::split(*dim);
  return decision;
}

/// Batched matmul [B..., M, K] x [B'..., K, N] -> [B''..., M, N].
Decision matmul(MatmulOp op, ArrayRef<Sharding> current,
                const RuleContext &context) {
  RankedTensorType lhs = typeOf(op.getLhs()), rhs = typeOf(op.getRhs());
  RankedTensorType result = typeOf(op.getResult());
  int64_t l = lhs.getRank(), r = rhs.getRank(), n = result.getRank();
  Decision decision = replicatedDecision(op);
  Sharding a = current[0], b = current[1];
  // Sequence parallelism: tokens split between blocks are gathered for the
  // next block's column-parallel weight, which every rank holds a slice of.
  if (context.strategy == Strategy::kSequence && a.isSplit() &&
      a.dim != l - 1 && b.isReplicated() && r == 2 && isConstant(op.getRhs()) &&
      rhs.getDimSize(1) % context.ranks == 0)
    a = Sharding::replicated();
  // The batch dimension `resultDim` of an operand of rank `k`, if it has
  // one that is not broadcast.
  auto batchDim = [&](RankedTensorType type,
                      int64_t resultDim) -> std::optional<int64_t> {
    int64_t own = resultDim - (n - type.getRank());
    if (own < 0 || type.getDimSize(own) != result.getDimSize(resultDim))
      return std::nullopt;
    return own;
  };
  if (a.isSplit()) {
    if (a.dim == l - 1) { // K: a partial sum per rank.
      decision.operands = {a, Sharding::split(r - 2)};
      decision.result = Sharding::partial();
      return decision;
    }
    if (a.dim == l - 2) { // M: rows.
      decision.operands = {a, Sharding::replicated()};
      decision.result = Sharding::split(n - 2);
      return decision;
    }
    int64_t resultDim = a.dim + n - l;
    std::optional<int64_t> other = batchDim(rhs, resultDim);
    decision.operands = {a, other ? Sharding::split(*other)
                                  : Sharding::replicated()};
    decision.result = Sharding::split(resultDim);
    return decision;
  }
  if (b.isSplit()) {
    if (b.dim == r - 1) { // N: columns.
      decision.operands = {Sharding::replicated(), b};
      decision.result = Sharding::split(n - 1);
      return decision;
    }
    if (b.dim == r - 2) { // K
      decision.operands = {Sharding::split(l - 1), b};
      decision.result = Sharding::partial();
      return decision;
    }
    int64_t resultDim = b.dim + n - r;
    std::optional<int64_t> other = batchDim(lhs, resultDim);
    decision.operands = {
        other ? Sharding::split(*other) : Sharding::replicated(), b};
    decision.result = Sharding::split(resultDim);
    return decision;
  }
  // Column parallelism (Megatron's first half): a constant weight split by
  // columns, so that the next contraction can take a split reduction.
  int64_t columns = rhs.getDimSize(r - 1);
  if (columnParallel(context) && r == 2 && isConstant(op.getRhs()) &&
      columns % context.ranks == 0) {
    decision.operands = {Sharding::replicated(), Sharding::split(1)};
    decision.result = Sharding::split(n - 1);
  }
  return decision;
}

/// Gemm: op(A) [M, K] x op(B) [K, N] (+ C broadcast to [M, N]).
Decision gemm(GemmOp op, ArrayRef<Sharding> current,
              const RuleContext &context) {
  bool transA = op.getTransA(), transB = op.getTransB();
  // Which dimension of A holds M and K, and of B holds K and N.
  int64_t aM = transA ? 1 : 0, aK = 1 - aM;
  int64_t bK = transB ? 1 : 0, bN = 1 - bK;
  RankedTensorType result = typeOf(op.getResult());
  Decision decision = replicatedDecision(op);
  bool hasC = bool(op.getC());
  // C split like the result along `resultDim` where it is not broadcast.
  auto cFor = [&](int64_t resultDim) {
    if (!hasC)
      return Sharding::replicated();
    RankedTensorType c = typeOf(op.getC());
    int64_t own = resultDim - (2 - c.getRank());
    if (own < 0 || c.getDimSize(own) != result.getDimSize(resultDim))
      return Sharding::replicated();
    return Sharding::split(own);
  };
  auto set = [&](Sharding a, Sharding b, Sharding out) {
    decision.operands[0] = a;
    decision.operands[1] = b;
    if (out.isSplit() && hasC)
      decision.operands[2] = cFor(out.dim);
    if (out.isPartial() && hasC)
      decision.dropOnOtherRanks = 2; // The bias counts once, on rank 0.
    decision.result = out;
  };
  Sharding a = current[0], b = current[1];
  bool columnWeight =
      isConstant(op.getB()) && result.getDimSize(1) % context.ranks == 0;
  // Sequence parallelism: as for matmul, gather split tokens first.
  if (context.strategy == Strategy::kSequence && a.isSplit() && a.dim != aK &&
      b.isReplicated() && columnWeight)
    a = Sharding::replicated();
  if (a.isSplit() && a.dim == aK)
    set(a, Sharding::split(bK), Sharding::partial());
  else if (a.isSplit())
    set(a, Sharding::replicated(), Sharding::split(0));
  else if (b.isSplit() && b.dim == bK)
    set(Sharding::split(aK), b, Sharding::partial());
  else if (b.isSplit())
    set(Sharding::replicated(), b, Sharding::split(1));
  else if (columnParallel(context) && columnWeight)
    set(Sharding::replicated(), Sharding::split(bN), Sharding::split(1));
  return decision;
}

/// The result dimension holding the elements of input dimension `dim`'s
/// slices: the one after the same number of leading elements, and itself
/// divisible by the ranks (then rank r's slice is the same flat range).
std::optional<int64_t> reshapedDim(RankedTensorType input,
                                   RankedTensorType result, int64_t dim,
                                   int64_t ranks) {
  int64_t before = 1;
  for (int64_t d = 0; d < dim; ++d)
    before *= input.getDimSize(d);
  int64_t prefix = 1;
  for (int64_t e = 0; e < result.getRank(); ++e) {
    if (prefix == before && result.getDimSize(e) > 1 &&
        result.getDimSize(e) % ranks == 0)
      return e;
    prefix *= result.getDimSize(e);
    if (prefix > before)
      break;
  }
  return std::nullopt;
}

} // namespace

std::optional<int64_t> tokenSplitDim(Operation *op, unsigned operand,
                                     const RuleContext &context) {
  if (context.strategy != Strategy::kSequence || op->getNumResults() != 1)
    return std::nullopt;
  auto type = dyn_cast<RankedTensorType>(op->getOperand(operand).getType());
  if (!type || type != op->getResult(0).getType())
    return std::nullopt;
  // Dimensions before `end` may be split.
  int64_t end;
  if (auto norm = dyn_cast<LayerNormOp>(op)) {
    if (operand != 0)
      return std::nullopt;
    end = normalized(norm.getAxis(), type.getRank());
  } else if (kiln::compiler::fusionRoleOf(op) ==
             kiln::compiler::FusionRole::kElementwise) {
    end = type.getRank() - 1; // The hidden dimension stays whole.
  } else {
    return std::nullopt;
  }
  for (int64_t d = 0; d < end; ++d)
    if (type.getDimSize(d) > 1 && type.getDimSize(d) % context.ranks == 0)
      return d;
  return std::nullopt;
}

bool addsTokenResidual(Operation *op, ArrayRef<Sharding> current,
                       const RuleContext &context) {
  if (!isa<AddOp>(op) || current.size() != 2 ||
      current[0].isPartial() == current[1].isPartial())
    return false;
  unsigned partial = current[0].isPartial() ? 0 : 1;
  Sharding residual = current[1 - partial];
  std::optional<int64_t> tokens = tokenSplitDim(op, partial, context);
  return tokens && residual.isSplit() && residual.dim == *tokens &&
         op->getOperand(1 - partial).getType() == op->getResult(0).getType();
}

bool keepsPartial(Operation *op, ArrayRef<Sharding> current) {
  if (llvm::none_of(current, [](Sharding s) { return s.isPartial(); }))
    return false;
  if (isa<ReshapeOp, TransposeOp, NegOp>(op))
    return true;
  if (op->getNumOperands() != 2 || op->getNumResults() != 1)
    return false;
  Type result = op->getResult(0).getType();
  // A partial operand must already have the result's shape: the skipped
  // ranks pass it on unchanged.
  bool fullShape0 = op->getOperand(0).getType() == result;
  bool fullShape1 = op->getOperand(1).getType() == result;
  bool p0 = current[0].isPartial(), p1 = current[1].isPartial();
  if (isa<AddOp>(op))
    return (p0 && p1) || (p0 && fullShape0) || (p1 && fullShape1);
  if (isa<SubOp>(op))
    return (p0 && p1) || (p0 && fullShape0);
  if (isa<MulOp>(op))
    return p0 != p1 && (p0 ? fullShape0 : fullShape1);
  if (isa<DivOp>(op))
    return p0 && !p1 && fullShape0;
  return false;
}

Decision decide(Operation *op, ArrayRef<Sharding> current,
                const RuleContext &context) {
  // Every piece of a split keeps a split of another dimension.
  if (auto split = dyn_cast<SplitOp>(op)) {
    Sharding input = current[0];
    int64_t axis =
        normalized(split.getAxis(), typeOf(split.getInput()).getRank());
    if (input.isSplit() && input.dim != axis)
      return splitFirstOperand(op, input, input);
    return replicatedDecision(op);
  }
  if (op->getNumResults() != 1 ||
      !isa<RankedTensorType>(op->getResult(0).getType()))
    return replicatedDecision(op);
  if (keepsPartial(op, current)) {
    Decision decision = replicatedDecision(op);
    decision.result = Sharding::partial();
    if (isa<ReshapeOp, TransposeOp, NegOp>(op)) {
      decision.operands[0] = Sharding::partial();
      return decision;
    }
    bool p0 = current[0].isPartial(), p1 = current[1].isPartial();
    decision.operands = {p0 ? Sharding::partial() : Sharding::replicated(),
                         p1 ? Sharding::partial() : Sharding::replicated()};
    // A replicated addend joins the sum once: on rank 0.
    if (isa<AddOp, SubOp>(op) && p0 != p1)
      decision.skipOnOtherRanksFor = p0 ? 0 : 1;
    return decision;
  }

  Sharding first = current.empty() ? Sharding() : current[0];
  auto keepFirst = [&](std::optional<int64_t> resultDim) {
    if (!first.isSplit() || !resultDim)
      return replicatedDecision(op);
    return splitFirstOperand(op, first, Sharding::split(*resultDim));
  };
  auto onlyBatch = [&]() {
    return keepFirst(first.isSplit() && first.dim == 0
                         ? std::optional<int64_t>(0)
                         : std::nullopt);
  };
  if (kiln::compiler::fusionRoleOf(op) ==
      kiln::compiler::FusionRole::kElementwise)
    return elementwise(op, current);
  return llvm::TypeSwitch<Operation *, Decision>(op)
      .Case(
          [&](MatmulOp matmulOp) { return matmul(matmulOp, current, context); })
      .Case([&](GemmOp gemmOp) { return gemm(gemmOp, current, context); })
      .Case([&](ReshapeOp reshape) {
        if (!first.isSplit())
          return replicatedDecision(op);
        return keepFirst(reshapedDim(typeOf(reshape.getInput()),
                                     typeOf(reshape.getResult()), first.dim,
                                     context.ranks));
      })
      .Case([&](TransposeOp transpose) {
        if (!first.isSplit())
          return replicatedDecision(op);
        ArrayRef<int64_t> permutation = transpose.getPermutation();
        auto *it = llvm::find(permutation, first.dim);
        return keepFirst(int64_t(it - permutation.begin()));
      })
      .Case<SoftmaxOp, LogSoftmaxOp>([&](auto softmax) {
        int64_t axis =
            normalized(softmax.getAxis(), typeOf(softmax.getInput()).getRank());
        return keepFirst(first.isSplit() && first.dim != axis
                             ? std::optional<int64_t>(first.dim)
                             : std::nullopt);
      })
      .Case([&](LayerNormOp norm) {
        int64_t axis =
            normalized(norm.getAxis(), typeOf(norm.getInput()).getRank());
        return keepFirst(first.isSplit() && first.dim < axis
                             ? std::optional<int64_t>(first.dim)
                             : std::nullopt);
      })
      .Case<ReduceSumOp, ReduceMeanOp, ReduceMaxOp, ReduceMinOp, ReduceProdOp>(
          [&](auto reduce) {
            if (!first.isSplit())
              return replicatedDecision(op);
            int64_t rank = typeOf(reduce.getInput()).getRank();
            int64_t removedBefore = 0;
            for (int64_t axis : reduce.getAxes()) {
              int64_t a = normalized(axis, rank);
              if (a == first.dim)
                return replicatedDecision(op);
              removedBefore += a < first.dim;
            }
            return keepFirst(reduce.getKeepDims() ? first.dim
                                                  : first.dim - removedBefore);
          })
      .Case([&](GatherOp gather) {
        // Rows of the indices select rows of the result (embeddings).
        Sharding indices = current[1];
        if (!indices.isSplit() || !current[0].isReplicated())
          return replicatedDecision(op);
        int64_t axis =
            normalized(gather.getAxis(), typeOf(gather.getInput()).getRank());
        Decision decision = replicatedDecision(op);
        decision.operands[1] = indices;
        decision.result = Sharding::split(axis + indices.dim);
        return decision;
      })
      .Case<Conv2dOp, MaxPool2dOp, AvgPool2dOp, GlobalAvgPoolOp,
            GlobalMaxPoolOp, BatchNormOp>(
          [&](Operation *) { return onlyBatch(); })
      .Default([&](Operation *) { return replicatedDecision(op); });
}

} // namespace kiln::compiler::sharding
