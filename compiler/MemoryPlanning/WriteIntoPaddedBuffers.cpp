//===- WriteIntoPaddedBuffers.cpp - Producers write padded buffers --------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// See Passes.td.
//
//===----------------------------------------------------------------------===//

#include "compiler/MemoryPlanning/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"

namespace kiln::compiler {
#define GEN_PASS_DEF_WRITEINTOPADDEDBUFFERSPASS
#include "compiler/MemoryPlanning/Passes.h.inc"
} // namespace kiln::compiler

using namespace mlir;

namespace {

/// The fill of a fresh tensor with a constant that `insert` writes into,
/// if the constant, the tensor and the fill are all in `insert`'s block.
linalg::FillOp freshFill(tensor::InsertSliceOp insert) {
  auto fill = insert.getDest().getDefiningOp<linalg::FillOp>();
  if (!fill || !fill.hasPureTensorSemantics() || !fill->hasOneUse())
    return {};
  Operation *value = fill.value().getDefiningOp();
  Operation *empty = fill.getDpsInitOperand(0)->get().getDefiningOp();
  Block *block = insert->getBlock();
  if (!value || !matchPattern(value, m_Constant()) ||
      !isa_and_nonnull<tensor::EmptyOp>(empty) || !empty->hasOneUse() ||
      fill->getBlock() != block || empty->getBlock() != block ||
      value->getBlock() != block)
    return {};
  return fill;
}

/// The static offsets and sizes of `insert` (unit strides), if static.
bool staticSlice(tensor::InsertSliceOp insert, SmallVector<int64_t> &offsets,
                 SmallVector<int64_t> &sizes) {
  if (!insert.hasUnitStride() || !insert.getSourceType().hasStaticShape() ||
      !insert.getDestType().hasStaticShape() ||
      ShapedType::isDynamicShape(insert.getStaticOffsets()) ||
      insert.getSourceType().getRank() != insert.getDestType().getRank())
    return false;
  offsets.assign(insert.getStaticOffsets().begin(),
                 insert.getStaticOffsets().end());
  sizes.assign(insert.getSourceType().getShape().begin(),
               insert.getSourceType().getShape().end());
  return true;
}

/// Fills only the border of a padded tensor around the slice
/// [offsets, offsets + sizes) of `empty` (its interior is written
/// whole by the producer): one slab per side of each padded dimension,
/// inside the interior along the dimensions before it, so the slabs are
/// disjoint. Returns the tensor with its border filled.
Value fillBorder(OpBuilder &b, Location loc, Value empty, Value value,
                 ArrayRef<int64_t> offsets, ArrayRef<int64_t> sizes,
                 linalg::FillOp original) {
  auto type = cast<RankedTensorType>(empty.getType());
  ArrayRef<int64_t> shape = type.getShape();
  Value filled = empty;
  for (unsigned d = 0; d < shape.size(); ++d) {
    int64_t high = shape[d] - offsets[d] - sizes[d];
    for (auto [start, extent] : {std::pair<int64_t, int64_t>{0, offsets[d]},
                                 {offsets[d] + sizes[d], high}}) {
      if (extent <= 0)
        continue;
      SmallVector<int64_t> slabOffsets, slabSizes;
      for (unsigned e = 0; e < shape.size(); ++e) {
        bool before = e < d;
        slabOffsets.push_back(e == d ? start : before ? offsets[e] : 0);
        slabSizes.push_back(e == d ? extent : before ? sizes[e] : shape[e]);
      }
      Value slab = tensor::EmptyOp::create(b, loc, slabSizes,
                                           type.getElementType());
      auto fill = linalg::FillOp::create(b, loc, value, slab);
      fill->setDiscardableAttrs(original->getDiscardableAttrDictionary());
      filled = tensor::InsertSliceOp::create(
          b, loc, fill.getResult(0), filled,
          getAsIndexOpFoldResult(b.getContext(), slabOffsets),
          getAsIndexOpFoldResult(b.getContext(), slabSizes),
          getAsIndexOpFoldResult(b.getContext(),
                                 SmallVector<int64_t>(shape.size(), 1)));
    }
  }
  return filled;
}

struct WriteIntoPaddedBuffersPass
    : kiln::compiler::impl::WriteIntoPaddedBuffersPassBase<
          WriteIntoPaddedBuffersPass> {
  void runOnOperation() override {
    SmallVector<tensor::InsertSliceOp> inserts;
    getOperation().walk(
        [&](tensor::InsertSliceOp insert) { inserts.push_back(insert); });
    for (tensor::InsertSliceOp insert : inserts) {
      linalg::FillOp fill = freshFill(insert);
      Operation *producer = insert.getSource().getDefiningOp();
      SmallVector<int64_t> offsets, sizes;
      // Only a destination-style producer can be given the slice to write
      // (empty-tensor elimination); and only one after the fill's operands.
      if (!fill || !producer || !isa<DestinationStyleOpInterface>(producer) ||
          producer->getBlock() != insert->getBlock() ||
          !fill->isBeforeInBlock(insert) || !producer->isBeforeInBlock(fill) ||
          !staticSlice(insert, offsets, sizes))
        continue;
      Operation *empty = fill.getDpsInitOperand(0)->get().getDefiningOp();
      OpBuilder b(producer);
      Value value = b.clone(*fill.value().getDefiningOp())->getResult(0);
      empty->moveBefore(producer);
      Value border = fillBorder(b, fill.getLoc(), empty->getResult(0), value,
                                offsets, sizes, fill);
      insert.getDestMutable().assign(border);
      fill.erase();
    }
  }
};

} // namespace
