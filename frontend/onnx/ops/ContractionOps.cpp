//===- ContractionOps.cpp - ONNX MatMul, Gemm and Einsum -> kiln ----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "frontend/onnx/ops/Common.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringExtras.h"

#include <map>

using namespace mlir;

namespace kiln::onnx {

namespace {

/// MatMul follows numpy.matmul: a 1-D lhs is a row vector and a 1-D rhs a
/// column vector, and the added dimension is dropped from the result.
LogicalResult convertMatMul(ImportContext &ctx) {
  FailureOr<Value> a = ctx.requiredInput(0, "A");
  FailureOr<Value> b = ctx.requiredInput(1, "B");
  if (failed(a) || failed(b))
    return failure();
  Value lhs = *a, rhs = *b;
  bool lhsVector = shapeOf(lhs).size() == 1;
  bool rhsVector = shapeOf(rhs).size() == 1;
  if (shapeOf(lhs).empty() || shapeOf(rhs).empty())
    return ctx.error() << "MatMul operands must have rank >= 1";
  if (lhsVector)
    lhs = reshapeTo(ctx, lhs, {1, shapeOf(lhs)[0]});
  if (rhsVector)
    rhs = reshapeTo(ctx, rhs, {shapeOf(rhs)[0], 1});
  SmallVector<Type> types;
  if (failed(kiln::inferMatmul(ctx.loc(), lhs.getType(), rhs.getType(), types)))
    return failure();
  Value result =
      ctx.finish(MatmulOp::create(ctx.builder(), ctx.loc(), types[0], lhs, rhs));
  SmallVector<int64_t> shape(shapeOf(result));
  if (lhsVector)
    shape.erase(shape.end() - 2);
  if (rhsVector)
    shape.pop_back();
  ctx.setOutput(0, reshapeTo(ctx, result, shape));
  return success();
}

LogicalResult convertGemm(ImportContext &ctx) {
  FailureOr<Value> a = ctx.requiredInput(0, "A");
  FailureOr<Value> b = ctx.requiredInput(1, "B");
  FailureOr<float> alpha = ctx.floatAttr("alpha", 1.0f);
  FailureOr<float> beta = ctx.floatAttr("beta", 1.0f);
  FailureOr<int64_t> transA = ctx.intAttr("transA", 0);
  FailureOr<int64_t> transB = ctx.intAttr("transB", 0);
  if (failed(a) || failed(b) || failed(alpha) || failed(beta) ||
      failed(transA) || failed(transB))
    return failure();
  Value c = ctx.input(2);
  SmallVector<Type> types;
  if (failed(kiln::inferGemm(ctx.loc(), a->getType(), b->getType(),
                             c ? c.getType() : Type(), *transA, *transB,
                             types)))
    return failure();
  OpBuilder &builder = ctx.builder();
  auto op = GemmOp::create(builder, ctx.loc(), types[0], *a, *b, c,
                           APFloat(double(*alpha)), APFloat(double(*beta)),
                           *transA != 0, *transB != 0);
  ctx.setOutput(0, ctx.finish(op));
  return success();
}

/// Einsum, spelled out: each operand's repeated labels become a diagonal
/// (a select with an identity mask and a sum), every operand is transposed
/// and reshaped onto one label order (output labels first, then the summed
/// ones), the operands are multiplied with broadcasting and the summed
/// labels reduced. Exact, and as general as the equation language; it
/// materialises the full product, so it suits the small contractions
/// Einsum tests and exporters produce (plain matrix products are MatMul).
LogicalResult convertEinsum(ImportContext &ctx) {
  FailureOr<std::string> equationAttr = ctx.stringAttr("equation", "");
  if (failed(equationAttr))
    return failure();
  std::string equation;
  for (char ch : *equationAttr)
    if (ch != ' ')
      equation += ch;
  size_t arrow = equation.find("->");
  std::string lhs = equation.substr(0, arrow);
  std::optional<std::string> rhs;
  if (arrow != std::string::npos)
    rhs = equation.substr(arrow + 2);
  SmallVector<std::string> terms;
  for (StringRef term : llvm::split(StringRef(lhs), ','))
    terms.push_back(term.str());
  int numInputs = ctx.numInputs();
  if (int(terms.size()) != numInputs || numInputs == 0)
    return ctx.error() << "the equation has " << terms.size()
                       << " operand(s), the node " << numInputs;

  // Labels: letters, and for the dimensions an ellipsis covers the
  // characters '0', '1', ... (right-aligned across operands, as NumPy
  // broadcasts them).
  auto isLabel = [](char ch) { return llvm::isAlpha(ch); };
  int64_t ellipsisRank = 0;
  SmallVector<Value> operands;
  SmallVector<SmallVector<char>> labels;
  for (int i = 0; i < numInputs; ++i) {
    FailureOr<Value> operand = ctx.requiredInput(i, "Inputs");
    if (failed(operand))
      return failure();
    operands.push_back(*operand);
    const std::string &term = terms[i];
    size_t dots = term.find("...");
    int64_t letters = 0;
    for (char ch : term)
      if (isLabel(ch))
        ++letters;
      else if (ch != '.')
        return ctx.error() << "invalid character '" << ch
                           << "' in the equation";
    int64_t rank = shapeOf(*operand).size();
    if (dots == std::string::npos ? letters != rank : letters > rank)
      return ctx.error() << "operand " << i << " has rank " << rank
                         << ", its term '" << term << "' does not match";
    int64_t covered = dots == std::string::npos ? 0 : rank - letters;
    if (covered > 9)
      return ctx.error() << "an ellipsis may cover at most 9 dimensions";
    ellipsisRank = std::max(ellipsisRank, covered);
    SmallVector<char> operandLabels;
    for (size_t pos = 0; pos < term.size(); ++pos) {
      if (pos == dots) {
        for (int64_t d = 0; d < covered; ++d)
          operandLabels.push_back(char('0' + (9 - covered + d)));
        pos += 2;
        continue;
      }
      operandLabels.push_back(term[pos]);
    }
    labels.push_back(std::move(operandLabels));
  }
  SmallVector<char> ellipsisLabels;
  for (int64_t d = 0; d < ellipsisRank; ++d)
    ellipsisLabels.push_back(char('0' + (9 - ellipsisRank + d)));

  // Output labels: given, or the ellipsis then the letters seen once, in
  // alphabetical order.
  SmallVector<char> output;
  if (rhs) {
    size_t dots = rhs->find("...");
    for (size_t pos = 0; pos < rhs->size(); ++pos) {
      if (pos == dots) {
        llvm::append_range(output, ellipsisLabels);
        pos += 2;
        continue;
      }
      if (!isLabel((*rhs)[pos]) || llvm::is_contained(output, (*rhs)[pos]))
        return ctx.error() << "invalid output term '" << *rhs << "'";
      output.push_back((*rhs)[pos]);
    }
  } else {
    llvm::append_range(output, ellipsisLabels);
    std::map<char, int> counts;
    for (const auto &operandLabels : labels)
      for (char label : operandLabels)
        if (isLabel(label))
          ++counts[label];
    for (auto [label, count] : counts)
      if (count == 1)
        output.push_back(label);
  }

  // Dimension sizes per label (1 broadcasts inside the ellipsis).
  std::map<char, int64_t> sizes;
  for (int i = 0; i < numInputs; ++i)
    for (auto [d, label] : llvm::enumerate(labels[i])) {
      int64_t size = shapeOf(operands[i])[d];
      auto [it, inserted] = sizes.try_emplace(label, size);
      if (!inserted && it->second != size) {
        if (isLabel(label) && it->second != 1 && size != 1)
          return ctx.error() << "label '" << label << "' has sizes "
                             << it->second << " and " << size;
        it->second = std::max(it->second, size);
      }
    }
  for (char label : output)
    if (!sizes.count(label))
      return ctx.error() << "output label '" << label
                         << "' appears in no operand";
  SmallVector<char> order(output);
  for (const auto &operandLabels : labels)
    for (char label : operandLabels)
      if (!llvm::is_contained(order, label))
        order.push_back(label);

  Value product;
  Type i1 = ctx.builder().getI1Type();
  for (int i = 0; i < numInputs; ++i) {
    Value value = operands[i];
    SmallVector<char> current = labels[i];
    // A repeated label takes the diagonal: keep the entries whose two
    // indices agree, sum the second dimension away.
    for (size_t q = 1; q < current.size(); ++q) {
      auto first =
          llvm::find(ArrayRef<char>(current).take_front(q), current[q]);
      if (first == current.begin() + q)
        continue;
      int64_t p = first - current.begin(), n = shapeOf(value)[q];
      if (shapeOf(value)[p] != n)
        return ctx.error() << "label '" << current[q]
                           << "' repeats with different sizes";
      SmallVector<int64_t> maskShape(current.size(), 1);
      maskShape[p] = maskShape[q] = n;
      SmallVector<bool> diagonal;
      for (int64_t a = 0; a < n; ++a)
        for (int64_t b = 0; b < n; ++b)
          diagonal.push_back(a == b);
      Value mask = ctx.constant(DenseElementsAttr::get(
          RankedTensorType::get(maskShape, i1), ArrayRef<bool>(diagonal)));
      SmallVector<Type> types;
      Value zero = scalarConstant(ctx, elementTypeOf(value), 0);
      if (failed(kiln::inferSelect(ctx.loc(), mask.getType(), value.getType(),
                                   zero.getType(), types)))
        return failure();
      Value kept = ctx.finish(SelectOp::create(ctx.builder(), ctx.loc(),
                                               types[0], mask, value, zero));
      types.clear();
      SmallVector<int64_t> axes = {int64_t(q)};
      if (failed(
              kiln::inferReduce(ctx.loc(), kept.getType(), axes, false, types)))
        return failure();
      value = ctx.finish(ReduceSumOp::create(ctx.builder(), ctx.loc(), types[0],
                                             kept, axes, false));
      current.erase(current.begin() + q);
      --q;
    }
    // Onto the common order: transpose, then unit dimensions for the
    // labels this operand lacks.
    SmallVector<int64_t> perm;
    for (char label : order)
      if (auto it = llvm::find(current, label); it != current.end())
        perm.push_back(it - current.begin());
    SmallVector<Type> types;
    if (failed(kiln::inferTranspose(ctx.loc(), value.getType(), perm, types)))
      return failure();
    value = ctx.finish(
        TransposeOp::create(ctx.builder(), ctx.loc(), types[0], value, perm));
    SmallVector<int64_t> aligned;
    for (char label : order)
      aligned.push_back(
          llvm::is_contained(current, label)
              ? shapeOf(operands[i])[llvm::find(labels[i], label) -
                                     labels[i].begin()]
              : 1);
    value = reshapeTo(ctx, value, aligned);
    if (!product) {
      product = value;
      continue;
    }
    FailureOr<Value> multiplied = buildBroadcast<MulOp>(ctx, product, value);
    if (failed(multiplied))
      return failure();
    product = *multiplied;
  }
  // The product has every label's (broadcast) size; sum the labels that
  // are not in the output.
  SmallVector<int64_t> axes;
  for (int64_t d = output.size(); d < int64_t(order.size()); ++d)
    axes.push_back(d);
  Value result = product;
  if (!axes.empty()) {
    SmallVector<Type> types;
    if (failed(kiln::inferReduce(ctx.loc(), product.getType(), axes, false,
                                 types)))
      return failure();
    result = ctx.finish(ReduceSumOp::create(ctx.builder(), ctx.loc(), types[0],
                                            product, axes, false));
  }
  ctx.setOutput(0, result);
  return success();
}

} // namespace

void registerContractionConverters(ConverterRegistry &r) {
  r.add("MatMul", 1, convertMatMul);
  // Before opset 7, C broadcasts with `broadcast` set: NumPy's rules hold.
  r.add("Gemm", 1, convertGemm);
  r.add("Einsum", 12, convertEinsum);
}

} // namespace kiln::onnx
