//===- ShapeToLinalg.cpp - Data movement kiln ops -> tensor/linalg --------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Reshapes become collapse/expand pairs, contiguous slices and concats
// become tensor slices, transposes and broadcasts become generics with
// permuted/broadcast maps. Ops whose source index is computed (gather,
// negative-step slices, reflect/edge/constant padding) become generics that
// compute the index from linalg.index and read with tensor.extract.
//
//===----------------------------------------------------------------------===//

#include "compiler/Conversion/GraphToLinalg/LoweringUtils.h"
#include "compiler/Conversion/GraphToLinalg/Passes.h"
#include "compiler/Conversion/GraphToLinalg/ScalarOps.h"
#include "dialects/Graph/IR/GraphOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::compiler::lowering;

namespace {

/// Builds a generic with no inputs over `resultType` whose body gets the
/// loop indices (as `index` values) and returns the element.
Value buildIndexedGeneric(
    OpBuilder &b, Location loc, RankedTensorType resultType,
    llvm::function_ref<Value(OpBuilder &, Location, ArrayRef<Value>)> body) {
  int64_t rank = resultType.getRank();
  SmallVector<AffineMap> maps = {
      AffineMap::getMultiDimIdentityMap(rank, b.getContext())};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  return buildGeneric(b, loc, resultType, ValueRange{},
                      emptyTensor(b, loc, resultType), maps, iterators,
                      [&](OpBuilder &nested, Location l,
                          ValueRange) -> SmallVector<Value> {
                        SmallVector<Value> indices;
                        for (int64_t d = 0; d < rank; ++d)
                          indices.push_back(
                              linalg::IndexOp::create(nested, l, d));
                        return {body(nested, l, indices)};
                      })
      .front();
}

Value indexConstant(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

/// min(max(v, lo), hi) on index values.
Value clampIndex(OpBuilder &b, Location loc, Value v, int64_t lo, int64_t hi) {
  Value low = arith::MaxSIOp::create(b, loc, v, indexConstant(b, loc, lo));
  return arith::MinSIOp::create(b, loc, low, indexConstant(b, loc, hi));
}

/// Offsets, sizes and unit strides of a `pieceShape` block that starts at
/// `offset` along `axis` (and at 0 elsewhere): a concat input or a split
/// result.
struct AxisSlice {
  SmallVector<OpFoldResult> offsets, sizes, strides;
  AxisSlice(OpBuilder &b, ArrayRef<int64_t> pieceShape, int64_t axis,
            int64_t offset)
      : offsets(pieceShape.size(), b.getIndexAttr(0)),
        strides(pieceShape.size(), b.getIndexAttr(1)) {
    offsets[axis] = b.getIndexAttr(offset);
    for (int64_t size : pieceShape)
      sizes.push_back(b.getIndexAttr(size));
  }
};

struct ConstantToArith : OpRewritePattern<ConstantOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConstantOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(
        op, cast<TypedAttr>(op.getValue()));
    return success();
  }
};

struct ReshapeToTensor : OpRewritePattern<ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReshapeOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOp(
        op, reshapeTensor(rewriter, op.getLoc(), op.getInput(), op.getType()));
    return success();
  }
};

struct TransposeToGeneric : OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, transposeTensor(rewriter, op.getLoc(), op.getInput(),
                                           op.getPermutation()));
    return success();
  }
};

struct BroadcastToGeneric : OpRewritePattern<BroadcastOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BroadcastOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOp(
        op, buildElementwise(rewriter, op.getLoc(), op.getType(), op.getInput(),
                             [](OpBuilder &, Location, ValueRange args) {
                               return args[0];
                             }));
    return success();
  }
};

struct ConcatToInsertSlices : OpRewritePattern<ConcatOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConcatOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = op.getType();
    int64_t rank = resultType.getRank();
    int64_t axis = normalizeAxes({static_cast<int64_t>(op.getAxis())}, rank)[0];
    Value result = emptyTensor(rewriter, loc, resultType);
    int64_t offset = 0;
    for (Value input : op.getInputs()) {
      auto inputType = cast<RankedTensorType>(input.getType());
      if (inputType.getNumElements() == 0)
        continue; // Nothing to insert (and its offset may be out of range).
      AxisSlice slice(rewriter, inputType.getShape(), axis, offset);
      result = tensor::InsertSliceOp::create(rewriter, loc, input, result,
                                             slice.offsets, slice.sizes,
                                             slice.strides);
      offset += inputType.getDimSize(axis);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct SplitToExtractSlices : OpRewritePattern<SplitOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(SplitOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto inputType = cast<RankedTensorType>(op.getInput().getType());
    int64_t rank = inputType.getRank();
    int64_t axis = normalizeAxes({static_cast<int64_t>(op.getAxis())}, rank)[0];
    SmallVector<Value> pieces;
    int64_t offset = 0;
    for (Value result : op.getResults()) {
      auto pieceType = cast<RankedTensorType>(result.getType());
      if (pieceType.getNumElements() == 0) {
        // Nothing to read (extract_slice rejects offsets into empty dims).
        pieces.push_back(emptyTensor(rewriter, loc, pieceType));
        continue;
      }
      AxisSlice slice(rewriter, pieceType.getShape(), axis, offset);
      pieces.push_back(tensor::ExtractSliceOp::create(
          rewriter, loc, pieceType, op.getInput(), slice.offsets, slice.sizes,
          slice.strides));
      offset += pieceType.getDimSize(axis);
    }
    rewriter.replaceOp(op, pieces);
    return success();
  }
};

struct SliceToTensor : OpRewritePattern<SliceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(SliceOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = op.getType();
    ArrayRef<int64_t> starts = op.getStarts(), steps = op.getSteps();
    // No elements: nothing to read (extract_slice rejects any offset into
    // an empty dimension).
    if (resultType.getNumElements() == 0) {
      rewriter.replaceOp(op, emptyTensor(rewriter, loc, resultType));
      return success();
    }
    if (llvm::all_of(steps, [](int64_t s) { return s > 0; })) {
      SmallVector<OpFoldResult> offsets, sizes, strides;
      for (auto [start, size, step] :
           llvm::zip(starts, resultType.getShape(), steps)) {
        offsets.push_back(rewriter.getIndexAttr(start));
        sizes.push_back(rewriter.getIndexAttr(size));
        strides.push_back(rewriter.getIndexAttr(step));
      }
      rewriter.replaceOpWithNewOp<tensor::ExtractSliceOp>(
          op, resultType, op.getInput(), offsets, sizes, strides);
      return success();
    }
    // Negative steps: source index = start + i * step.
    Value input = op.getInput();
    rewriter.replaceOp(
        op, buildIndexedGeneric(
                rewriter, loc, resultType,
                [&](OpBuilder &b, Location l, ArrayRef<Value> indices) {
                  SmallVector<Value> source;
                  for (auto [index, start, step] :
                       llvm::zip(indices, starts, steps)) {
                    Value scaled = arith::MulIOp::create(
                        b, l, index, indexConstant(b, l, step));
                    source.push_back(arith::AddIOp::create(
                        b, l, scaled, indexConstant(b, l, start)));
                  }
                  return tensor::ExtractOp::create(b, l, input, source);
                }));
    return success();
  }
};

struct GatherToGeneric : OpRewritePattern<GatherOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(GatherOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto inputType = cast<RankedTensorType>(op.getInput().getType());
    auto indicesType = cast<RankedTensorType>(op.getIndices().getType());
    int64_t rank = inputType.getRank();
    int64_t axis = normalizeAxes({static_cast<int64_t>(op.getAxis())}, rank)[0];
    int64_t indexRank = indicesType.getRank();
    int64_t axisSize = inputType.getDimSize(axis);
    Value input = op.getInput(), indicesTensor = op.getIndices();
    rewriter.replaceOp(
        op, buildIndexedGeneric(
                rewriter, loc, op.getType(),
                [&](OpBuilder &b, Location l, ArrayRef<Value> indices) {
                  Value position = tensor::ExtractOp::create(
                      b, l, indicesTensor, indices.slice(axis, indexRank));
                  Value asIndex = arith::IndexCastOp::create(
                      b, l, b.getIndexType(), position);
                  // Negative indices count from the end; out-of-range ones
                  // are clamped so that a bad index can never read outside
                  // the tensor.
                  Value negative = arith::CmpIOp::create(
                      b, l, arith::CmpIPredicate::slt, asIndex,
                      indexConstant(b, l, 0));
                  Value wrapped = arith::AddIOp::create(
                      b, l, asIndex, indexConstant(b, l, axisSize));
                  Value normalized =
                      arith::SelectOp::create(b, l, negative, wrapped, asIndex);
                  SmallVector<Value> source(indices.take_front(axis));
                  source.push_back(
                      clampIndex(b, l, normalized, 0, axisSize - 1));
                  llvm::append_range(source, indices.drop_front(axis + indexRank));
                  return tensor::ExtractOp::create(b, l, input, source);
                }));
    return success();
  }
};

struct PadToGeneric : OpRewritePattern<PadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(PadOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto inputType = cast<RankedTensorType>(op.getInput().getType());
    ArrayRef<int64_t> low = op.getLow();
    PadMode mode = op.getMode();
    double padValue = op.getValue().convertToDouble();
    Value input = op.getInput();
    // Constant padding that only grows the tensor: a fill with the input
    // copied into its interior. Both vectorise; the generic's clamped,
    // bounds-checked read below is a gather.
    auto nonNegative = [](ArrayRef<int64_t> pads) {
      return llvm::all_of(pads, [](int64_t p) { return p >= 0; });
    };
    if (mode == PadMode::constant && inputType.getNumElements() != 0 &&
        nonNegative(low) && nonNegative(op.getHigh())) {
      Value filled = filledTensor(
          rewriter, loc, op.getType(),
          scalarConstant(rewriter, loc, inputType.getElementType(), padValue));
      SmallVector<OpFoldResult> offsets, sizes, strides;
      for (auto [d, size] : llvm::enumerate(inputType.getShape())) {
        offsets.push_back(rewriter.getIndexAttr(low[d]));
        sizes.push_back(rewriter.getIndexAttr(size));
        strides.push_back(rewriter.getIndexAttr(1));
      }
      rewriter.replaceOpWithNewOp<tensor::InsertSliceOp>(
          op, input, filled, offsets, sizes, strides);
      return success();
    }
    rewriter.replaceOp(
        op, buildIndexedGeneric(
                rewriter, loc, op.getType(),
                [&](OpBuilder &b, Location l, ArrayRef<Value> indices) {
                  SmallVector<Value> source;
                  Value inside;
                  for (auto [d, index] : llvm::enumerate(indices)) {
                    int64_t size = inputType.getDimSize(d);
                    Value shifted = arith::SubIOp::create(
                        b, l, index, indexConstant(b, l, low[d]));
                    Value chosen = shifted;
                    if (mode == PadMode::reflect) {
                      // -i before the start, 2(n-1) - i after the end.
                      Value mirroredLow = arith::SubIOp::create(
                          b, l, indexConstant(b, l, 0), shifted);
                      Value mirroredHigh = arith::SubIOp::create(
                          b, l, indexConstant(b, l, 2 * (size - 1)), shifted);
                      Value isLow = arith::CmpIOp::create(
                          b, l, arith::CmpIPredicate::slt, shifted,
                          indexConstant(b, l, 0));
                      Value isHigh = arith::CmpIOp::create(
                          b, l, arith::CmpIPredicate::sge, shifted,
                          indexConstant(b, l, size));
                      chosen = arith::SelectOp::create(
                          b, l, isLow, mirroredLow,
                          arith::SelectOp::create(b, l, isHigh, mirroredHigh,
                                                  shifted));
                    } else if (mode == PadMode::constant) {
                      Value geZero = arith::CmpIOp::create(
                          b, l, arith::CmpIPredicate::sge, shifted,
                          indexConstant(b, l, 0));
                      Value ltSize = arith::CmpIOp::create(
                          b, l, arith::CmpIPredicate::slt, shifted,
                          indexConstant(b, l, size));
                      Value here = arith::AndIOp::create(b, l, geZero, ltSize);
                      inside = inside ? arith::AndIOp::create(b, l, inside, here)
                                      : here;
                    }
                    // Clamping implements edge mode and keeps the constant
                    // mode's read in bounds (its value is discarded).
                    source.push_back(
                        clampIndex(b, l, chosen, 0, std::max<int64_t>(size - 1, 0)));
                  }
                  Type element = inputType.getElementType();
                  if (mode == PadMode::constant && inputType.getNumElements() == 0)
                    return scalarConstant(b, l, element, padValue);
                  Value value = tensor::ExtractOp::create(b, l, input, source);
                  if (mode != PadMode::constant || !inside)
                    return value;
                  return arith::SelectOp::create(
                      b, l, inside, value,
                      scalarConstant(b, l, element, padValue))
                      .getResult();
                }));
    return success();
  }
};

} // namespace

void kiln::compiler::populateShapeToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<ConstantToArith, ReshapeToTensor, TransposeToGeneric,
               BroadcastToGeneric, ConcatToInsertSlices, SplitToExtractSlices,
               SliceToTensor, GatherToGeneric, PadToGeneric>(
      patterns.getContext());
}
