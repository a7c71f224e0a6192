//===- TextOps.cpp - ONNX TfIdfVectorizer ---------------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// TfIdfVectorizer counts the pool's n-grams in each row of integer tokens.
// For each gram length n and skip s (n-grams whose tokens are s + 1 apart;
// unigrams once), every pool n-gram is compared with every window at once:
// n strided slices of the rows against constant columns of the pool give a
// [rows, grams, windows] match, whose sum over the windows is the count.
// A constant [grams, outputs] matrix then places each gram's count (or its
// weight, by mode) at its ngram_indexes slot. String pools are refused
// (Kiln has no string tensors).
//
//===----------------------------------------------------------------------===//

#include "frontend/onnx/ConverterRegistry.h"
#include "frontend/onnx/ops/Expr.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;

namespace kiln::onnx {

namespace {

/// The n-gram pool, read and checked from the node's attributes.
struct Pool {
  int64_t minLength = 0, maxLength = 0, maxSkip = 0;
  SmallVector<int64_t> starts; // ngram_counts: first token of length n + 1
  SmallVector<int64_t> tokens; // pool_int64s
  SmallVector<int64_t> slots;  // ngram_indexes: output slot of each gram
  SmallVector<double> weights; // one per gram
  int64_t outputs = 0;

  /// Tokens of the grams of length n: [begin, end).
  std::pair<int64_t, int64_t> range(int64_t n) const {
    int64_t begin = starts[n - 1];
    int64_t end = n < int64_t(starts.size()) ? starts[n] : tokens.size();
    return {begin, end};
  }
  /// Index of the first gram of length n among all grams.
  int64_t firstGram(int64_t n) const {
    int64_t grams = 0;
    for (int64_t m = 1; m < n; ++m) {
      auto [begin, end] = range(m);
      grams += (end - begin) / m;
    }
    return grams;
  }
};

FailureOr<Pool> readPool(ImportContext &ctx) {
  Pool pool;
  FailureOr<int64_t> minLength = ctx.intAttr("min_gram_length", 0);
  FailureOr<int64_t> maxLength = ctx.intAttr("max_gram_length", 0);
  FailureOr<int64_t> maxSkip = ctx.intAttr("max_skip_count", 0);
  auto starts = ctx.intsAttr("ngram_counts");
  auto slots = ctx.intsAttr("ngram_indexes");
  auto tokens = ctx.intsAttr("pool_int64s");
  FailureOr<SmallVector<double>> weights = ctx.floatsAttr("weights");
  if (failed(minLength) || failed(maxLength) || failed(maxSkip) ||
      failed(starts) || failed(slots) || failed(tokens) || failed(weights))
    return failure();
  if (ctx.attribute("pool_strings")) {
    ctx.markUnsupported();
    return ctx.error() << "pool_strings needs string tensors, which Kiln "
                          "does not have";
  }
  constexpr int64_t kLimit = 1 << 16;
  if (*minLength < 1 || *maxLength < *minLength || *maxLength > 64)
    return ctx.error() << "min_gram_length and max_gram_length must satisfy "
                          "1 <= min <= max <= 64";
  if (*maxSkip < 0 || *maxSkip > kLimit)
    return ctx.error() << "max_skip_count must be in [0, " << kLimit << "]";
  if (!starts->has_value() || !slots->has_value() || !tokens->has_value())
    return ctx.error() << "ngram_counts, ngram_indexes and pool_int64s are "
                          "required";
  pool.minLength = *minLength;
  pool.maxLength = *maxLength;
  pool.maxSkip = *maxSkip;
  pool.starts = **starts;
  pool.tokens = **tokens;
  pool.slots = **slots;
  if (int64_t(pool.tokens.size()) > kLimit * 16)
    return ctx.error() << "the pool is implausibly large";
  if (int64_t(pool.starts.size()) < pool.maxLength)
    return ctx.error() << "ngram_counts must give the start of every gram "
                          "length up to "
                       << pool.maxLength;
  int64_t previous = 0, grams = 0;
  for (int64_t n = 1; n <= int64_t(pool.starts.size()); ++n) {
    int64_t start = pool.starts[n - 1];
    if (start < previous || start > int64_t(pool.tokens.size()))
      return ctx.error() << "ngram_counts must be non-decreasing offsets "
                            "into the pool";
    previous = start;
  }
  for (int64_t n = 1; n <= int64_t(pool.starts.size()); ++n) {
    auto [begin, end] = pool.range(n);
    if ((end - begin) % n != 0)
      return ctx.error() << "the pool's grams of length " << n << " hold "
                         << end - begin << " tokens, not a multiple of " << n;
    grams += (end - begin) / n;
  }
  if (int64_t(pool.slots.size()) != grams)
    return ctx.error() << "ngram_indexes has " << pool.slots.size()
                       << " entries for " << grams << " grams in the pool";
  for (int64_t slot : pool.slots) {
    if (slot < 0 || slot >= kLimit)
      return ctx.error() << "ngram_indexes must be in [0, " << kLimit << ")";
    pool.outputs = std::max(pool.outputs, slot + 1);
  }
  pool.weights = *weights;
  if (pool.weights.empty())
    pool.weights.assign(grams, 1.0);
  if (int64_t(pool.weights.size()) != grams)
    return ctx.error() << "weights has " << pool.weights.size()
                       << " entries for " << grams << " grams";
  return pool;
}

LogicalResult convertTfIdfVectorizer(ImportContext &ctx) {
  FailureOr<Value> x = ctx.requiredInput(0, "X");
  FailureOr<std::string> mode = ctx.stringAttr("mode", "");
  if (failed(x) || failed(mode))
    return failure();
  if (*mode != "TF" && *mode != "IDF" && *mode != "TFIDF")
    return ctx.error() << "mode must be TF, IDF or TFIDF, it is '" << *mode
                       << "'";
  FailureOr<Pool> pool = readPool(ctx);
  if (failed(pool))
    return failure();
  ArrayRef<int64_t> shape = shapeOf(*x);
  if ((shape.size() != 1 && shape.size() != 2) ||
      !isa<IntegerType>(elementTypeOf(*x)))
    return ctx.error() << "X must be [N] or [B, N] integer tokens, it is "
                       << x->getType();
  Type i64 = ctx.builder().getI64Type(), f32 = ctx.builder().getF32Type();
  int64_t rows = shape.size() == 2 ? shape[0] : 1, length = shape.back();
  Value tokens = reshapeTo(ctx, castTo(ctx, *x, i64), {rows, length});
  Expr e(ctx);
  Value result;
  for (int64_t n = pool->minLength; n <= pool->maxLength; ++n) {
    auto [begin, end] = pool->range(n);
    int64_t grams = (end - begin) / n;
    if (grams == 0)
      continue;
    Value counts; // [rows, grams]
    for (int64_t skip = 0; skip <= (n == 1 ? 0 : pool->maxSkip); ++skip) {
      int64_t gap = skip + 1, span = (n - 1) * gap + 1;
      if (span > length)
        break;
      int64_t windows = length - span + 1;
      Value match; // [rows, grams, windows]
      for (int64_t k = 0; k < n; ++k) {
        FailureOr<Value> column = sliceOf(ctx, tokens, {0, k * gap},
                                          {rows, k * gap + windows}, {1, 1});
        if (failed(column))
          return failure();
        SmallVector<int64_t> wanted;
        for (int64_t g = 0; g < grams; ++g)
          wanted.push_back(pool->tokens[begin + g * n + k]);
        Value gram = ctx.constant(
            DenseElementsAttr::get(RankedTensorType::get({1, grams, 1}, i64),
                                   ArrayRef<int64_t>(wanted)));
        Value equal = e.cmp(ComparePredicate::eq,
                            reshapeTo(ctx, *column, {rows, 1, windows}), gram);
        match = match ? e.binary<AndOp>(match, equal) : equal;
      }
      if (!match)
        return failure();
      FailureOr<Value> found =
          reduceOf<ReduceSumOp>(ctx, castTo(ctx, match, f32), {2}, false);
      if (failed(found))
        return failure();
      counts = counts ? e.add(counts, *found) : *found;
    }
    if (!counts)
      continue;
    if (*mode == "IDF")
      counts =
          castTo(ctx, e.cmp(ComparePredicate::gt, counts, e.c(counts, 0)), f32);
    // [grams, outputs]: each gram's weight (1 for TF) at its slot.
    SmallVector<float> placement(grams * pool->outputs, 0.0f);
    int64_t first = pool->firstGram(n);
    for (int64_t g = 0; g < grams; ++g)
      placement[g * pool->outputs + pool->slots[first + g]] +=
          *mode == "TF" ? 1.0f : float(pool->weights[first + g]);
    Value place = ctx.constant(DenseElementsAttr::get(
        RankedTensorType::get({grams, pool->outputs}, f32),
        ArrayRef<float>(placement)));
    FailureOr<Value> placed = matmulOf(ctx, counts, place);
    if (failed(placed))
      return failure();
    result = result ? e.add(result, *placed) : *placed;
  }
  if (!result)
    result = ctx.constant(DenseElementsAttr::get(
        RankedTensorType::get({rows, pool->outputs}, f32), 0.0f));
  SmallVector<int64_t> outShape = {pool->outputs};
  if (shape.size() == 2)
    outShape.insert(outShape.begin(), rows);
  ctx.setOutput(0, reshapeTo(ctx, result, outShape));
  return success();
}

} // namespace

void registerTextConverters(ConverterRegistry &r) {
  r.add("TfIdfVectorizer", 9, convertTfIdfVectorizer);
}

} // namespace kiln::onnx
