//===- FuseCollectives.cpp - Small collectives as one ---------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "compiler/Sharding/FuseCollectives.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace kiln;

namespace kiln::compiler::sharding {

namespace {

/// Bytes a collective delivers to each rank.
int64_t bytesOf(Operation *op) {
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  return type.getNumElements() *
         ((type.getElementType().getIntOrFloatBitWidth() + 7) / 8);
}

Type elementOf(Value value) {
  return cast<RankedTensorType>(value.getType()).getElementType();
}

/// Whether `a` and `b` are both `Op`s of one reduction over the same ranks.
template <typename Op> bool sameReduction(Operation *a, Operation *b) {
  auto x = cast<Op>(a);
  auto y = dyn_cast<Op>(b);
  return y && x.getReduction() == y.getReduction() &&
         x.getRanks() == y.getRanks();
}

/// Whether `a` and `b` can be one collective: all-reduces or
/// reduce-scatters (along any axes) of one reduction, or all-gathers
/// (along any axes), over the same ranks and element type.
bool sameKind(Operation *a, Operation *b) {
  if (elementOf(a->getResult(0)) != elementOf(b->getResult(0)))
    return false;
  if (isa<AllReduceOp>(a))
    return sameReduction<AllReduceOp>(a, b);
  if (isa<ReduceScatterOp>(a))
    return sameReduction<ReduceScatterOp>(a, b);
  auto x = cast<AllGatherOp>(a);
  auto y = dyn_cast<AllGatherOp>(b);
  return y && x.getRanks() == y.getRanks();
}

/// Whether `value` is computed, however indirectly, from `source`.
bool dependsOn(Value value, Value source) {
  SmallVector<Value> worklist{value};
  DenseSet<Value> seen;
  while (!worklist.empty()) {
    Value next = worklist.pop_back_val();
    if (next == source)
      return true;
    if (!seen.insert(next).second)
      continue;
    if (Operation *op = next.getDefiningOp())
      llvm::append_range(worklist, op->getOperands());
  }
  return false;
}

} // namespace

SmallVector<SmallVector<Operation *>>
fusibleCollectives(ArrayRef<MadeCollective> collectives, int64_t maxBytes) {
  SmallVector<SmallVector<Operation *>> groups;
  SmallVector<MadeCollective> run;
  auto flush = [&] {
    if (run.size() > 1) {
      groups.emplace_back();
      for (const MadeCollective &member : run)
        groups.back().push_back(member.op);
    }
    run.clear();
  };
  for (const MadeCollective &made : collectives) {
    if (!isa<AllReduceOp, AllGatherOp, ReduceScatterOp>(made.op) ||
        bytesOf(made.op) > maxBytes) {
      flush();
      continue;
    }
    bool joins = !run.empty() && sameKind(run.front().op, made.op) &&
                 llvm::none_of(run, [&](const MadeCollective &member) {
                   return dependsOn(made.original, member.original);
                 });
    if (!joins)
      flush();
    run.push_back(made);
  }
  flush();
  return groups;
}

namespace {

/// One rank's part of an all-gather's result, flattened: its input.
Value flatInput(OpBuilder &builder, Operation *member) {
  Value input = member->getOperand(0);
  auto type = cast<RankedTensorType>(input.getType());
  return ReshapeOp::create(
      builder, member->getLoc(),
      RankedTensorType::get({type.getNumElements()}, type.getElementType()),
      input);
}

/// A reduce-scatter's input as [ranks, size] rows, row r the block of
/// its axis that rank r keeps: concatenated along the columns, the rows
/// are what one reduce-scatter along axis 0 hands out.
Value scatterRows(OpBuilder &builder, ReduceScatterOp member) {
  Location loc = member.getLoc();
  auto input = cast<RankedTensorType>(member.getInput().getType());
  Type element = input.getElementType();
  int64_t ranks = member.getRanks(), axis = member.getAxis();
  // [..., ranks, dim / ranks, ...], then the rank dimension first.
  SmallVector<int64_t> blocks;
  for (int64_t d = 0; d < input.getRank(); ++d) {
    if (d == axis)
      blocks.push_back(ranks);
    blocks.push_back(d == axis ? input.getDimSize(d) / ranks
                               : input.getDimSize(d));
  }
  Value rows = ReshapeOp::create(
      builder, loc, RankedTensorType::get(blocks, element), member.getInput());
  if (axis > 0) {
    SmallVector<int64_t> permutation{axis}, shape{ranks};
    for (int64_t d = 0; d < int64_t(blocks.size()); ++d)
      if (d != axis) {
        permutation.push_back(d);
        shape.push_back(blocks[d]);
      }
    rows = TransposeOp::create(
        builder, loc, RankedTensorType::get(shape, element), rows, permutation);
  }
  return ReshapeOp::create(
      builder, loc,
      RankedTensorType::get({ranks, input.getNumElements() / ranks}, element),
      rows);
}

/// An all-gather's result from the fused gather's [ranks, total] rows:
/// its columns [offset, offset + size), each rank's block put back along
/// the member's axis.
Value gatheredPart(OpBuilder &builder, AllGatherOp member, Value rows,
                   int64_t offset, int64_t size) {
  Location loc = member.getLoc();
  auto input = cast<RankedTensorType>(member.getInput().getType());
  Type element = input.getElementType();
  int64_t ranks = member.getRanks(), axis = member.getAxis();
  Value part = SliceOp::create(
      builder, loc, RankedTensorType::get({ranks, size}, element), rows,
      ArrayRef<int64_t>{0, offset}, ArrayRef<int64_t>{ranks, offset + size},
      ArrayRef<int64_t>{1, 1});
  // [ranks, input...], then the rank dimension just before `axis`.
  SmallVector<int64_t> blocks{ranks};
  llvm::append_range(blocks, input.getShape());
  part = ReshapeOp::create(builder, loc, RankedTensorType::get(blocks, element),
                           part);
  if (axis > 0) {
    SmallVector<int64_t> permutation, shape;
    for (int64_t d = 0; d < axis; ++d)
      permutation.push_back(d + 1);
    permutation.push_back(0);
    for (int64_t d = axis; d < input.getRank(); ++d)
      permutation.push_back(d + 1);
    for (int64_t d : permutation)
      shape.push_back(blocks[d]);
    part = TransposeOp::create(
        builder, loc, RankedTensorType::get(shape, element), part, permutation);
  }
  return ReshapeOp::create(builder, loc, member.getType(), part);
}

/// The one collective of a group shaped like `last`, over its members'
/// parts `flat` (`total` elements per rank in all): for an all-reduce the
/// summed [total]; a reduce-scatter each rank's [total] (its rows of
/// [ranks, total]); an all-gather the [ranks, total] rows of every rank.
Value fusedCollective(OpBuilder &builder, Operation *last, ArrayRef<Value> flat,
                      int64_t total) {
  Location loc = last->getLoc();
  Type element = elementOf(last->getResult(0));
  auto vector = RankedTensorType::get({total}, element);
  if (auto reduceScatter = dyn_cast<ReduceScatterOp>(last)) {
    int64_t ranks = reduceScatter.getRanks();
    Value rows = ConcatOp::create(
        builder, loc, RankedTensorType::get({ranks, total}, element), flat, 1);
    Value joined = ReshapeOp::create(
        builder, loc, RankedTensorType::get({ranks * total}, element), rows);
    return ReduceScatterOp::create(builder, loc, vector, joined,
                                   reduceScatter.getReduction(), 0,
                                   uint32_t(ranks));
  }
  Value joined = ConcatOp::create(builder, loc, vector, flat, 0);
  if (auto allReduce = dyn_cast<AllReduceOp>(last))
    return AllReduceOp::create(builder, loc, vector, joined,
                               allReduce.getReduction(), allReduce.getRanks());
  int64_t ranks = cast<AllGatherOp>(last).getRanks();
  Value gathered = AllGatherOp::create(
      builder, loc, RankedTensorType::get({ranks * total}, element), joined, 0,
      uint32_t(ranks));
  // Rank-major: each rank's concatenation is one row.
  return ReshapeOp::create(
      builder, loc, RankedTensorType::get({ranks, total}, element), gathered);
}

} // namespace

void fuseCollectives(ArrayRef<Operation *> group) {
  Operation *first = group.front(), *last = group.back();
  // What uses a member's result before the last member must wait for the
  // fused result; none of it feeds a member (they are independent).
  SmallPtrSet<Operation *, 8> waiting(group.begin(), group.end());
  SmallVector<Operation *> sink;
  for (Operation *op = first->getNextNode(); op != last;
       op = op->getNextNode()) {
    if (llvm::is_contained(group, op))
      continue;
    bool usesWaiting = llvm::any_of(op->getOperands(), [&](Value operand) {
      Operation *def = operand.getDefiningOp();
      return def && waiting.contains(def);
    });
    if (usesWaiting) {
      waiting.insert(op);
      sink.push_back(op);
    }
  }

  OpBuilder builder(last);
  Type element = elementOf(last->getResult(0));
  bool reduceScatter = isa<ReduceScatterOp>(last);
  SmallVector<Value> flat;
  SmallVector<int64_t> sizes;
  int64_t total = 0;
  for (Operation *member : group) {
    flat.push_back(reduceScatter
                       ? scatterRows(builder, cast<ReduceScatterOp>(member))
                       : flatInput(builder, member));
    // The elements each rank ends up with from this member's part.
    sizes.push_back(cast<RankedTensorType>(flat.back().getType())
                        .getDimSize(reduceScatter ? 1 : 0));
    total += sizes.back();
  }
  Value fused = fusedCollective(builder, last, flat, total);
  int64_t offset = 0;
  for (auto [member, size] : llvm::zip(group, sizes)) {
    Value result;
    if (auto allGather = dyn_cast<AllGatherOp>(member)) {
      result = gatheredPart(builder, allGather, fused, offset, size);
    } else {
      Value part = SliceOp::create(
          builder, member->getLoc(), RankedTensorType::get({size}, element),
          fused, ArrayRef<int64_t>{offset}, ArrayRef<int64_t>{offset + size},
          ArrayRef<int64_t>{1});
      result = ReshapeOp::create(builder, member->getLoc(),
                                 member->getResult(0).getType(), part);
    }
    member->getResult(0).replaceAllUsesWith(result);
    offset += size;
  }
  Operation *end = builder.getInsertionPoint()->getPrevNode();
  for (Operation *op : sink) {
    op->moveAfter(end);
    end = op;
  }
  for (Operation *member : group)
    member->erase();
}

} // namespace kiln::compiler::sharding
