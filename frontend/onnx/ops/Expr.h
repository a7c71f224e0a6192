//===- Expr.h - Elementwise expressions in ONNX converters ------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Converters that spell an ONNX op as a short expression of kiln ops
// (composite activations, sampling coordinates...) build it with Expr.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_FRONTEND_ONNX_OPS_EXPR_H
#define KILN_FRONTEND_ONNX_OPS_EXPR_H

#include "frontend/onnx/ops/Common.h"

namespace kiln::onnx {

/// Builds elementwise expressions at the current node. Every method
/// returns null after a failure (reported at the node), and propagates
/// null inputs, so an expression is checked once at the end.
class Expr {
public:
  explicit Expr(ImportContext &ctx) : ctx_(ctx) {}

  mlir::Value c(mlir::Value like, double value) {
    return like ? scalarConstant(ctx_, elementTypeOf(like), value)
                : mlir::Value();
  }
  template <typename OpTy> mlir::Value unary(mlir::Value x) {
    if (!x)
      return {};
    return ctx_.finish(
        OpTy::create(ctx_.builder(), ctx_.loc(), x.getType(), x));
  }
  template <typename OpTy> mlir::Value binary(mlir::Value a, mlir::Value b) {
    if (!a || !b)
      return {};
    mlir::FailureOr<mlir::Value> r = buildBroadcast<OpTy>(ctx_, a, b);
    return mlir::succeeded(r) ? *r : mlir::Value();
  }
  mlir::Value add(mlir::Value a, mlir::Value b) { return binary<AddOp>(a, b); }
  mlir::Value sub(mlir::Value a, mlir::Value b) { return binary<SubOp>(a, b); }
  mlir::Value mul(mlir::Value a, mlir::Value b) { return binary<MulOp>(a, b); }
  mlir::Value div(mlir::Value a, mlir::Value b) { return binary<DivOp>(a, b); }
  mlir::Value max(mlir::Value a, mlir::Value b) { return binary<MaxOp>(a, b); }
  mlir::Value min(mlir::Value a, mlir::Value b) { return binary<MinOp>(a, b); }
  mlir::Value cmp(ComparePredicate p, mlir::Value a, mlir::Value b) {
    if (!a || !b)
      return {};
    llvm::SmallVector<mlir::Type> types;
    if (mlir::failed(
            kiln::inferBroadcastElementwise(ctx_.loc(), mlir::ValueRange{a, b},
                                            ctx_.builder().getI1Type(), types)))
      return {};
    return ctx_.finish(
        CompareOp::create(ctx_.builder(), ctx_.loc(), types[0], p, a, b));
  }
  mlir::Value select(mlir::Value cond, mlir::Value a, mlir::Value b) {
    if (!cond || !a || !b)
      return {};
    llvm::SmallVector<mlir::Type> types;
    if (mlir::failed(kiln::inferSelect(ctx_.loc(), cond.getType(), a.getType(),
                                       b.getType(), types)))
      return {};
    return ctx_.finish(
        SelectOp::create(ctx_.builder(), ctx_.loc(), types[0], cond, a, b));
  }
  mlir::Value orOf(mlir::Value a, mlir::Value b) { return binary<OrOp>(a, b); }

  /// Round half to even (ONNX Round, and quantisation): floor(x), then up
  /// when the fraction is above one half, or exactly one half with an odd
  /// floor.
  mlir::Value roundHalfEven(mlir::Value x) {
    mlir::Value floor = unary<FloorOp>(x);
    mlir::Value fraction = sub(x, floor);
    mlir::Value half = c(x, 0.5);
    // floor is odd when floor - 2 * floor(floor / 2) == 1.
    mlir::Value parity =
        sub(floor, mul(c(x, 2), unary<FloorOp>(mul(floor, half))));
    mlir::Value up = orOf(
        cmp(ComparePredicate::gt, fraction, half),
        binary<AndOp>(cmp(ComparePredicate::eq, fraction, half),
                      cmp(ComparePredicate::eq, parity, c(x, 1))));
    return select(up, add(floor, c(x, 1)), floor);
  }

  /// Defines output 0 as `result`, or fails if the expression failed.
  mlir::LogicalResult output(mlir::Value result) {
    if (!result)
      return mlir::failure();
    ctx_.setOutput(0, result);
    return mlir::success();
  }

protected:
  ImportContext &ctx_;
};

} // namespace kiln::onnx

#endif // KILN_FRONTEND_ONNX_OPS_EXPR_H
