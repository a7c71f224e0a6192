//===- ContractionToLinalg.cpp - matmul, gemm, conv2d -> linalg -----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Contractions become one linalg.generic with reduction loops, accumulating
// into a zero-filled output; epilogues (gemm's alpha/beta/C, conv's bias)
// are separate elementwise generics that fusion can later fold in. The
// shapes suit the CPU code generator, which vectorises along the output's
// contiguous columns: a constant transposed gemm operand is transposed at
// compile time, and ungrouped convolutions are im2col + matmul.
//
//===----------------------------------------------------------------------===//

#include "compiler/Conversion/GraphToLinalg/Im2col.h"
#include "compiler/Conversion/GraphToLinalg/LoweringUtils.h"
#include "compiler/Conversion/GraphToLinalg/Passes.h"
#include "compiler/Conversion/GraphToLinalg/ScalarOps.h"
#include "dialects/Graph/IR/GraphOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include <cstring>

using namespace mlir;
using namespace kiln;
using namespace kiln::compiler::lowering;

namespace {

/// `value` sign-extended to the accumulator's integer type when narrower
/// (int8 operands of an i32 matmul).
Value widened(OpBuilder &b, Location loc, Value value, Type accumulator) {
  if (value.getType() == accumulator || !isa<IntegerType>(accumulator))
    return value;
  return arith::ExtSIOp::create(b, loc, accumulator, value);
}

/// acc + lhs * rhs, the body of every contraction.
SmallVector<Value> multiplyAccumulate(OpBuilder &b, Location loc,
                                      ValueRange args) {
  Type accumulator = args[2].getType();
  return {emitAdd(b, loc, args[2],
                  emitMul(b, loc, widened(b, loc, args[0], accumulator),
                          widened(b, loc, args[1], accumulator)))};
}

Value zeroFilled(OpBuilder &b, Location loc, RankedTensorType type) {
  return filledTensor(b, loc, type,
                      scalarConstant(b, loc, type.getElementType(), 0.0));
}

struct MatmulToGeneric : OpRewritePattern<MatmulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MatmulOp op,
                                PatternRewriter &rewriter) const override {
    MLIRContext *context = rewriter.getContext();
    auto resultType = op.getType();
    ArrayRef<int64_t> lhsShape = op.getLhs().getType().getShape();
    ArrayRef<int64_t> rhsShape = op.getRhs().getType().getShape();
    int64_t rank = resultType.getRank();
    int64_t batchRank = rank - 2;
    // Loops: batch..., m, n, k.
    AffineExpr m = getAffineDimExpr(batchRank, context);
    AffineExpr n = getAffineDimExpr(batchRank + 1, context);
    AffineExpr k = getAffineDimExpr(batchRank + 2, context);
    ArrayRef<int64_t> resultBatch = resultType.getShape().drop_back(2);
    auto operandMap = [&](ArrayRef<int64_t> shape, AffineExpr row,
                          AffineExpr column) {
      AffineMap batch = broadcastMap(context, shape.drop_back(2), resultBatch);
      SmallVector<AffineExpr> exprs(batch.getResults());
      exprs.push_back(row);
      exprs.push_back(column);
      return AffineMap::get(rank + 1, 0, exprs, context);
    };
    SmallVector<AffineExpr> outputExprs;
    for (int64_t d = 0; d < rank; ++d)
      outputExprs.push_back(getAffineDimExpr(d, context));
    SmallVector<AffineMap> maps = {operandMap(lhsShape, m, k),
                                   operandMap(rhsShape, k, n),
                                   AffineMap::get(rank + 1, 0, outputExprs,
                                                  context)};
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    iterators.push_back(utils::IteratorType::reduction);
    rewriter.replaceOp(
        op, buildGeneric(rewriter, op.getLoc(), resultType,
                         ValueRange{op.getLhs(), op.getRhs()},
                         zeroFilled(rewriter, op.getLoc(), resultType), maps,
                         iterators, multiplyAccumulate));
    return success();
  }
};

/// lhs x (weights * scales), dequantizing in the loop body: weights stay
/// int8 in memory and no f32 copy of them is made. On the CPU the generic
/// becomes a call into the weight-only GEMM kernels
/// (kiln-cpu-weight-only-gemm-calls); elsewhere it is code like any other.
struct WeightOnlyMatmulToGeneric : OpRewritePattern<WeightOnlyMatmulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(WeightOnlyMatmulOp op,
                                PatternRewriter &rewriter) const override {
    MLIRContext *context = rewriter.getContext();
    auto resultType = op.getType();
    int64_t rank = resultType.getRank();
    // Loops: batch..., m, n, k.
    AffineExpr m = getAffineDimExpr(rank - 2, context);
    AffineExpr n = getAffineDimExpr(rank - 1, context);
    AffineExpr k = getAffineDimExpr(rank, context);
    SmallVector<AffineExpr> lhsExprs, outputExprs;
    for (int64_t d = 0; d < rank; ++d)
      outputExprs.push_back(getAffineDimExpr(d, context));
    lhsExprs.assign(outputExprs.begin(), outputExprs.end() - 1);
    lhsExprs.back() = m;
    lhsExprs.push_back(k);
    SmallVector<AffineMap> maps = {
        AffineMap::get(rank + 1, 0, lhsExprs, context),
        AffineMap::get(rank + 1, 0, {k, n}, context),
        AffineMap::get(rank + 1, 0, {k.floorDiv(op.getGroup()), n}, context),
        AffineMap::get(rank + 1, 0, outputExprs, context)};
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    iterators.push_back(utils::IteratorType::reduction);
    rewriter.replaceOp(
        op,
        buildGeneric(
            rewriter, op.getLoc(), resultType,
            ValueRange{op.getLhs(), op.getWeights(), op.getScales()},
            zeroFilled(rewriter, op.getLoc(), resultType), maps, iterators,
            [](OpBuilder &b, Location loc, ValueRange args) {
              Value weight =
                  arith::SIToFPOp::create(b, loc, args[2].getType(), args[1]);
              weight = arith::MulFOp::create(b, loc, weight, args[2]);
              return SmallVector<Value>{
                  emitAdd(b, loc, args[3], emitMul(b, loc, args[0], weight))};
            }));
    return success();
  }
};

/// A 2-D constant transposed, or null for element types without a byte
/// size.
DenseElementsAttr transposed2D(DenseElementsAttr attr) {
  auto type = cast<RankedTensorType>(attr.getType());
  int64_t rows = type.getDimSize(0), columns = type.getDimSize(1);
  auto resultType =
      RankedTensorType::get({columns, rows}, type.getElementType());
  return transposedBlocks(attr, resultType, /*blocks=*/1, rows, columns);
}

struct GemmToGeneric : OpRewritePattern<GemmOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(GemmOp op,
                                PatternRewriter &rewriter) const override {
    MLIRContext *context = rewriter.getContext();
    Location loc = op.getLoc();
    auto resultType = op.getType();
    AffineExpr m, n, k;
    bindDims(context, m, n, k);
    // A constant B^T (ONNX's Linear layers) is transposed here, once: the
    // CPU kernels vectorise along B's rows, which must be contiguous.
    Value b = op.getB();
    bool transB = op.getTransB();
    DenseElementsAttr weights;
    if (transB && matchPattern(b, m_Constant(&weights)))
      if (DenseElementsAttr transposed = transposed2D(weights)) {
        b = ConstantOp::create(rewriter, loc, transposed);
        transB = false;
      }
    SmallVector<AffineMap> maps = {
        AffineMap::get(3, 0, op.getTransA() ? ArrayRef<AffineExpr>{k, m}
                                            : ArrayRef<AffineExpr>{m, k},
                       context),
        AffineMap::get(3, 0,
                       transB ? ArrayRef<AffineExpr>{n, k}
                              : ArrayRef<AffineExpr>{k, n},
                       context),
        AffineMap::get(3, 0, {m, n}, context)};
    SmallVector<utils::IteratorType> iterators = {
        utils::IteratorType::parallel, utils::IteratorType::parallel,
        utils::IteratorType::reduction};
    Value product =
        buildGeneric(rewriter, loc, resultType, ValueRange{op.getA(), b},
                     zeroFilled(rewriter, loc, resultType), maps, iterators,
                     multiplyAccumulate)
            .front();
    double alpha = op.getAlpha().convertToDouble();
    double beta = op.getBeta().convertToDouble();
    Value c = op.getC();
    if (alpha == 1.0 && (!c || beta == 0.0)) {
      rewriter.replaceOp(op, product);
      return success();
    }
    SmallVector<Value> inputs = {product};
    if (c && beta != 0.0)
      inputs.push_back(c);
    rewriter.replaceOp(
        op, buildElementwise(
                rewriter, loc, resultType, inputs,
                [&](OpBuilder &b, Location l, ValueRange args) {
                  Type element = args[0].getType();
                  Value scaled = alpha == 1.0
                                     ? args[0]
                                     : emitMul(b, l, args[0],
                                               scalarConstant(b, l, element,
                                                              alpha));
                  if (args.size() == 1)
                    return scaled;
                  Value bias = beta == 1.0
                                   ? args[1]
                                   : emitMul(b, l, args[1],
                                             scalarConstant(b, l, element, beta));
                  return emitAdd(b, l, scaled, bias);
                }));
    return success();
  }
};

/// `result` + bias per output channel (none without a bias).
Value addChannelBias(OpBuilder &b, Location loc, Value result, Value bias,
                     int64_t channels) {
  if (!bias)
    return result;
  auto resultType = cast<RankedTensorType>(result.getType());
  // [O] -> [O, 1, 1] so that it broadcasts along channels.
  Value channelBias = reshapeTensor(
      b, loc, bias,
      RankedTensorType::get({channels, 1, 1}, resultType.getElementType()));
  return buildElementwise(b, loc, resultType, ValueRange{result, channelBias},
                          [](OpBuilder &b, Location l, ValueRange args) {
                            return emitAdd(b, l, args[0], args[1]);
                          });
}

/// Grouped 2-D convolution as one generic over
/// (n, g, o, oh, c, kh, kw, ow) on [G, O/G, C/G, KH, KW] weights and
/// [N, G, C/G, H, W] input; zero padding is a kiln.pad first. The output
/// column is innermost and comes from the second operand, so that it is
/// the contraction's n: the register tile's vectors run along a row of
/// output columns (a depthwise window, c = 1 and 3x3, is too short a loop
/// to vectorise) and each weight is a broadcast.
struct Conv2dToGeneric : OpRewritePattern<Conv2dOp> {
  Conv2dToGeneric(
      MLIRContext *context,
      const llvm::DenseMap<Operation *, int64_t> *largestTensorBytes,
      int64_t packWeightRows)
      : OpRewritePattern(context), largestTensorBytes(largestTensorBytes),
        packWeightRows(packWeightRows) {}
  const llvm::DenseMap<Operation *, int64_t> *largestTensorBytes;
  int64_t packWeightRows;

  LogicalResult matchAndRewrite(Conv2dOp op,
                                PatternRewriter &rewriter) const override {
    MLIRContext *context = rewriter.getContext();
    Location loc = op.getLoc();
    auto resultType = op.getType();
    Type element = resultType.getElementType();
    int64_t groups = op.getGroups();
    ArrayRef<int64_t> strides = op.getStrides(), dilations = op.getDilations();
    ArrayRef<int64_t> pads = op.getPads();

    ArrayRef<int64_t> w = op.getWeight().getType().getShape();
    ArrayRef<int64_t> out = resultType.getShape();
    if (groups == 1) {
      // im2col pads the rows each chunk reads, never the whole input.
      Value result = im2colConvolution(
          rewriter, loc, op.getInput(), op.getWeight(), resultType, pads,
          strides, dilations, largestIn(op->getParentOfType<func::FuncOp>()),
          packWeightRows);
      rewriter.replaceOp(
          op, addChannelBias(rewriter, loc, result, op.getBias(), w[0]));
      return success();
    }
    Value input = op.getInput();
    if (llvm::any_of(pads, [](int64_t p) { return p != 0; }))
      input = PadOp::create(rewriter, loc, input,
                            ArrayRef<int64_t>{0, 0, pads[0], pads[1]},
                            ArrayRef<int64_t>{0, 0, pads[2], pads[3]},
                            PadMode::constant, APFloat(0.0));
    ArrayRef<int64_t> in = cast<RankedTensorType>(input.getType()).getShape();
    int64_t channelsPerGroup = in[1] / groups, outPerGroup = w[0] / groups;

    auto groupedInputType = RankedTensorType::get(
        {in[0], groups, channelsPerGroup, in[2], in[3]}, element);
    auto groupedWeightType = RankedTensorType::get(
        {groups, outPerGroup, w[1], w[2], w[3]}, element);
    auto groupedOutputType = RankedTensorType::get(
        {out[0], groups, outPerGroup, out[2], out[3]}, element);
    Value groupedInput = reshapeTensor(rewriter, loc, input, groupedInputType);
    Value groupedWeight =
        reshapeTensor(rewriter, loc, op.getWeight(), groupedWeightType);

    AffineExpr n, g, o, oh, c, kh, kw, ow;
    bindDims(context, n, g, o, oh, c, kh, kw, ow);
    SmallVector<AffineMap> maps = {
        AffineMap::get(8, 0, {g, o, c, kh, kw}, context),
        AffineMap::get(8, 0,
                       {n, g, c, oh * strides[0] + kh * dilations[0],
                        ow * strides[1] + kw * dilations[1]},
                       context),
        AffineMap::get(8, 0, {n, g, o, oh, ow}, context)};
    SmallVector<utils::IteratorType> iterators(4,
                                               utils::IteratorType::parallel);
    iterators.append(3, utils::IteratorType::reduction);
    iterators.push_back(utils::IteratorType::parallel);
    Value grouped = buildGeneric(rewriter, loc, groupedOutputType,
                                 ValueRange{groupedWeight, groupedInput},
                                 zeroFilled(rewriter, loc, groupedOutputType),
                                 maps, iterators, multiplyAccumulate)
                        .front();
    Value result = reshapeTensor(rewriter, loc, grouped, resultType);
    rewriter.replaceOp(
        op, addChannelBias(rewriter, loc, result, op.getBias(), w[0]));
    return success();
  }

private:
  int64_t largestIn(Operation *function) const {
    if (!largestTensorBytes || !function)
      return 0;
    return largestTensorBytes->lookup(function);
  }
};

} // namespace

void kiln::compiler::populateContractionToLinalgPatterns(
    RewritePatternSet &patterns,
    const llvm::DenseMap<Operation *, int64_t> *largestTensorBytes,
    int64_t packWeightRows) {
  patterns.add<MatmulToGeneric, GemmToGeneric, WeightOnlyMatmulToGeneric>(
      patterns.getContext());
  patterns.add<Conv2dToGeneric>(patterns.getContext(), largestTensorBytes,
                                packWeightRows);
}
