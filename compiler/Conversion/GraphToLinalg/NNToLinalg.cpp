//===- NNToLinalg.cpp - Pooling, softmax, normalisation -> linalg ---------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// These ops are compositions: a softmax is a max-reduction, an exp, a
// sum-reduction and a divide. Each step is its own generic here (fusion
// regroups them into one row kernel later).
//
//===----------------------------------------------------------------------===//

#include "compiler/Conversion/GraphToLinalg/LoweringUtils.h"
#include "compiler/Conversion/GraphToLinalg/Passes.h"
#include "compiler/Conversion/GraphToLinalg/ScalarOps.h"
#include "dialects/Graph/IR/GraphOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::compiler::lowering;

namespace {

/// `type` with the dimensions in `axes` set to 1.
RankedTensorType keptDimsType(RankedTensorType type, ArrayRef<int64_t> axes) {
  SmallVector<int64_t> shape(type.getShape());
  for (int64_t axis : axes)
    shape[axis] = 1;
  return RankedTensorType::get(shape, type.getElementType());
}

Value reduceKeepDims(OpBuilder &b, Location loc, Value input,
                     ArrayRef<int64_t> axes, bool isMax) {
  auto type = cast<RankedTensorType>(input.getType());
  Type element = type.getElementType();
  Value init = isMax ? lowestValue(b, loc, element)
                     : scalarConstant(b, loc, element, 0.0);
  auto combine = [isMax](OpBuilder &nb, Location l, Value acc, Value x) {
    return isMax ? emitMax(nb, l, acc, x) : emitAdd(nb, l, acc, x);
  };
  RankedTensorType kept = keptDimsType(type, axes);
  SmallVector<int64_t> rest;
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (!llvm::is_contained(axes, d))
      rest.push_back(type.getDimSize(d));
  if (rest.empty() || !type.hasStaticShape())
    return buildReduction(b, loc, input, axes, kept, init, combine);
  // Reduced into the kept dimensions only, then reshaped (free): an output
  // indexed by a constant 0 vectorises to a read and a write of different
  // shapes, which the CPU code generator cannot keep in registers across
  // the reduction loop.
  Value reduced = buildReduction(
      b, loc, input, axes, RankedTensorType::get(rest, element), init, combine);
  return reshapeTensor(b, loc, reduced, kept);
}

using BinaryScalar = Value (*)(OpBuilder &, Location, Value, Value);

Value elementwise2(OpBuilder &b, Location loc, RankedTensorType type, Value lhs,
                   Value rhs, BinaryScalar fn) {
  return buildElementwise(b, loc, type, ValueRange{lhs, rhs},
                          [fn](OpBuilder &nb, Location l, ValueRange args) {
                            return fn(nb, l, args[0], args[1]);
                          });
}

template <typename OpTy, bool IsLog>
struct SoftmaxToGenerics : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    int64_t axis =
        normalizeAxes({static_cast<int64_t>(op.getAxis())}, type.getRank())[0];
    Value x = op.getInput();
    // Subtracting the row maximum keeps exp() from overflowing.
    Value rowMax = reduceKeepDims(rewriter, loc, x, axis, /*isMax=*/true);
    Value shifted = elementwise2(rewriter, loc, type, x, rowMax, emitSub);
    Value exps = buildElementwise(
        rewriter, loc, type, shifted,
        [](OpBuilder &b, Location l, ValueRange args) {
          return math::ExpOp::create(b, l, args[0]);
        });
    Value sum = reduceKeepDims(rewriter, loc, exps, axis, /*isMax=*/false);
    Value result;
    if (IsLog)
      result = buildElementwise(
          rewriter, loc, type, ValueRange{shifted, sum},
          [](OpBuilder &b, Location l, ValueRange args) {
            return emitSub(b, l, args[0], math::LogOp::create(b, l, args[1]));
          });
    else
      result = elementwise2(rewriter, loc, type, exps, sum, emitDiv);
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct LayerNormToGenerics : OpRewritePattern<LayerNormOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LayerNormOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = op.getType();
    Type element = type.getElementType();
    int64_t rank = type.getRank();
    int64_t axis = normalizeAxes({static_cast<int64_t>(op.getAxis())}, rank)[0];
    SmallVector<int64_t> axes = llvm::to_vector(llvm::seq<int64_t>(axis, rank));
    int64_t count = 1;
    for (int64_t d : axes)
      count *= type.getDimSize(d);
    auto statsType = keptDimsType(type, axes);
    Value inverseCount = scalarConstant(rewriter, loc, element, 1.0 / count);
    auto scaleBy = [&](Value sum) {
      return buildElementwise(rewriter, loc, statsType, sum,
                              [&](OpBuilder &b, Location l, ValueRange args) {
                                return emitMul(b, l, args[0], inverseCount);
                              });
    };
    Value x = op.getInput();
    Value mean = scaleBy(reduceKeepDims(rewriter, loc, x, axes, false));
    Value centered = elementwise2(rewriter, loc, type, x, mean, emitSub);
    Value squares = elementwise2(rewriter, loc, type, centered, centered, emitMul);
    Value variance = scaleBy(reduceKeepDims(rewriter, loc, squares, axes, false));
    double epsilon = op.getEpsilon().convertToDouble();
    SmallVector<Value> inputs = {centered, variance, op.getScale()};
    if (op.getBias())
      inputs.push_back(op.getBias());
    rewriter.replaceOp(
        op, buildElementwise(
                rewriter, loc, type, inputs,
                [&](OpBuilder &b, Location l, ValueRange args) {
                  Value eps = scalarConstant(b, l, element, epsilon);
                  Value stddev = math::SqrtOp::create(
                      b, l, emitAdd(b, l, args[1], eps));
                  Value normalized = emitMul(b, l, emitDiv(b, l, args[0], stddev),
                                             args[2]);
                  return args.size() == 4 ? emitAdd(b, l, normalized, args[3])
                                          : normalized;
                }));
    return success();
  }
};

struct BatchNormToGeneric : OpRewritePattern<BatchNormOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BatchNormOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = op.getType();
    Type element = type.getElementType();
    // [C] -> [C, 1, ..., 1] so that parameters broadcast along channels.
    SmallVector<int64_t> channelShape(type.getRank() - 1, 1);
    channelShape[0] = type.getDimSize(1);
    auto channelType = RankedTensorType::get(channelShape, element);
    SmallVector<Value> inputs = {op.getInput()};
    for (Value parameter : {op.getScale(), op.getBias(), op.getMean(),
                            op.getVariance()})
      inputs.push_back(reshapeTensor(rewriter, loc, parameter, channelType));
    double epsilon = op.getEpsilon().convertToDouble();
    rewriter.replaceOp(
        op, buildElementwise(
                rewriter, loc, type, inputs,
                [&](OpBuilder &b, Location l, ValueRange args) {
                  Value eps = scalarConstant(b, l, element, epsilon);
                  Value stddev = math::SqrtOp::create(
                      b, l, emitAdd(b, l, args[4], eps));
                  Value normalized =
                      emitDiv(b, l, emitSub(b, l, args[0], args[3]), stddev);
                  return emitAdd(b, l, emitMul(b, l, normalized, args[1]),
                                 args[2]);
                }));
    return success();
  }
};

template <typename OpTy, bool IsMax>
struct GlobalPoolToGenerics : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getInput().getType());
    auto resultType = cast<RankedTensorType>(op.getType());
    if (!type.hasStaticShape() || type.getRank() < 3)
      return rewriter.notifyMatchFailure(op,
                                         "needs a static [N, C, ...] input");
    int64_t count = 1;
    for (int64_t d : llvm::seq<int64_t>(2, type.getRank()))
      count *= type.getDimSize(d);
    // The spatial dimensions as one (a free reshape): a single reduction
    // loop vectorises along all of them, where [H, W] would reduce each
    // row of W on its own (EfficientNet's 112 x 112 pools: scalar chains).
    auto flatType = RankedTensorType::get(
        {type.getDimSize(0), type.getDimSize(1), count}, type.getElementType());
    Value flat = reshapeTensor(rewriter, loc, op.getInput(), flatType);
    Value reduced = reshapeTensor(
        rewriter, loc, reduceKeepDims(rewriter, loc, flat, {2}, IsMax),
        resultType);
    if (!IsMax) {
      Value divisor =
          scalarConstant(rewriter, loc, type.getElementType(), double(count));
      reduced =
          buildElementwise(rewriter, loc, resultType, reduced,
                           [&](OpBuilder &b, Location l, ValueRange args) {
                             return emitDiv(b, l, args[0], divisor);
                           });
    }
    rewriter.replaceOp(op, reduced);
    return success();
  }
};

/// Sliding-window reduction over (n, c, oh, kh, kw, ow) of a tensor already
/// padded so that every window lies inside it. A [kh, kw] "window" operand
/// gives the window loops their bounds, as linalg's own pooling ops do.
/// The output column is the innermost loop, the one the CPU code
/// generator vectorises: a stride-1 window reads the input row
/// contiguously, a strided one as a widened read and a shuffle.
Value slidingWindow(OpBuilder &b, Location loc, Value padded,
                    RankedTensorType resultType, ArrayRef<int64_t> kernel,
                    ArrayRef<int64_t> strides, ArrayRef<int64_t> dilations,
                    Value init, bool isMax) {
  MLIRContext *context = b.getContext();
  AffineExpr n, c, oh, kh, kw, ow;
  bindDims(context, n, c, oh, kh, kw, ow);
  Type element = resultType.getElementType();
  Value window = emptyTensor(b, loc, RankedTensorType::get(kernel, element));
  SmallVector<AffineMap> maps = {
      AffineMap::get(6, 0,
                     {n, c, oh * strides[0] + kh * dilations[0],
                      ow * strides[1] + kw * dilations[1]},
                     context),
      AffineMap::get(6, 0, {kh, kw}, context),
      AffineMap::get(6, 0, {n, c, oh, ow}, context)};
  using utils::IteratorType;
  SmallVector<IteratorType> iterators = {
      IteratorType::parallel,  IteratorType::parallel,  IteratorType::parallel,
      IteratorType::reduction, IteratorType::reduction, IteratorType::parallel};
  return buildGeneric(
             b, loc, resultType, ValueRange{padded, window},
             filledTensor(b, loc, resultType, init), maps, iterators,
             [isMax](OpBuilder &nb, Location l,
                     ValueRange args) -> SmallVector<Value> {
               return {isMax ? emitMax(nb, l, args[2], args[0])
                             : emitAdd(nb, l, args[2], args[0])};
             })
      .front();
}

/// Extra trailing padding that ceil mode needs for the last window to fit.
SmallVector<int64_t> ceilModePadding(ArrayRef<int64_t> inputShape,
                                     ArrayRef<int64_t> outputShape,
                                     ArrayRef<int64_t> kernel,
                                     ArrayRef<int64_t> strides,
                                     ArrayRef<int64_t> dilations,
                                     ArrayRef<int64_t> pads) {
  SmallVector<int64_t> extra(2, 0);
  for (int d = 0; d < 2; ++d) {
    int64_t needed = (outputShape[2 + d] - 1) * strides[d] +
                     (kernel[d] - 1) * dilations[d] + 1;
    int64_t available = inputShape[2 + d] + pads[d] + pads[2 + d];
    extra[d] = std::max<int64_t>(0, needed - available);
  }
  return extra;
}

Value padSpatial(OpBuilder &b, Location loc, Value input, int64_t top,
                 int64_t left, int64_t bottom, int64_t right, double value) {
  if (top == 0 && left == 0 && bottom == 0 && right == 0)
    return input;
  return PadOp::create(b, loc, input, ArrayRef<int64_t>{0, 0, top, left},
                       ArrayRef<int64_t>{0, 0, bottom, right},
                       PadMode::constant, APFloat(value));
}

/// Max over windows that may reach outside `input` (its padding, and the
/// rows and columns ceil mode adds): each read is bounds-checked and an
/// element outside counts as the lowest value, as -inf padding would, so
/// no padded copy of the input is materialised (at ResNet's stem the copy
/// and the input were the memory peak). The window read is a gather and
/// stays scalar, as the strided read of a padded copy did.
/// `resultType` may be a block of the output starting at output row and
/// column `origin`.
Value boundedWindowMax(OpBuilder &b, Location loc, Value input,
                       RankedTensorType resultType, ArrayRef<int64_t> kernel,
                       ArrayRef<int64_t> strides, ArrayRef<int64_t> dilations,
                       ArrayRef<int64_t> pads, ArrayRef<int64_t> origin) {
  MLIRContext *context = b.getContext();
  ArrayRef<int64_t> in = cast<RankedTensorType>(input.getType()).getShape();
  Type element = resultType.getElementType();
  AffineExpr n, c, oh, ow, kh, kw;
  bindDims(context, n, c, oh, ow, kh, kw);
  Value window = emptyTensor(b, loc, RankedTensorType::get(kernel, element));
  SmallVector<AffineMap> maps = {AffineMap::get(6, 0, {kh, kw}, context),
                                 AffineMap::get(6, 0, {n, c, oh, ow}, context)};
  SmallVector<utils::IteratorType> iterators(4, utils::IteratorType::parallel);
  iterators.append(2, utils::IteratorType::reduction);
  auto body = [&](OpBuilder &nb, Location l,
                  ValueRange args) -> SmallVector<Value> {
    auto constant = [&](int64_t value) -> Value {
      return arith::ConstantIndexOp::create(nb, l, value);
    };
    SmallVector<Value> source = {linalg::IndexOp::create(nb, l, 0),
                                 linalg::IndexOp::create(nb, l, 1)};
    Value inside;
    for (int d = 0; d < 2; ++d) {
      // position = (origin + out) * stride + k * dilation - padding
      Value position = arith::AddIOp::create(
          nb, l,
          arith::MulIOp::create(nb, l, linalg::IndexOp::create(nb, l, 2 + d),
                                constant(strides[d])),
          arith::MulIOp::create(nb, l, linalg::IndexOp::create(nb, l, 4 + d),
                                constant(dilations[d])));
      position = arith::SubIOp::create(
          nb, l, position, constant(pads[d] - origin[d] * strides[d]));
      Value here = arith::AndIOp::create(
          nb, l,
          arith::CmpIOp::create(nb, l, arith::CmpIPredicate::sge, position,
                                constant(0)),
          arith::CmpIOp::create(nb, l, arith::CmpIPredicate::slt, position,
                                constant(in[2 + d])));
      inside = inside ? arith::AndIOp::create(nb, l, inside, here) : here;
      // Clamped, the read stays in bounds; its value is discarded outside.
      Value clamped = arith::MaxSIOp::create(nb, l, position, constant(0));
      source.push_back(
          arith::MinSIOp::create(nb, l, clamped, constant(in[2 + d] - 1)));
    }
    Value value = tensor::ExtractOp::create(nb, l, input, source);
    value = arith::SelectOp::create(nb, l, inside, value,
                                    lowestValue(nb, l, element));
    return {emitMax(nb, l, args[1], value)};
  };
  return buildGeneric(
             b, loc, resultType, ValueRange{window},
             filledTensor(b, loc, resultType, lowestValue(b, loc, element)),
             maps, iterators, body)
      .front();
}

/// Max pooling whose border windows reach outside the input: the interior
/// windows, which lie inside it, as a sliding window over a slice of the
/// input (vectorised like an unpadded pool), and only the border rows and
/// columns bounds-checked (scalar). At ResNet's stem, 3x3 stride 2 with
/// padding 1, that is 55 x 55 of 56 x 56 outputs.
Value windowMaxReachingOutside(OpBuilder &b, MaxPool2dOp op) {
  Location loc = op.getLoc();
  RankedTensorType inputType = op.getInput().getType();
  RankedTensorType resultType = op.getType();
  ArrayRef<int64_t> kernel = op.getKernelShape(), strides = op.getStrides(),
                    dilations = op.getDilations(), pads = op.getPads();
  ArrayRef<int64_t> in = inputType.getShape(), out = resultType.getShape();
  // Outputs [first, last) along each spatial axis whose windows lie inside.
  int64_t first[2], last[2];
  for (int d = 0; d < 2; ++d) {
    int64_t span = (kernel[d] - 1) * dilations[d];
    first[d] =
        std::min<int64_t>(llvm::divideCeil(pads[d], strides[d]), out[2 + d]);
    int64_t reach = in[2 + d] - 1 + pads[d] - span;
    last[d] = reach < 0 ? 0 : std::min(reach / strides[d] + 1, out[2 + d]);
    last[d] = std::max(last[d], first[d]);
  }
  auto block = [&](int64_t rows, int64_t columns) {
    return RankedTensorType::get({out[0], out[1], rows, columns},
                                 resultType.getElementType());
  };
  auto bounded = [&](int64_t row, int64_t rows, int64_t column,
                     int64_t columns) {
    return boundedWindowMax(b, loc, op.getInput(), block(rows, columns), kernel,
                            strides, dilations, pads, {row, column});
  };
  if (first[0] == last[0] || first[1] == last[1])
    return bounded(0, out[2], 0, out[3]);

  // The interior reads input rows and columns from `first * stride - pad`.
  SmallVector<int64_t> starts = {0, 0}, extents = {in[0], in[1]};
  for (int d = 0; d < 2; ++d) {
    starts.push_back(first[d] * strides[d] - pads[d]);
    extents.push_back((last[d] - first[d] - 1) * strides[d] +
                      (kernel[d] - 1) * dilations[d] + 1);
  }
  auto indices = [&](ArrayRef<int64_t> values) {
    return llvm::map_to_vector(
        values, [&](int64_t v) -> OpFoldResult { return b.getIndexAttr(v); });
  };
  SmallVector<OpFoldResult> unit(4, b.getIndexAttr(1));
  Value window = tensor::ExtractSliceOp::create(
      b, loc, op.getInput(), indices(starts), indices(extents), unit);
  Type element = inputType.getElementType();
  Value result = emptyTensor(b, loc, resultType);
  auto place = [&](Value piece, int64_t row, int64_t column) {
    ArrayRef<int64_t> shape =
        cast<RankedTensorType>(piece.getType()).getShape();
    result = tensor::InsertSliceOp::create(b, loc, piece, result,
                                           indices({0, 0, row, column}),
                                           indices(shape), unit);
  };
  place(slidingWindow(b, loc, window,
                      block(last[0] - first[0], last[1] - first[1]), kernel,
                      strides, dilations, lowestValue(b, loc, element),
                      /*isMax=*/true),
        first[0], first[1]);
  // Whole rows above and below, then the columns left and right between.
  if (first[0] > 0)
    place(bounded(0, first[0], 0, out[3]), 0, 0);
  if (last[0] < out[2])
    place(bounded(last[0], out[2] - last[0], 0, out[3]), last[0], 0);
  int64_t rows = last[0] - first[0];
  if (first[1] > 0)
    place(bounded(first[0], rows, 0, first[1]), first[0], 0);
  if (last[1] < out[3])
    place(bounded(first[0], rows, last[1], out[3] - last[1]), first[0],
          last[1]);
  return result;
}

struct MaxPoolToGeneric : OpRewritePattern<MaxPool2dOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MaxPool2dOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto inputType = op.getInput().getType();
    ArrayRef<int64_t> pads = op.getPads();
    SmallVector<int64_t> extra = ceilModePadding(
        inputType.getShape(), op.getType().getShape(), op.getKernelShape(),
        op.getStrides(), op.getDilations(), pads);
    bool reachesOutside =
        llvm::any_of(pads, [](int64_t p) { return p != 0; }) || extra[0] != 0 ||
        extra[1] != 0;
    if (reachesOutside && inputType.getNumElements() != 0) {
      rewriter.replaceOp(op, windowMaxReachingOutside(rewriter, op));
      return success();
    }
    // Padding with -inf never wins a window that holds a real element.
    Value padded = padSpatial(rewriter, loc, op.getInput(), pads[0], pads[1],
                              pads[2] + extra[0], pads[3] + extra[1],
                              -INFINITY);
    rewriter.replaceOp(
        op, slidingWindow(rewriter, loc, padded, op.getType(),
                          op.getKernelShape(), op.getStrides(),
                          op.getDilations(),
                          lowestValue(rewriter, loc,
                                      inputType.getElementType()),
                          /*isMax=*/true));
    return success();
  }
};

struct AvgPoolToGenerics : OpRewritePattern<AvgPool2dOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AvgPool2dOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto inputType = op.getInput().getType();
    auto resultType = op.getType();
    Type element = inputType.getElementType();
    ArrayRef<int64_t> pads = op.getPads();
    SmallVector<int64_t> extra = ceilModePadding(
        inputType.getShape(), resultType.getShape(), op.getKernelShape(),
        op.getStrides(), op.getDilations(), pads);
    Value zero = scalarConstant(rewriter, loc, element, 0.0);
    auto pool = [&](Value padded, RankedTensorType type) {
      return slidingWindow(rewriter, loc, padded, type, op.getKernelShape(),
                           op.getStrides(), op.getDilations(), zero,
                           /*isMax=*/false);
    };
    Value sums = pool(padSpatial(rewriter, loc, op.getInput(), pads[0], pads[1],
                                 pads[2] + extra[0], pads[3] + extra[1], 0.0),
                      resultType);
    // The divisor of each window: pool a map of ones over the input (and
    // over the explicit padding with count_include_pad), never counting the
    // extra ceil-mode padding.
    auto maskType = RankedTensorType::get(
        {1, 1, inputType.getDimSize(2), inputType.getDimSize(3)}, element);
    Value ones =
        filledTensor(rewriter, loc, maskType,
                     scalarConstant(rewriter, loc, element, 1.0));
    double padWeight = op.getCountIncludePad() ? 1.0 : 0.0;
    Value mask = padSpatial(rewriter, loc, ones, pads[0], pads[1], pads[2],
                            pads[3], padWeight);
    mask = padSpatial(rewriter, loc, mask, 0, 0, extra[0], extra[1], 0.0);
    auto countType = RankedTensorType::get(
        {1, 1, resultType.getDimSize(2), resultType.getDimSize(3)}, element);
    Value counts = pool(mask, countType);
    rewriter.replaceOp(op, elementwise2(rewriter, loc, resultType, sums, counts,
                                        emitDiv));
    return success();
  }
};

} // namespace

void kiln::compiler::populateNNToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<SoftmaxToGenerics<SoftmaxOp, false>,
               SoftmaxToGenerics<LogSoftmaxOp, true>, LayerNormToGenerics,
               BatchNormToGeneric, GlobalPoolToGenerics<GlobalAvgPoolOp, false>,
               GlobalPoolToGenerics<GlobalMaxPoolOp, true>, MaxPoolToGeneric,
               AvgPoolToGenerics>(patterns.getContext());
}
