//===- SplitFullReductions.cpp - Full min/max reductions in two stages ----===//
//
// SPDX-License-Identifier: Apache-2.0
//
// kiln-split-full-reductions (Passes.td has the whole story): a min or max
// over every axis becomes one over the leading axes, which the CPU
// vectorises along the last, then one over the last.
//
//===----------------------------------------------------------------------===//

#include "compiler/GraphTransforms/Passes.h"

#include "dialects/Graph/IR/GraphOps.h"
#include "mlir/IR/Builders.h"

#include <numeric>

namespace kiln::compiler {
#define GEN_PASS_DEF_SPLITFULLREDUCTIONSPASS
#include "compiler/GraphTransforms/Passes.h.inc"
} // namespace kiln::compiler

using namespace mlir;
using namespace kiln;

namespace {

/// Below this many elements, or with a last axis narrower than a vector,
/// one scalar loop is as fast.
constexpr int64_t kMinElements = 4096, kMinLastAxis = 16;

template <typename ReduceOp> void split(ReduceOp op) {
  auto type = cast<RankedTensorType>(op.getInput().getType());
  int64_t rank = type.getRank();
  if (rank < 2 || !type.hasStaticShape() ||
      type.getNumElements() < kMinElements ||
      type.getShape().back() < kMinLastAxis)
    return;
  // Every axis, each once (negative axes count from the end).
  SmallVector<bool> reduced(rank, false);
  for (int64_t axis : op.getAxes())
    reduced[axis < 0 ? axis + rank : axis] = true;
  if (int64_t(op.getAxes().size()) != rank ||
      llvm::count(reduced, true) != rank)
    return;
  OpBuilder b(op);
  SmallVector<int64_t> leading(rank - 1);
  std::iota(leading.begin(), leading.end(), 0);
  bool keep = op.getKeepDims();
  auto rows = ReduceOp::create(b, op.getLoc(), op.getInput(),
                               b.getDenseI64ArrayAttr(leading),
                               keep ? b.getUnitAttr() : UnitAttr());
  int64_t last = keep ? rank - 1 : 0;
  auto total = ReduceOp::create(b, op.getLoc(), rows.getResult(),
                                b.getDenseI64ArrayAttr({last}),
                                keep ? b.getUnitAttr() : UnitAttr());
  op.getResult().replaceAllUsesWith(total.getResult());
  op.erase();
}

struct SplitFullReductionsPass
    : kiln::compiler::impl::SplitFullReductionsPassBase<
          SplitFullReductionsPass> {
  void runOnOperation() override {
    SmallVector<Operation *> reductions;
    getOperation().walk([&](Operation *op) {
      if (isa<ReduceMinOp, ReduceMaxOp>(op))
        reductions.push_back(op);
    });
    for (Operation *op : reductions) {
      if (auto min = dyn_cast<ReduceMinOp>(op))
        split(min);
      else
        split(cast<ReduceMaxOp>(op));
    }
  }
};

} // namespace
