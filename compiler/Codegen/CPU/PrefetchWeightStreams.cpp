//===- PrefetchWeightStreams.cpp - Software prefetch ahead of tiles -------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "compiler/Codegen/CPU/PrefetchWeightStreams.h"
#include "compiler/Codegen/CPU/ReadPosition.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;

namespace kiln::compiler {
namespace {

/// Only streams stepping less than a line: a pixel-column tile's packed
/// weight rows (32 bytes a step), read 8 KiB at a time between jumps to the
/// next row panel, which the hardware prefetchers lose. Streams stepping a
/// line or more (a channel-column tile's weight panel, read front to back)
/// they follow already: prefetching those too made ResNet's 7 x 7 layers
/// 20% slower. Steps of a row or more are no stream at all.
constexpr int64_t kMaxStepBytes = 32;

/// The buffer `view` is a view of, through subviews and reshapes: a
/// function argument, a global or an arena view with a static shape and
/// the identity layout; otherwise null.
Value viewedBuffer(Value view) {
  while (Operation *op = view.getDefiningOp()) {
    if (auto subview = dyn_cast<memref::SubViewOp>(op))
      view = subview.getSource();
    else if (auto collapse = dyn_cast<memref::CollapseShapeOp>(op))
      view = collapse.getSrc();
    else if (auto expand = dyn_cast<memref::ExpandShapeOp>(op))
      view = expand.getSrc();
    else if (isa<memref::GetGlobalOp, memref::ViewOp>(op))
      break;
    else
      return {};
  }
  auto type = dyn_cast<MemRefType>(view.getType());
  if (!type || !type.hasStaticShape() || !type.getLayout().isIdentity() ||
      !type.getElementType().isIntOrFloat())
    return {};
  return view;
}

/// Elements `loop` advances the view `read` reads by per iteration: the
/// stride of the subview dimension whose offset is the induction variable,
/// or 0 when there is none or it is not static.
int64_t stepElements(vector::TransferReadOp read, scf::ForOp loop) {
  auto subview = read.getBase().getDefiningOp<memref::SubViewOp>();
  if (!subview || subview->getParentOp() != loop.getOperation())
    return 0;
  auto [strides, offset] = subview.getSourceType().getStridesAndOffset();
  for (auto [dim, offset] : llvm::enumerate(subview.getMixedOffsets()))
    if (auto value = dyn_cast<Value>(offset);
        value && value == loop.getInductionVar() &&
        !ShapedType::isDynamic(strides[dim]))
      return strides[dim] *
             loop.getConstantStep().value_or(APInt(64, 0)).getSExtValue();
  return 0;
}

/// A prefetch of the line `distance` bytes ahead of `read`'s first element.
void prefetchAhead(RewriterBase &rewriter, vector::TransferReadOp read,
                   Value buffer, int64_t distance) {
  auto bufferType = cast<MemRefType>(buffer.getType());
  int64_t elementBytes =
      llvm::divideCeil(bufferType.getElementTypeBitWidth(), 8);
  int64_t elements = bufferType.getNumElements();
  Location loc = read.getLoc();
  rewriter.setInsertionPoint(read);
  ReadPosition position = readPosition(rewriter, read);
  auto flatType = MemRefType::get({elements}, bufferType.getElementType());
  Value flat = memref::ReinterpretCastOp::create(
      rewriter, loc, flatType, position.base, /*offset=*/0,
      /*sizes=*/ArrayRef<int64_t>{elements}, /*strides=*/ArrayRef<int64_t>{1});
  Value ahead =
      arith::ConstantIndexOp::create(rewriter, loc, distance / elementBytes);
  Value last = arith::ConstantIndexOp::create(rewriter, loc, elements - 1);
  Value target = arith::MinSIOp::create(
      rewriter, loc,
      arith::AddIOp::create(rewriter, loc, position.element, ahead), last);
  memref::PrefetchOp::create(rewriter, loc, flat, ValueRange{target},
                             /*isWrite=*/false, /*localityHint=*/3,
                             /*isDataCache=*/true);
}

} // namespace

void prefetchWeightStreams(RewriterBase &rewriter, func::FuncOp func,
                           int64_t distance, int64_t minBufferBytes) {
  if (distance <= 0)
    return;
  SmallVector<scf::ForOp> loops;
  func.walk([&](scf::ForOp loop) {
    bool innermost = true;
    loop.getBody()->walk([&](scf::ForOp) { innermost = false; });
    if (innermost && !loop.getBody()->getOps<vector::ContractionOp>().empty())
      loops.push_back(loop);
  });
  for (scf::ForOp loop : loops) {
    SmallVector<vector::TransferReadOp> reads(
        loop.getBody()->getOps<vector::TransferReadOp>());
    for (vector::TransferReadOp read : reads) {
      Value buffer = viewedBuffer(read.getBase());
      int64_t step = stepElements(read, loop);
      if (!buffer || step <= 0)
        continue;
      auto type = cast<MemRefType>(buffer.getType());
      int64_t elementBytes = llvm::divideCeil(type.getElementTypeBitWidth(), 8);
      if (step * elementBytes <= kMaxStepBytes &&
          type.getNumElements() * elementBytes >= minBufferBytes)
        prefetchAhead(rewriter, read, buffer, distance);
    }
  }
}

} // namespace kiln::compiler
