//===- Im2col.cpp - Convolutions as chunked im2col + matmul ---------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// out[n, o, p] = sum_r W[o, r] * col[n, r, p] with r = (c, kh, kw) and
// p = (oh, ow). The output pixels are contiguous columns, so the CPU code
// generator register-tiles and vectorises the product like any matmul (a
// direct convolution generic has a non-permutation input map and stays
// scalar).
//
// The col matrix is KH*KW times the input (9x for a 3x3 convolution), so
// materialised whole it, not the activations, set ResNet's memory peak.
// A convolution whose col would be larger than its output, than the
// largest tensor its function computes and than 32 KiB is therefore split
// into chunks of output rows: each chunk gathers its own col (from
// a zero-padded strip of the input rows it reads) and multiplies it into
// a slice of the output. Chunks' cols have disjoint lifetimes, so the
// memory plan reuses one slot for all of them, and a chunk's col is still
// in cache when its product reads it.
//
//===----------------------------------------------------------------------===//

#include "compiler/Conversion/GraphToLinalg/Im2col.h"

#include "compiler/Conversion/GraphToLinalg/LoweringUtils.h"
#include "compiler/Conversion/GraphToLinalg/Passes.h"
#include "compiler/Conversion/GraphToLinalg/ScalarOps.h"
#include "dialects/Graph/IR/GraphOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;

namespace kiln::compiler::lowering {

namespace {

/// Register tiles are up to 32 columns wide (VectorizeLinalg); a chunk
/// keeps the power-of-two factor of the pixel count up to this, so that it
/// gets as wide a tile as the whole product would.
constexpr int64_t kTileColumns = 32;
/// Narrower chunks multiply too few columns per weight load.
constexpr int64_t kMinChunkPixels = 64;
/// A col this small (within L1) is left whole: chunks would only add
/// kernels.
constexpr int64_t kMinChunkBudget = 32 * 1024;

int64_t powerOfTwoFactor(int64_t value) { return value & -value; }

SmallVector<OpFoldResult> indexAttrs(OpBuilder &b, ArrayRef<int64_t> values) {
  SmallVector<OpFoldResult> result;
  for (int64_t value : values)
    result.push_back(b.getIndexAttr(value));
  return result;
}

/// Rows [first, first + count) of the zero-padded input, in padded
/// coordinates: a view when they need no padding, else a padded copy of
/// just those rows.
Value paddedRows(OpBuilder &b, Location loc, Value input,
                 ArrayRef<int64_t> pads, int64_t first, int64_t count) {
  auto type = cast<RankedTensorType>(input.getType());
  ArrayRef<int64_t> in = type.getShape();
  int64_t top = first - pads[0];
  int64_t begin = std::clamp<int64_t>(top, 0, in[2]);
  int64_t end = std::clamp<int64_t>(top + count, begin, in[2]);
  Value rows = input;
  if (begin != 0 || end != in[2])
    rows = tensor::ExtractSliceOp::create(
        b, loc, input, indexAttrs(b, {0, 0, begin, 0}),
        indexAttrs(b, {in[0], in[1], end - begin, in[3]}),
        indexAttrs(b, {1, 1, 1, 1}));
  int64_t padTop = begin - top, padBottom = top + count - end;
  if (padTop == 0 && padBottom == 0 && pads[1] == 0 && pads[3] == 0)
    return rows;
  return PadOp::create(b, loc, rows, ArrayRef<int64_t>{0, 0, padTop, pads[1]},
                       ArrayRef<int64_t>{0, 0, padBottom, pads[3]},
                       PadMode::constant, APFloat(0.0));
}

/// The col matrix [N, C*KH*KW, rows*OW] of output rows starting at the
/// first row of `strip` (padded input rows).
Value gatherColumns(OpBuilder &b, Location loc, Value strip,
                    ArrayRef<int64_t> kernel, int64_t rows, int64_t columns,
                    ArrayRef<int64_t> strides, ArrayRef<int64_t> dilations) {
  MLIRContext *context = b.getContext();
  auto type = cast<RankedTensorType>(strip.getType());
  ArrayRef<int64_t> in = type.getShape();
  Type element = type.getElementType();
  AffineExpr n, c, kh, kw, oh, ow;
  bindDims(context, n, c, kh, kw, oh, ow);
  auto patchesType = RankedTensorType::get(
      {in[0], in[1], kernel[0], kernel[1], rows, columns}, element);
  SmallVector<AffineMap> maps = {
      AffineMap::get(6, 0,
                     {n, c, oh * strides[0] + kh * dilations[0],
                      ow * strides[1] + kw * dilations[1]},
                     context),
      AffineMap::getMultiDimIdentityMap(6, context)};
  SmallVector<utils::IteratorType> iterators(6, utils::IteratorType::parallel);
  Value patches =
      buildGeneric(b, loc, patchesType, ValueRange{strip},
                   emptyTensor(b, loc, patchesType), maps, iterators,
                   [](OpBuilder &, Location, ValueRange args) {
                     return SmallVector<Value>{args[0]};
                   })
          .front();
  return reshapeTensor(
      b, loc, patches,
      RankedTensorType::get(
          {in[0], in[1] * kernel[0] * kernel[1], rows * columns}, element));
}

/// `init` + lhs x rhs over `maps`, the output's loops parallel and the one
/// after them the reduction.
Value contraction(OpBuilder &b, Location loc, Value lhs, Value rhs, Value init,
                  ArrayRef<AffineMap> maps) {
  SmallVector<utils::IteratorType> iterators(maps.back().getNumResults(),
                                             utils::IteratorType::parallel);
  iterators.push_back(utils::IteratorType::reduction);
  return buildGeneric(b, loc, init.getType(), ValueRange{lhs, rhs}, init, maps,
                      iterators,
                      [](OpBuilder &nb, Location l, ValueRange args) {
                        return SmallVector<Value>{emitAdd(
                            nb, l, args[2], emitMul(nb, l, args[0], args[1]))};
                      })
      .front();
}

/// Indexing maps over the loops named, one letter each, by `loops`; each
/// operand lists the loops of its dimensions: ("mnk", {"mk", "kn", "mn"})
/// is a matmul's.
SmallVector<AffineMap> namedMaps(MLIRContext *context, StringRef loops,
                                 ArrayRef<StringRef> operands) {
  SmallVector<AffineMap> maps;
  for (StringRef operand : operands) {
    SmallVector<AffineExpr> results;
    for (char loop : operand)
      results.push_back(getAffineDimExpr(loops.find(loop), context));
    maps.push_back(AffineMap::get(loops.size(), 0, results, context));
  }
  return maps;
}

bool isPacked(Value weights) {
  return cast<RankedTensorType>(weights.getType()).getRank() == 3;
}

/// `init` + matrix x col [N, R, P]: a matrix [O, R] gives [N, O, P], a
/// packed one [O / rows, R, rows] gives [N, O / rows, rows, P]. Loops: n
/// batch, o (b, i) output channel (panel, within it), p pixel, r reduction.
Value multiply(OpBuilder &b, Location loc, Value matrix, Value col,
               Value init) {
  SmallVector<AffineMap> maps =
      isPacked(matrix)
          ? namedMaps(b.getContext(), "nbipr", {"bri", "nrp", "nbip"})
          : namedMaps(b.getContext(), "nopr", {"or", "nrp", "nop"});
  return contraction(b, loc, matrix, col, init, maps);
}

/// col [N, R, P] x `weights` into `init`: the output channels are the
/// register tile's columns and each pixel's col value a broadcast (col is
/// the contraction's left-hand side, so its pixels are the tile's rows).
/// Weights [R, O] give [N, P, O]; packed ones [O / w, R, w] give
/// [N, P, O / w, w], the same bytes, their panels the outer loop so that
/// each panel's weights are read once, front to back.
Value multiplyChannelColumns(OpBuilder &b, Location loc, Value col,
                             Value weights, Value init) {
  SmallVector<AffineMap> maps =
      isPacked(weights)
          ? namedMaps(b.getContext(), "nbpir", {"nrp", "bri", "npbi"})
          : namedMaps(b.getContext(), "npor", {"nrp", "ro", "npo"});
  return contraction(b, loc, col, weights, init, maps);
}

/// [N, P, O] as [N, O, P].
Value channelsFirst(OpBuilder &b, Location loc, Value product) {
  auto type = cast<RankedTensorType>(product.getType());
  ArrayRef<int64_t> shape = type.getShape();
  auto resultType = RankedTensorType::get({shape[0], shape[2], shape[1]},
                                          type.getElementType());
  SmallVector<AffineMap> maps =
      namedMaps(b.getContext(), "nop", {"npo", "nop"});
  SmallVector<utils::IteratorType> iterators(3, utils::IteratorType::parallel);
  return buildGeneric(b, loc, resultType, ValueRange{product},
                      emptyTensor(b, loc, resultType), maps, iterators,
                      [](OpBuilder &, Location, ValueRange args) {
                        return SmallVector<Value>{args[0]};
                      })
      .front();
}

/// Share of the FMA lanes a register tile's row of `width` columns keeps
/// busy: whole 32-column tiles, then one or two 16-lane vectors for the
/// rest (a one-column rest costs a whole FMA).
double laneShare(int64_t width) {
  int64_t rest = width % kTileColumns;
  int64_t vectors = 2 * (width / kTileColumns) + (rest == 0   ? 0
                                                  : rest > 16 ? 2
                                                              : 1);
  return double(width) / double(16 * vectors);
}

/// Whether a product of `pixels` columns wastes enough lanes (49 pixels:
/// 32 + 16 + 1 columns, 77%) that the `outputs` channels should be the
/// columns instead (512: every lane); the transpose back to channels
/// first costs a pass over the output.
bool channelsAsColumns(int64_t pixels, int64_t outputs) {
  constexpr double kMargin = 0.1;
  return outputs >= 16 && laneShare(outputs) >= laneShare(pixels) + kMargin;
}

/// A constant `weight` [O, ...] as the matrix [R, O], or null when it is
/// not a constant of byte-sized elements.
Value transposedWeights(OpBuilder &b, Location loc, Value weight) {
  DenseElementsAttr attr;
  if (!matchPattern(weight, m_Constant(&attr)))
    return {};
  auto type = cast<RankedTensorType>(attr.getType());
  int64_t outputs = type.getDimSize(0);
  int64_t reduction = type.getNumElements() / outputs;
  // transposedBlocks' one block [1, R, O] is weight (o, r) at (0, r, o).
  DenseElementsAttr transposed = transposedBlocks(
      attr, RankedTensorType::get({reduction, outputs}, type.getElementType()),
      1, outputs, reduction);
  if (!transposed)
    return {};
  return arith::ConstantOp::create(b, loc, transposed);
}

/// A constant `weight` [O, ...] as the matrix [O / rows, R, rows] (R the
/// product of the other dimensions): each register tile's `rows` weights
/// of one reduction step are contiguous, so the micro-kernel reads one
/// stream instead of `rows` rows R elements apart. Null when the weight is
/// not a constant of byte-sized elements or `rows` does not divide O.
Value packedWeights(OpBuilder &b, Location loc, Value weight, int64_t rows) {
  DenseElementsAttr attr;
  if (rows <= 1 || !matchPattern(weight, m_Constant(&attr)))
    return {};
  auto type = cast<RankedTensorType>(attr.getType());
  Type element = type.getElementType();
  int64_t outputs = type.getDimSize(0);
  if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() % 8 != 0 ||
      outputs % rows != 0 || outputs == rows)
    return {};
  int64_t reduction = type.getNumElements() / outputs;
  auto packedType =
      RankedTensorType::get({outputs / rows, reduction, rows}, element);
  // Packed element (block, r, o) is weight (block * rows + o, r).
  DenseElementsAttr packed =
      transposedBlocks(attr, packedType, outputs / rows, rows, reduction);
  return arith::ConstantOp::create(b, loc, packed);
}

Value zeroFilled(OpBuilder &b, Location loc, Value tensor) {
  Type element = cast<RankedTensorType>(tensor.getType()).getElementType();
  return linalg::FillOp::create(b, loc,
                                ValueRange{scalarConstant(b, loc, element, 0)},
                                ValueRange{tensor})
      .getResult(0);
}

} // namespace

int64_t im2colChunkRows(int64_t outRows, int64_t outColumns,
                        int64_t colRowBytes, int64_t budget) {
  int64_t wanted =
      std::min(powerOfTwoFactor(outRows * outColumns), kTileColumns);
  int64_t smallest = outRows;
  // Largest first: fewer chunks are fewer kernels and weight passes.
  for (int64_t rows = outRows; rows >= 1; --rows) {
    int64_t pixels = rows * outColumns;
    if (outRows % rows != 0 ||
        (rows != outRows &&
         (pixels < kMinChunkPixels || powerOfTwoFactor(pixels) < wanted)))
      continue;
    if (rows * colRowBytes <= budget)
      return rows;
    smallest = rows;
  }
  return smallest;
}

Value im2colConvolution(OpBuilder &b, Location loc, Value input, Value weight,
                        RankedTensorType resultType, ArrayRef<int64_t> pads,
                        ArrayRef<int64_t> strides, ArrayRef<int64_t> dilations,
                        int64_t largestTensorBytes, int64_t packRows) {
  Type element = resultType.getElementType();
  ArrayRef<int64_t> in = cast<RankedTensorType>(input.getType()).getShape();
  ArrayRef<int64_t> w = cast<RankedTensorType>(weight.getType()).getShape();
  ArrayRef<int64_t> out = resultType.getShape();
  int64_t pixels = out[2] * out[3], reduction = w[1] * w[2] * w[3];
  bool padded = llvm::any_of(pads, [](int64_t p) { return p != 0; });
  bool direct = w[2] == 1 && w[3] == 1 && strides[0] == 1 && strides[1] == 1 &&
                !padded && in[2] == out[2] && in[3] == out[3];
  // A plan must hold the function's largest tensor anyway; a chunk's col
  // no larger than it (or than this convolution's own output) at most
  // doubles that. The test-size ResNet needs the bound that tight; at
  // benchmark size it still leaves the late, small convolutions whole.
  int64_t elementBytes = (element.getIntOrFloatBitWidth() + 7) / 8;
  int64_t budget = std::max({in[0] * w[0] * pixels * elementBytes,
                             largestTensorBytes, kMinChunkBudget});
  int64_t rows =
      direct
          ? out[2]
          : im2colChunkRows(out[2], out[3],
                            in[0] * reduction * out[3] * elementBytes, budget);
  auto stripRows = [&](int64_t count) {
    return (count - 1) * strides[0] + (w[2] - 1) * dilations[0] + 1;
  };
  // Output rows [first, first + count) as col; a 1x1 stride-1
  // convolution reads its input as col directly.
  auto colOf = [&](int64_t first, int64_t count) -> Value {
    if (direct)
      return reshapeTensor(
          b, loc, input,
          RankedTensorType::get({in[0], reduction, pixels}, element));
    Value strip =
        paddedRows(b, loc, input, pads, first * strides[0], stripRows(count));
    return gatherColumns(b, loc, strip, w.drop_front(2), count, out[3], strides,
                         dilations);
  };

  // Small maps (CPU only, where weights are packed): the output channels as
  // the product's columns, [N, P, O], then transposed back.
  // Weights in panels of the tile's width where it divides the channels:
  // read through [R, O], a tile's reduction steps are rows O elements
  // apart, each on its own page (2048 channels: 8 KiB), and the kernel
  // ran at 60% of the FMA peak instead of 90%.
  if (packRows > 1 && rows == out[2] && channelsAsColumns(pixels, w[0])) {
    Value weights = packedWeights(b, loc, weight, kTileColumns);
    SmallVector<int64_t> productShape = {in[0], pixels, w[0] / kTileColumns,
                                         kTileColumns};
    if (!weights) {
      weights = transposedWeights(b, loc, weight);
      productShape = {in[0], pixels, w[0]};
    }
    if (weights) {
      auto productType = RankedTensorType::get(productShape, element);
      Value product = multiplyChannelColumns(
          b, loc, colOf(0, out[2]), weights,
          zeroFilled(b, loc, emptyTensor(b, loc, productType)));
      product =
          reshapeTensor(b, loc, product,
                        RankedTensorType::get({in[0], pixels, w[0]}, element));
      return reshapeTensor(b, loc, channelsFirst(b, loc, product), resultType);
    }
  }

  // The product is [N, O, P], or [N, O / rows, rows, P] with packed
  // weights: the same bytes, so the result reshapes either way.
  Value matrix = packedWeights(b, loc, weight, packRows);
  SmallVector<int64_t> productShape = {in[0], w[0], pixels};
  if (matrix)
    productShape = {in[0], w[0] / packRows, packRows, pixels};
  else
    matrix = reshapeTensor(b, loc, weight,
                           RankedTensorType::get({w[0], reduction}, element));
  auto productType = RankedTensorType::get(productShape, element);

  Value product = emptyTensor(b, loc, productType);
  if (rows == out[2]) {
    product =
        multiply(b, loc, matrix, colOf(0, out[2]), zeroFilled(b, loc, product));
    return reshapeTensor(b, loc, product, resultType);
  }
  // Each chunk multiplies into a slice of the one output buffer (its last
  // dimension, the pixels), which bufferisation updates in place
  // (extract_slice / insert_slice pairs).
  SmallVector<int64_t> chunkShape = productShape;
  chunkShape.back() = rows * out[3];
  SmallVector<OpFoldResult> sizes = indexAttrs(b, chunkShape);
  SmallVector<OpFoldResult> unit =
      indexAttrs(b, SmallVector<int64_t>(chunkShape.size(), 1));
  for (int64_t first = 0; first < out[2]; first += rows) {
    Value col = colOf(first, rows);
    SmallVector<int64_t> chunkOffsets(chunkShape.size(), 0);
    chunkOffsets.back() = first * out[3];
    SmallVector<OpFoldResult> offsets = indexAttrs(b, chunkOffsets);
    Value slice =
        tensor::ExtractSliceOp::create(b, loc, product, offsets, sizes, unit);
    Value chunk = multiply(b, loc, matrix, col, zeroFilled(b, loc, slice));
    product = tensor::InsertSliceOp::create(b, loc, chunk, product, offsets,
                                            sizes, unit);
  }
  return reshapeTensor(b, loc, product, resultType);
}

} // namespace kiln::compiler::lowering

int64_t kiln::compiler::largestComputedTensorBytes(Operation *function) {
  int64_t largest = 0;
  function->walk([&](Operation *op) {
    if (isa<kiln::ConstantOp, arith::ConstantOp>(op))
      return;
    for (Type type : op->getResultTypes())
      if (auto tensor = dyn_cast<RankedTensorType>(type);
          tensor && tensor.hasStaticShape() &&
          tensor.getElementType().isIntOrFloat())
        largest = std::max<int64_t>(
            largest, tensor.getNumElements() *
                         ((tensor.getElementTypeBitWidth() + 7) / 8));
  });
  return largest;
}
