//===- VectorizeLinalg.cpp - Tile and vectorise linalg ops on buffers -----===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Runs on buffers, after the memory plan: tiling makes subviews and
// vectorising makes vector transfers, neither allocates, so the plan and
// the "kernels never allocate" contract hold. A remainder a tile size does
// not divide is peeled into a tile of its own static size, so every tile is
// static and needs no masks; an op that does not qualify is left for
// convert-linalg-to-loops.
//
//===----------------------------------------------------------------------===//

#include "compiler/Codegen/CPU/AccumulatorInit.h"
#include "compiler/Codegen/CPU/Passes.h"
#include "compiler/Codegen/CPU/PrefetchWeightStreams.h"
#include "compiler/Codegen/CPU/RegisterTile.h"
#include "compiler/Codegen/CPU/SplitAccumulatorChains.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/TilingInterfaceImpl.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/IR/AffineExprVisitor.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

namespace kiln::compiler {
#define GEN_PASS_DEF_VECTORIZELINALGPASS
#include "compiler/Codegen/CPU/Passes.h.inc"
} // namespace kiln::compiler

using namespace mlir;

namespace {

/// Vector length along the innermost loop of ops other than contractions.
constexpr int64_t kVectorLength = 16;
/// Below this many elements along the vector dimension scalar loops are as
/// good and compile faster.
constexpr int64_t kMinVectorLength = 4;
/// Discardable attributes marking the ops of each stage between the
/// canonicalisations that make peeled tiles static.
constexpr char kRegisterStage[] = "kiln.register_tile";
constexpr char kVectorStage[] = "kiln.vectorize";
/// Register tiles of a contraction with an initial value
/// (AccumulatorInit.h), tiled along its parallel loops only so far.
constexpr char kInitStage[] = "kiln.register_tile_init";

/// Largest innermost stride of an input that still vectorises: such a read
/// is widened to a contiguous one and shuffled (kiln-lower-vector-ops).
constexpr int64_t kMaxInputStride = 4;

/// Vector stores need a unit innermost stride, loads a small one (i1
/// buffers hold one byte per element, which vector<Nxi1> does not).
bool hasVectorizableOperands(linalg::LinalgOp op) {
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    if (!type)
      continue;
    Type element = type.getElementType();
    if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() < 8)
      return false;
    if (type.getRank() == 0)
      continue;
    SmallVector<int64_t> strides;
    int64_t offset;
    if (failed(type.getStridesAndOffset(strides, offset)))
      return false;
    int64_t largest = op.isDpsInput(&operand) ? kMaxInputStride : 1;
    if (ShapedType::isDynamic(strides.back()) || strides.back() < 1 ||
        strides.back() > largest)
      return false;
  }
  return true;
}

/// Only arithmetic in the body: no loads (gathers) or other side effects.
bool hasArithmeticBody(linalg::LinalgOp op) {
  for (Operation &nested : op.getBlock()->without_terminator())
    if (!isa<arith::ArithDialect, math::MathDialect>(nested.getDialect()) &&
        !isa<linalg::IndexOp>(nested))
      return false;
  return true;
}

bool canVectorize(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics())
    return false;
  if (!isa<linalg::GenericOp, linalg::FillOp, linalg::CopyOp>(op))
    return false;
  if (isa<linalg::GenericOp>(op) && !hasArithmeticBody(op))
    return false;
  return hasVectorizableOperands(op) &&
         succeeded(linalg::vectorizeOpPrecondition(op));
}

/// A generic reading `in[.., oh * s + kh, ..]` (im2col, pooling windows)
/// has a non-permutation map, which the vectoriser rejects. On a strided
/// buffer such a read is itself a strided view with one dimension per loop
/// it uses; rewritten so, the map is a projected permutation, and a
/// unit-stride innermost loop (stride-1 windows) vectorises.
void viewWindowOperands(RewriterBase &rewriter, linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics())
    return;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (ranges.empty() || ShapedType::isDynamicShape(ranges))
    return;
  MLIRContext *context = op.getContext();
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  bool changed = false;
  for (OpOperand *operand : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(operand);
    if (map.isProjectedPermutation() || map.getNumSymbols() != 0)
      continue;
    auto type = dyn_cast<MemRefType>(operand->get().getType());
    if (!type || !type.hasStaticShape())
      continue;
    SmallVector<int64_t> strides;
    int64_t offset;
    if (failed(type.getStridesAndOffset(strides, offset)) ||
        llvm::any_of(strides, ShapedType::isDynamic))
      continue;
    // A workgroup's slice has a dynamic offset: the view then starts from
    // the slice's base buffer at that offset plus the window's own.
    bool dynamicOffset = ShapedType::isDynamic(offset);
    if (dynamicOffset)
      offset = 0;
    unsigned numDims = map.getNumDims();
    SmallVector<int64_t> loopStrides(numDims, 0);
    SmallVector<bool> used(numDims, false);
    bool linear = true;
    for (auto [r, expr] : llvm::enumerate(map.getResults())) {
      SmallVector<int64_t> flat;
      // floordiv and mod flatten with local variables after the loops:
      // not a strided view.
      if (failed(getFlattenedAffineExpr(expr, numDims, 0, &flat)) ||
          flat.size() != numDims + 1) {
        linear = false;
        break;
      }
      // Non-negative coefficients keep every access inside the buffer's
      // own (in-bounds) index ranges.
      for (unsigned d = 0; d < numDims; ++d) {
        if (flat[d] < 0)
          linear = false;
        if (flat[d] != 0)
          used[d] = true;
        loopStrides[d] += flat[d] * strides[r];
      }
      if (flat.back() < 0)
        linear = false;
      offset += flat.back() * strides[r];
    }
    if (!linear)
      continue;
    SmallVector<int64_t> viewShape, viewStrides;
    SmallVector<AffineExpr> viewExprs;
    for (unsigned d = 0; d < numDims; ++d) {
      if (!used[d])
        continue;
      viewShape.push_back(ranges[d]);
      viewStrides.push_back(loopStrides[d]);
      viewExprs.push_back(getAffineDimExpr(d, context));
    }
    rewriter.setInsertionPoint(op);
    Location loc = op.getLoc();
    Value source = operand->get();
    OpFoldResult viewOffset = rewriter.getIndexAttr(offset);
    if (dynamicOffset) {
      auto metadata =
          memref::ExtractStridedMetadataOp::create(rewriter, loc, source);
      source = metadata.getBaseBuffer();
      viewOffset = arith::AddIOp::create(
                       rewriter, loc, metadata.getOffset(),
                       arith::ConstantIndexOp::create(rewriter, loc, offset))
                       .getResult();
    }
    auto viewType = MemRefType::get(
        viewShape, type.getElementType(),
        StridedLayoutAttr::get(context,
                               dynamicOffset ? ShapedType::kDynamic : offset,
                               viewStrides),
        type.getMemorySpace());
    Value view = memref::ReinterpretCastOp::create(
        rewriter, loc, viewType, source, viewOffset,
        getAsIndexOpFoldResult(context, viewShape),
        getAsIndexOpFoldResult(context, viewStrides));
    rewriter.modifyOpInPlace(op, [&] { operand->set(view); });
    maps[operand->getOperandNumber()] =
        AffineMap::get(numDims, 0, viewExprs, context);
    changed = true;
  }
  if (changed)
    rewriter.modifyOpInPlace(op, [&] {
      op.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
    });
}

/// Tiles `op` by `sizes` (0: not tiled) with its loops in `order` (empty:
/// the op's), peels the last partial iteration of every loop a size does
/// not divide, and marks the tiles, full and partial, with `stage`. The
/// partial tiles' sizes are constants but their types are dynamic until
/// the next canonicalisation. Leaves `op` (marked) untiled if tiling fails.
void tileAndPeel(RewriterBase &rewriter, linalg::LinalgOp op,
                 ArrayRef<int64_t> sizes, ArrayRef<int64_t> order,
                 StringRef stage) {
  MLIRContext *context = op.getContext();
  if (llvm::all_of(sizes, [](int64_t size) { return size == 0; })) {
    op->setAttr(stage, UnitAttr::get(context));
    return;
  }
  scf::SCFTilingOptions options;
  options.setTileSizes(getAsIndexOpFoldResult(context, sizes));
  if (!order.empty())
    options.setInterchange(order);
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
      rewriter, cast<TilingInterface>(op.getOperation()), options);
  if (failed(tiled)) {
    op->setAttr(stage, UnitAttr::get(context));
    return;
  }
  for (Operation *tile : tiled->tiledOps)
    tile->setAttr(stage, UnitAttr::get(context));
  rewriter.eraseOp(op);
  // Innermost first: an outer loop's peeled copy then holds the inner
  // loop's peeled copy too.
  for (LoopLikeOpInterface loop : llvm::reverse(tiled->loops)) {
    auto forOp = dyn_cast<scf::ForOp>(loop.getOperation());
    if (!forOp)
      continue;
    scf::ForOp partial;
    (void)scf::peelForLoopAndSimplifyBounds(rewriter, forOp, partial);
  }
}

/// The part of `op` over `offsets` + `sizes` of its iteration space, in
/// front of it (views of its operands), or null.
linalg::LinalgOp slicedOp(RewriterBase &rewriter, linalg::LinalgOp op,
                          ArrayRef<int64_t> offsets, ArrayRef<int64_t> sizes) {
  MLIRContext *context = op.getContext();
  rewriter.setInsertionPoint(op);
  FailureOr<TilingResult> sliced =
      cast<TilingInterface>(op.getOperation())
          .getTiledImplementation(rewriter,
                                  getAsIndexOpFoldResult(context, offsets),
                                  getAsIndexOpFoldResult(context, sizes));
  if (failed(sliced) || sliced->tiledOps.size() != 1)
    return {};
  return dyn_cast<linalg::LinalgOp>(sliced->tiledOps.front());
}

/// Ops with an initial value (AccumulatorInit.h) reach
/// fillThenTileReductions as one reduction block: a contraction cut into
/// several cache blocks (each block's tiles accumulate onto the previous
/// block's result) is split in two, its first block starting from the
/// value and the rest accumulating onto it. Ops that do not vectorise get
/// their fill back. Runs after viewWindowOperands, which can make a
/// windowed op a contraction.
void keepFillsTiled(RewriterBase &rewriter, func::FuncOp func,
                    const kiln::compiler::CpuRegisterTile &tile) {
  SmallVector<linalg::LinalgOp> initialised;
  func.walk([&](linalg::LinalgOp op) {
    if (kiln::compiler::accumulatorInit(op))
      initialised.push_back(op);
  });
  for (linalg::LinalgOp op : initialised) {
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    if (!canVectorize(op) || ranges.empty() ||
        ShapedType::isDynamicShape(ranges)) {
      kiln::compiler::materializeAccumulatorInit(rewriter, op);
      continue;
    }
    FailureOr<linalg::ContractionDimensions> dims =
        linalg::inferContractionDims(op);
    if (!linalg::isaContractionOpInterface(op) || failed(dims) ||
        dims->n.empty() || dims->k.empty() ||
        ranges[dims->k.back()] <= tile.depth)
      continue;
    // The block tileForCache would make first.
    unsigned k = dims->k.back();
    int64_t block =
        llvm::divideCeil(ranges[k], llvm::divideCeil(ranges[k], tile.depth));
    SmallVector<int64_t> offsets(ranges.size(), 0), sizes = ranges;
    sizes[k] = block;
    linalg::LinalgOp first = slicedOp(rewriter, op, offsets, sizes);
    offsets[k] = block;
    sizes[k] = ranges[k] - block;
    linalg::LinalgOp rest =
        first ? slicedOp(rewriter, op, offsets, sizes) : linalg::LinalgOp();
    if (!rest) {
      if (first)
        rewriter.eraseOp(first);
      kiln::compiler::materializeAccumulatorInit(rewriter, op);
      continue;
    }
    rest->removeAttr(kiln::compiler::kAccumulatorInitAttr);
    rewriter.eraseOp(op);
  }
}

/// Bytes of the part of `operand` the loops of `ranges` reach.
int64_t operandBytes(linalg::LinalgOp op, OpOperand &operand,
                     ArrayRef<int64_t> ranges) {
  int64_t elements = 1;
  for (AffineExpr result : op.getMatchingIndexingMap(&operand).getResults())
    if (auto dim = dyn_cast<AffineDimExpr>(result))
      elements *= ranges[dim.getPosition()];
  Type element = getElementTypeOrSelf(operand.get().getType());
  return elements * llvm::divideCeil(element.getIntOrFloatBitWidth(), 8);
}

/// Whether a contraction's reduction blocks should be its outermost cache
/// loop rather than its column panels. Panels outermost stream the
/// left-hand side (the weights) once per panel, which costs when it does
/// not stay in L2: a 3x3 256 -> 256 convolution on 14 x 14 (2.4 MB of
/// weights, 7 panels) read 16 MB. Blocks outermost read it once but pass
/// over the whole output once per block, which costs when that does not
/// stay in L2 (large maps). The loop order with fewer bytes from beyond L2
/// wins.
bool reductionBlocksFirst(linalg::LinalgOp op, ArrayRef<int64_t> ranges,
                          unsigned n, int64_t panelWidth, int64_t blocks,
                          const kiln::compiler::CpuRegisterTile &tile) {
  int64_t panels = llvm::divideCeil(ranges[n], panelWidth);
  if (blocks <= 1 || panels <= 1 || op.getNumDpsInits() != 1)
    return false;
  OpOperand *weights = nullptr;
  for (OpOperand *input : op.getDpsInputOperands())
    if (!op.getMatchingIndexingMap(input).isFunctionOfDim(n))
      weights = input;
  if (!weights)
    return false;
  int64_t weightBytes = operandBytes(op, *weights, ranges);
  int64_t outputBytes = operandBytes(op, *op.getDpsInitOperand(0), ranges);
  int64_t resident = tile.l2Bytes / 2;
  auto streamed = [&](int64_t bytes, int64_t passes) {
    return bytes > resident ? bytes * passes : bytes;
  };
  return weightBytes + streamed(outputBytes, blocks) <
         streamed(weightBytes, panels) + outputBytes;
}

/// Stage 1: cache blocks of a contraction. Column panels of `columns`
/// (the register tile's width) outermost, then blocks of `depth` along the
/// innermost reduction: a panel's block of the right-hand side (depth x
/// columns) stays in L1 while every row tile of the left-hand side passes
/// through it, and the left-hand side's block stays in L2 across panels.
/// Other ops go to stage 2 as they are.
void tileForCache(RewriterBase &rewriter, linalg::LinalgOp op,
                  const kiln::compiler::CpuRegisterTile &tile) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<int64_t> sizes(ranges.size(), 0);
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (!linalg::isaContractionOpInterface(op) || failed(dims) ||
      dims->n.empty()) {
    tileAndPeel(rewriter, op, sizes, {}, kRegisterStage);
    return;
  }
  unsigned n = dims->n.back();
  if (ranges[n] > tile.columns)
    sizes[n] = tile.columns;
  SmallVector<int64_t> order = {int64_t(n)};
  if (!dims->k.empty()) {
    unsigned k = dims->k.back();
    // Equal blocks no larger than `depth`: 768 is 3 x 256, 1000 4 x 250.
    int64_t blocks = llvm::divideCeil(ranges[k], tile.depth);
    // Only a first block may start from an initial value (keepFillsTiled
    // splits it off).
    if (blocks > 1 && kiln::compiler::accumulatorInit(op))
      kiln::compiler::materializeAccumulatorInit(rewriter, op);
    if (blocks > 1)
      sizes[k] = llvm::divideCeil(ranges[k], blocks);
    if (reductionBlocksFirst(op, ranges, n, sizes[n] ? sizes[n] : ranges[n],
                             blocks, tile))
      order.insert(order.begin(), k);
    else
      order.push_back(k);
  }
  for (unsigned d = 0; d < ranges.size(); ++d)
    if (!llvm::is_contained(order, int64_t(d)))
      order.push_back(d);
  tileAndPeel(rewriter, op, sizes, order, kRegisterStage);
}

/// The loop along an input's contiguous dimension when that input is read
/// transposed: its innermost dimension indexed by another loop than `last`
/// (the output's innermost), `last` indexing one of its outer dimensions.
std::optional<unsigned> transposedInputLoop(linalg::LinalgOp op,
                                            unsigned last) {
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    if (map.getNumResults() < 2 || !map.isProjectedPermutation())
      continue;
    auto inner = dyn_cast<AffineDimExpr>(map.getResults().back());
    if (inner && inner.getPosition() != last && map.isFunctionOfDim(last))
      return inner.getPosition();
  }
  return std::nullopt;
}

/// Rows of a contraction's register tile over `range` rows: `rows`, or a
/// few fewer where that divides the range and `rows` does not (49 pixels
/// are 7 x 7 rows rather than 6 x 8 and a one-row tail, which costs as
/// much per row as a whole tile and was 8% of a 7 x 7 map's product).
/// Six of eight rows still keep twelve FMA chains busy.
int64_t tileRows(int64_t range, int64_t rows) {
  if (range <= rows || range % rows == 0)
    return std::min(range, rows);
  for (int64_t fewer = rows - 1; fewer * 4 >= rows * 3; --fewer)
    if (range % fewer == 0)
      return fewer;
  return rows;
}

/// Stage 2: register tiles, now that every stage-1 tile is static. A
/// contraction's tile is `rows` x its (panel-wide) columns, the reduction
/// stepped by one: an outer product per step on accumulators that stay in
/// registers. Other ops take `kVectorLength` lanes of their innermost
/// loop. Remainders are peeled, never shrunk to a divisor. An op better
/// left to scalar loops stays as it is.
void tileForRegisters(RewriterBase &rewriter, linalg::LinalgOp op,
                      const kiln::compiler::CpuRegisterTile &tile) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  bool initialised = bool(kiln::compiler::accumulatorInit(op));
  // Where the op is not cut into register tiles, its fill goes back.
  auto untiled = [&] {
    if (initialised)
      kiln::compiler::materializeAccumulatorInit(rewriter, op);
  };
  if (ranges.empty() || ShapedType::isDynamicShape(ranges))
    return untiled();
  SmallVector<int64_t> sizes(ranges.size(), 1);
  auto upTo = [&](unsigned dim, int64_t limit) {
    sizes[dim] = std::min(ranges[dim], limit);
  };
  if (linalg::isaContractionOpInterface(op)) {
    FailureOr<linalg::ContractionDimensions> dims =
        linalg::inferContractionDims(op);
    if (failed(dims) || dims->n.empty())
      return untiled();
    unsigned n = dims->n.back();
    if (ranges[n] < kMinVectorLength)
      return untiled();
    upTo(n, tile.columns);
    // A panel's remainder wider than one vector but not whole vectors (17
    // of 49 columns) would make rows of accumulators LLVM splits into
    // scalar inserts and spills: whole vectors, then the rest peeled.
    if (sizes[n] > tile.lanes && sizes[n] % tile.lanes != 0)
      sizes[n] -= sizes[n] % tile.lanes;
    if (!dims->m.empty()) {
      unsigned m = dims->m.back();
      sizes[m] = tileRows(ranges[m], tile.rows);
    }
  } else {
    unsigned last = ranges.size() - 1;
    if (ranges[last] < kMinVectorLength)
      return untiled();
    upTo(last, kVectorLength);
    // An input read transposed (its contiguous dimension another loop's) is
    // read a square tile at a time, rows along its own contiguous
    // dimension, and transposed in registers: not one element per lane.
    if (std::optional<unsigned> loop = transposedInputLoop(op, last);
        loop && ranges[*loop] >= kMinVectorLength)
      upTo(*loop, kVectorLength);
  }
  // A tile spanning a whole loop needs no loop.
  for (auto [size, range] : llvm::zip(sizes, ranges))
    if (size == range)
      size = 0;
  if (!initialised)
    return tileAndPeel(rewriter, op, sizes, {}, kVectorStage);
  // The parallel loops first: each of their tiles is filled before its
  // reduction loops (fillThenTileReductions).
  for (auto [size, iterator] : llvm::zip(sizes, op.getIteratorTypesArray()))
    if (linalg::isReductionIterator(iterator))
      size = 0;
  tileAndPeel(rewriter, op, sizes, {}, kInitStage);
}

/// Stage 2b: a register tile of a contraction with an initial value (its
/// parallel loops tiled, and static) gets a fill of its output in front of
/// it, then its reduction stepped by one as tileForRegisters does. After
/// vectorising and hoisting, the fill is a write of a constant tile that
/// the accumulator read right after it takes instead of memory
/// (forwardTileFills).
void fillThenTileReductions(RewriterBase &rewriter, linalg::LinalgOp op) {
  linalg::FillOp fill =
      kiln::compiler::materializeAccumulatorInit(rewriter, op);
  fill->setAttr(kVectorStage, rewriter.getUnitAttr());
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<int64_t> sizes;
  for (auto [range, iterator] : llvm::zip(ranges, op.getIteratorTypesArray()))
    sizes.push_back(linalg::isReductionIterator(iterator) && range > 1 ? 1 : 0);
  // A reduction along the innermost loop (a row sum, a global pool) is
  // the vector's loop: stepped by one it would be scalar. It takes
  // kVectorLength lanes, reduced once after its loop (reduceAfterLoops).
  unsigned last = ranges.size() - 1;
  if (!linalg::isaContractionOpInterface(op) && sizes[last] == 1 &&
      ranges[last] >= kMinVectorLength)
    sizes[last] = ranges[last] > kVectorLength ? kVectorLength : 0;
  tileAndPeel(rewriter, op, sizes, {}, kVectorStage);
}

/// Stage 3: a static tile becomes vector transfers and vector math.
void vectorizeTile(RewriterBase &rewriter, linalg::LinalgOp tile) {
  if (ShapedType::isDynamicShape(tile.getStaticLoopRanges()))
    return; // Lowered to (scalar) loops.
  rewriter.setInsertionPoint(tile);
  FailureOr<linalg::VectorizationResult> vectorized = linalg::vectorize(
      rewriter, tile, /*inputVectorSizes=*/{}, /*inputScalableVecDims=*/{},
      /*vectorizeNDExtract=*/false, /*flatten1DDepthwiseConv=*/false,
      /*assumeDynamicDimsMatchVecSizes=*/false,
      /*createNamedContraction=*/linalg::isaContractionOpInterface(tile));
  // A tile left unvectorised still lowers to (scalar) loops.
  if (succeeded(vectorized))
    rewriter.replaceOp(tile, vectorized->replacements);
}

/// Folds the peeled tiles' constant sizes into static subview types (and
/// the casts into the linalg ops), and inlines one-iteration loops.
LogicalResult makeTilesStatic(func::FuncOp func) {
  MLIRContext *context = func.getContext();
  RewritePatternSet patterns(context);
  scf::ForOp::getCanonicalizationPatterns(patterns, context);
  affine::AffineApplyOp::getCanonicalizationPatterns(patterns, context);
  affine::AffineMinOp::getCanonicalizationPatterns(patterns, context);
  affine::AffineMaxOp::getCanonicalizationPatterns(patterns, context);
  memref::SubViewOp::getCanonicalizationPatterns(patterns, context);
  memref::CastOp::getCanonicalizationPatterns(patterns, context);
  return applyPatternsGreedily(func, std::move(patterns));
}

/// The ops marked `stage`, unmarked.
SmallVector<linalg::LinalgOp> takeStage(func::FuncOp func, StringRef stage) {
  SmallVector<linalg::LinalgOp> ops;
  func.walk([&](linalg::LinalgOp op) {
    if (op->removeAttr(stage))
      ops.push_back(op);
  });
  return ops;
}

/// The write in `loop` matching `read` (same view, indices, type and map),
/// if the view has no other user in the loop.
vector::TransferWriteOp findAccumulatorWrite(scf::ForOp loop,
                                             vector::TransferReadOp read) {
  Value base = read.getBase();
  if (read.getMask() || !loop.isDefinedOutsideOfLoop(base) ||
      !llvm::all_of(read.getIndices(),
                    [&](Value v) { return loop.isDefinedOutsideOfLoop(v); }))
    return {};
  vector::TransferWriteOp write;
  for (Operation *user : base.getUsers()) {
    if (user == read || !loop->isAncestor(user))
      continue;
    auto candidate = dyn_cast<vector::TransferWriteOp>(user);
    if (write || !candidate || candidate->getParentOp() != loop ||
        candidate.getMask() || candidate.getIndices() != read.getIndices() ||
        candidate.getVectorType() != read.getVectorType() ||
        candidate.getPermutationMap() != read.getPermutationMap() ||
        !read->isBeforeInBlock(candidate))
      return {};
    write = candidate;
  }
  return write;
}

/// Keeps accumulator tiles (a contraction's output, a reduction's result)
/// in registers across the loop that accumulates them: a read and a write
/// of one loop-invariant view become a read before the loop, an iteration
/// argument and a write after it. Upstream's hoistRedundantVectorTransfers
/// refuses views (subviews) as sources, which is all tiling on buffers
/// makes. The view must have no other user in the loop; other buffers do
/// not alias it (the memory plan shares a buffer only between an
/// elementwise op's input and output, which are not accumulators).
void hoistAccumulators(RewriterBase &rewriter, func::FuncOp func) {
  SmallVector<scf::ForOp> loops;
  func.walk([&](scf::ForOp loop) { loops.push_back(loop); });
  for (scf::ForOp loop : loops) {
    // Views and indices computed in the loop but invariant move out first.
    moveLoopInvariantCode(cast<LoopLikeOpInterface>(loop.getOperation()));
    bool hoisted = true;
    while (hoisted) {
      hoisted = false;
      for (auto read : loop.getBody()->getOps<vector::TransferReadOp>()) {
        vector::TransferWriteOp write = findAccumulatorWrite(loop, read);
        if (!write)
          continue;
        rewriter.moveOpBefore(read, loop);
        FailureOr<LoopLikeOpInterface> replaced =
            cast<LoopLikeOpInterface>(loop.getOperation())
                .replaceWithAdditionalYields(
                    rewriter, read.getResult(),
                    /*replaceInitOperandUsesInLoop=*/true,
                    [&](OpBuilder &, Location, ArrayRef<BlockArgument>) {
                      return SmallVector<Value>{write.getVector()};
                    });
        if (failed(replaced))
          return;
        loop = cast<scf::ForOp>(replaced->getOperation());
        rewriter.moveOpAfter(write, loop);
        rewriter.modifyOpInPlace(write, [&] {
          write.getValueToStoreMutable().assign(loop.getResults().back());
        });
        hoisted = true;
        break;
      }
    }
  }
}

/// The next op after `op` in its block that may touch memory, or null.
Operation *nextWithEffects(Operation *op) {
  Operation *next = op->getNextNode();
  while (next && isMemoryEffectFree(next))
    next = next->getNextNode();
  return next;
}

/// Whether `read` or `write` reads or writes exactly the tile `fill` wrote.
template <typename TransferOp>
bool sameTile(vector::TransferWriteOp fill, TransferOp other) {
  return other && other.getBase() == fill.getBase() && !other.getMask() &&
         other.getIndices() == fill.getIndices() &&
         other.getVectorType() == fill.getVectorType() &&
         other.getPermutationMap() == fill.getPermutationMap() &&
         other.getInBounds() == fill.getInBounds();
}

/// Whether anything in `loop` may write memory or uses `buffer`.
bool writesOrUses(scf::ForOp loop, Value buffer) {
  return loop
      ->walk([&](Operation *op) {
        if (llvm::is_contained(op->getOperands(), buffer))
          return WalkResult::interrupt();
        if (op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
          return WalkResult::advance();
        auto effects = dyn_cast<MemoryEffectOpInterface>(op);
        return !effects || effects.hasEffect<MemoryEffects::Write>()
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

/// A register tile filled with its initial value (fillThenTileReductions)
/// and read back at once as its accumulators takes the value instead; and
/// when the loop accumulating it leaves the buffer alone and the tile is
/// then written whole, the fill's own write goes too: the output is written
/// once, by the tile's result.
void forwardTileFills(RewriterBase &rewriter, func::FuncOp func) {
  SmallVector<vector::TransferWriteOp> writes;
  func.walk([&](vector::TransferWriteOp write) { writes.push_back(write); });
  for (vector::TransferWriteOp fill : writes) {
    if (fill.getMask())
      continue;
    auto read = dyn_cast_or_null<vector::TransferReadOp>(nextWithEffects(fill));
    if (!sameTile(fill, read))
      continue;
    rewriter.replaceOp(read, fill.getVector());
    auto loop = dyn_cast_or_null<scf::ForOp>(nextWithEffects(fill));
    if (!loop || writesOrUses(loop, fill.getBase()))
      continue;
    auto result =
        dyn_cast_or_null<vector::TransferWriteOp>(nextWithEffects(loop));
    if (sameTile(fill, result))
      rewriter.eraseOp(fill);
  }
}

/// The neutral element of `kind` on `type`, or null.
TypedAttr neutralElement(vector::CombiningKind kind, Type type) {
  using vector::CombiningKind;
  if (auto floatType = dyn_cast<FloatType>(type)) {
    const llvm::fltSemantics &semantics = floatType.getFloatSemantics();
    switch (kind) {
    case CombiningKind::ADD:
      return FloatAttr::get(floatType, 0.0);
    case CombiningKind::MUL:
      return FloatAttr::get(floatType, 1.0);
    case CombiningKind::MAXIMUMF:
    case CombiningKind::MAXNUMF:
      return FloatAttr::get(floatType,
                            APFloat::getInf(semantics, /*Negative=*/true));
    case CombiningKind::MINIMUMF:
    case CombiningKind::MINNUMF:
      return FloatAttr::get(floatType, APFloat::getInf(semantics));
    default:
      return {};
    }
  }
  if (auto intType = dyn_cast<IntegerType>(type)) {
    if (kind == CombiningKind::ADD || kind == CombiningKind::OR ||
        kind == CombiningKind::XOR)
      return IntegerAttr::get(intType, 0);
    if (kind == CombiningKind::MUL)
      return IntegerAttr::get(intType, 1);
  }
  return {};
}

/// A loop reducing each vector tile into a carried accumulator
/// (multi_reduction with the iteration argument as its acc) becomes one
/// carrying a whole tile of partial results, combined lane by lane, and
/// reduced once after the loop: no horizontal reduction, and no dependency
/// chain through one scalar, per tile.
void reduceAfterLoops(RewriterBase &rewriter, func::FuncOp func) {
  SmallVector<vector::MultiDimReductionOp> reductions;
  func.walk([&](vector::MultiDimReductionOp op) { reductions.push_back(op); });
  for (vector::MultiDimReductionOp reduction : reductions) {
    auto loop = dyn_cast<scf::ForOp>(reduction->getParentOp());
    auto acc = dyn_cast<BlockArgument>(reduction.getAcc());
    if (!loop || !acc || acc.getOwner() != loop.getBody() ||
        acc.getArgNumber() == 0 || !acc.hasOneUse() || !reduction->hasOneUse())
      continue;
    unsigned index = acc.getArgNumber() - 1;
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    if (yield.getOperand(index) != reduction.getResult())
      continue;
    VectorType sourceType = reduction.getSourceVectorType();
    TypedAttr neutral =
        neutralElement(reduction.getKind(), sourceType.getElementType());
    if (!neutral)
      continue;
    Location loc = reduction.getLoc();
    rewriter.setInsertionPoint(loop);
    Value partialInit = arith::ConstantOp::create(
        rewriter, loc, DenseElementsAttr::get(sourceType, neutral));
    FailureOr<LoopLikeOpInterface> replaced =
        cast<LoopLikeOpInterface>(loop.getOperation())
            .replaceWithAdditionalYields(
                rewriter, partialInit, /*replaceInitOperandUsesInLoop=*/false,
                [&](OpBuilder &b, Location l, ArrayRef<BlockArgument> args) {
                  return SmallVector<Value>{vector::makeArithReduction(
                      b, l, reduction.getKind(), args.front(),
                      reduction.getSource())};
                });
    if (failed(replaced))
      continue;
    auto newLoop = cast<scf::ForOp>(replaced->getOperation());
    rewriter.setInsertionPointAfter(newLoop);
    Value result = vector::MultiDimReductionOp::create(
        rewriter, loc, newLoop.getResults().back(), newLoop.getInits()[index],
        reduction.getReductionMask(), reduction.getKind());
    rewriter.replaceAllUsesWith(newLoop.getResult(index), result);
    // The scalar chain is dead: pass the accumulator through, unused.
    auto newYield = cast<scf::YieldOp>(newLoop.getBody()->getTerminator());
    Value carried = newLoop.getRegionIterArgs()[index];
    rewriter.modifyOpInPlace(newYield,
                             [&] { newYield->setOperand(index, carried); });
    rewriter.eraseOp(reduction);
  }
}

struct VectorizeLinalgPass
    : kiln::compiler::impl::VectorizeLinalgPassBase<VectorizeLinalgPass> {
  using VectorizeLinalgPassBase::VectorizeLinalgPassBase;
  void getDependentDialects(DialectRegistry &registry) const override {
    VectorizeLinalgPassBase::getDependentDialects(registry);
    linalg::registerTilingInterfaceExternalModels(registry);
    arith::registerValueBoundsOpInterfaceExternalModels(registry);
    memref::registerValueBoundsOpInterfaceExternalModels(registry);
  }

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    kiln::compiler::CpuRegisterTile tile =
        kiln::compiler::CpuRegisterTile::forHost();
    if (registerRows > 0)
      tile.rows = registerRows;
    if (registerColumns > 0)
      tile.columns = registerColumns;
    if (vectorLanes > 0)
      tile.lanes = vectorLanes;
    if (cacheDepth > 0)
      tile.depth = cacheDepth;
    if (accumulatorChains > 0)
      tile.chains = accumulatorChains;
    if (prefetchDistance >= 0)
      tile.prefetchBytes = prefetchDistance;
    IRRewriter rewriter(&getContext());
    SmallVector<linalg::GenericOp> generics;
    func.walk([&](linalg::GenericOp op) { generics.push_back(op); });
    for (linalg::GenericOp op : generics)
      viewWindowOperands(rewriter, op);
    keepFillsTiled(rewriter, func, tile);
    SmallVector<linalg::LinalgOp> ops;
    func.walk([&](linalg::LinalgOp op) { ops.push_back(op); });
    for (linalg::LinalgOp op : ops) {
      SmallVector<int64_t> ranges = op.getStaticLoopRanges();
      if (canVectorize(op) && !ranges.empty() &&
          !ShapedType::isDynamicShape(ranges))
        tileForCache(rewriter, op, tile);
    }
    if (failed(makeTilesStatic(func)))
      return signalPassFailure();
    for (linalg::LinalgOp op : takeStage(func, kRegisterStage))
      tileForRegisters(rewriter, op, tile);
    if (failed(makeTilesStatic(func)))
      return signalPassFailure();
    for (linalg::LinalgOp op : takeStage(func, kInitStage))
      fillThenTileReductions(rewriter, op);
    if (failed(makeTilesStatic(func)))
      return signalPassFailure();
    for (linalg::LinalgOp op : takeStage(func, kVectorStage))
      vectorizeTile(rewriter, op);

    // What vectorize_children_and_apply_patterns does after vectorising:
    // multiply + reduce becomes vector.contract, transfers get minor
    // identity maps.
    RewritePatternSet patterns(&getContext());
    vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
    vector::populateVectorReductionToContractPatterns(patterns);
    vector::populateSinkVectorOpsPatterns(patterns);
    vector::TransferReadOp::getCanonicalizationPatterns(patterns,
                                                        &getContext());
    vector::TransferWriteOp::getCanonicalizationPatterns(patterns,
                                                         &getContext());
    scf::ForOp::getCanonicalizationPatterns(patterns, &getContext());
    affine::AffineApplyOp::getCanonicalizationPatterns(patterns, &getContext());
    affine::AffineMinOp::getCanonicalizationPatterns(patterns, &getContext());
    memref::SubViewOp::getCanonicalizationPatterns(patterns, &getContext());
    if (failed(applyPatternsGreedily(func, std::move(patterns))))
      return signalPassFailure();
    // Accumulators stay in registers across the reduction loop.
    hoistAccumulators(rewriter, func);
    forwardTileFills(rewriter, func);
    reduceAfterLoops(rewriter, func);
    // Too few accumulators to hide the FMA latency: partial ones.
    kiln::compiler::splitAccumulatorChains(rewriter, func, tile);
    // Weights stream from beyond L2 inside a network: ask for them early.
    kiln::compiler::prefetchWeightStreams(rewriter, func, tile.prefetchBytes,
                                          tile.l2Bytes / 2);
  }
};

} // namespace
