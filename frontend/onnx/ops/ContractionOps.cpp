//===- ContractionOps.cpp - ONNX MatMul and Gemm -> kiln ------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "frontend/onnx/ops/Common.h"

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

} // namespace

void registerContractionConverters(ConverterRegistry &r) {
  r.add("MatMul", 1, convertMatMul);
  r.add("Gemm", 7, convertGemm);
}

} // namespace kiln::onnx
