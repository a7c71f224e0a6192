//===- FuseCollectives.cpp - Small all-reduces as one ---------------------===//
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

int64_t bytesOf(AllReduceOp op) {
  auto type = cast<RankedTensorType>(op.getInput().getType());
  return type.getNumElements() *
         ((type.getElementType().getIntOrFloatBitWidth() + 7) / 8);
}

bool sameKind(AllReduceOp a, AllReduceOp b) {
  return a.getReduction() == b.getReduction() && a.getRanks() == b.getRanks() &&
         cast<RankedTensorType>(a.getType()).getElementType() ==
             cast<RankedTensorType>(b.getType()).getElementType();
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

SmallVector<SmallVector<AllReduceOp>>
fusibleAllReduces(ArrayRef<MadeCollective> collectives, int64_t maxBytes) {
  SmallVector<SmallVector<AllReduceOp>> groups;
  SmallVector<MadeCollective> run;
  auto flush = [&] {
    if (run.size() > 1) {
      groups.emplace_back();
      for (const MadeCollective &member : run)
        groups.back().push_back(cast<AllReduceOp>(member.op));
    }
    run.clear();
  };
  for (const MadeCollective &made : collectives) {
    auto allReduce = dyn_cast<AllReduceOp>(made.op);
    if (!allReduce || bytesOf(allReduce) > maxBytes) {
      flush();
      continue;
    }
    bool joins =
        !run.empty() && sameKind(cast<AllReduceOp>(run.front().op), allReduce) &&
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

void fuseAllReduces(ArrayRef<AllReduceOp> group) {
  AllReduceOp first = group.front(), last = group.back();
  // What uses a member's result before the last member must wait for the
  // fused result; none of it feeds a member (they are independent).
  SmallPtrSet<Operation *, 8> waiting;
  for (AllReduceOp member : group)
    waiting.insert(member);
  SmallVector<Operation *> sink;
  for (Operation *op = first->getNextNode(); op != last;
       op = op->getNextNode()) {
    if (isa<AllReduceOp>(op) && waiting.contains(op))
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
  Location loc = last.getLoc();
  Type element = cast<RankedTensorType>(last.getType()).getElementType();
  SmallVector<Value> flat;
  SmallVector<int64_t> sizes;
  int64_t total = 0;
  for (AllReduceOp member : group) {
    auto type = cast<RankedTensorType>(member.getType());
    sizes.push_back(type.getNumElements());
    total += sizes.back();
    flat.push_back(ReshapeOp::create(
        builder, member.getLoc(),
        RankedTensorType::get({sizes.back()}, element), member.getInput()));
  }
  auto joinedType = RankedTensorType::get({total}, element);
  Value joined = ConcatOp::create(builder, loc, joinedType, flat, 0);
  Value reduced = AllReduceOp::create(builder, loc, joinedType, joined,
                                      last.getReduction(), last.getRanks());
  int64_t offset = 0;
  Operation *end = reduced.getDefiningOp();
  for (auto [index, size] : llvm::enumerate(sizes)) {
    AllReduceOp member = group[index];
    Value part = SliceOp::create(
        builder, member.getLoc(), RankedTensorType::get({size}, element),
        reduced, ArrayRef<int64_t>{offset}, ArrayRef<int64_t>{offset + size},
        ArrayRef<int64_t>{1});
    Value shaped =
        ReshapeOp::create(builder, member.getLoc(), member.getType(), part);
    member.getResult().replaceAllUsesWith(shaped);
    end = shaped.getDefiningOp();
    offset += size;
  }
  for (Operation *op : sink) {
    op->moveAfter(end);
    end = op;
  }
  for (AllReduceOp member : group)
    member.erase();
}

} // namespace kiln::compiler::sharding
