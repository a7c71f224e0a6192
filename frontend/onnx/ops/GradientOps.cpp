//===- GradientOps.cpp - ai.onnx.preview.training Gradient ----------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Gradient{xs, y} gives dy/dx for every x in xs: reverse-mode
// differentiation of the kiln ops the graph's nodes became, at import time.
// The ops that depend on an x and that y depends on are walked from y back
// in block order (converters build in topological order), each adding its
// operands' share of its adjoint by the rule of its op; a broadcast operand
// gets the sum over the dimensions it was broadcast along. A y that is not
// a scalar is seeded with ones (the gradient of the sum of its elements);
// an x that y does not depend on gets zeros. An op without a rule is
// reported (exit 3), naming it.
//
//===----------------------------------------------------------------------===//

#include "frontend/onnx/ConverterRegistry.h"
#include "frontend/onnx/ops/Expr.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

namespace kiln::onnx {

namespace {

/// A constant of `type` with every element `value`.
Value splat(ImportContext &ctx, Type type, double value) {
  auto tensor = cast<RankedTensorType>(type);
  return ctx.constant(DenseElementsAttr::get(
      tensor, FloatAttr::get(tensor.getElementType(), value)));
}

/// `g` summed down to `shape`, undoing a broadcast to g's shape.
Value unbroadcast(ImportContext &ctx, Value g, ArrayRef<int64_t> shape) {
  ArrayRef<int64_t> from = shapeOf(g);
  if (from == shape)
    return g;
  int64_t lead = int64_t(from.size()) - int64_t(shape.size());
  SmallVector<int64_t> axes;
  for (int64_t d = 0; d < int64_t(from.size()); ++d)
    if (d < lead || (shape[d - lead] == 1 && from[d] != 1))
      axes.push_back(d);
  FailureOr<Value> summed = reduceOf<ReduceSumOp>(ctx, g, axes, true);
  return succeeded(summed) ? reshapeTo(ctx, *summed, shape) : Value();
}

class Differentiator {
public:
  explicit Differentiator(ImportContext &ctx) : ctx_(ctx), e_(ctx) {}

  /// dy/dx for each of `xs` (null after a reported failure).
  FailureOr<SmallVector<Value>> gradients(Value y, ArrayRef<Value> xs) {
    Block *block = ctx_.builder().getInsertionBlock();
    // Forward: the values that depend on an x.
    llvm::DenseSet<Value> dependent(xs.begin(), xs.end());
    for (Operation &op : *block)
      if (llvm::any_of(op.getOperands(),
                       [&](Value v) { return dependent.contains(v); }))
        dependent.insert(op.result_begin(), op.result_end());
    // Backward from y, in reverse block order.
    adjoint_[y] = splat(ctx_, y.getType(), 1.0);
    for (Operation &op : llvm::reverse(*block)) {
      if (op.getNumResults() != 1 || !adjoint_.count(op.getResult(0)) ||
          !dependent.contains(op.getResult(0)))
        continue;
      if (failed(backprop(op, adjoint_[op.getResult(0)], dependent)))
        return failure();
    }
    SmallVector<Value> result;
    for (Value x : xs) {
      Value g = adjoint_.lookup(x);
      result.push_back(g ? g : splat(ctx_, x.getType(), 0.0));
    }
    return result;
  }

private:
  void add(Value v, Value g, const llvm::DenseSet<Value> &dependent) {
    if (!dependent.contains(v))
      return;
    g = unbroadcast(ctx_, g, shapeOf(v));
    Value &slot = adjoint_[v];
    slot = slot ? e_.add(slot, g) : g;
  }

  LogicalResult backprop(Operation &op, Value g,
                         const llvm::DenseSet<Value> &dependent) {
    Value y = op.getResult(0);
    auto operand = [&](unsigned i) { return op.getOperand(i); };
    bool known =
        llvm::TypeSwitch<Operation *, bool>(&op)
            .Case<AddOp>([&](auto) {
              add(operand(0), g, dependent);
              add(operand(1), g, dependent);
              return true;
            })
            .Case<SubOp>([&](auto) {
              add(operand(0), g, dependent);
              add(operand(1), e_.unary<NegOp>(g), dependent);
              return true;
            })
            .Case<MulOp>([&](auto) {
              add(operand(0), e_.mul(g, operand(1)), dependent);
              add(operand(1), e_.mul(g, operand(0)), dependent);
              return true;
            })
            .Case<DivOp>([&](auto) {
              // d(a/b) = g/b, -g*(a/b)/b.
              add(operand(0), e_.div(g, operand(1)), dependent);
              add(operand(1), e_.unary<NegOp>(e_.div(e_.mul(g, y), operand(1))),
                  dependent);
              return true;
            })
            .Case<NegOp>([&](auto) {
              add(operand(0), e_.unary<NegOp>(g), dependent);
              return true;
            })
            .Case<ExpOp>([&](auto) {
              add(operand(0), e_.mul(g, y), dependent);
              return true;
            })
            .Case<LogOp>([&](auto) {
              add(operand(0), e_.div(g, operand(0)), dependent);
              return true;
            })
            .Case<TanhOp>([&](auto) {
              add(operand(0), e_.mul(g, e_.sub(e_.c(y, 1), e_.mul(y, y))),
                  dependent);
              return true;
            })
            .Case<SigmoidOp>([&](auto) {
              add(operand(0), e_.mul(g, e_.mul(y, e_.sub(e_.c(y, 1), y))),
                  dependent);
              return true;
            })
            .Case<ReluOp>([&](auto) {
              Value x = operand(0);
              add(operand(0),
                  e_.select(e_.cmp(ComparePredicate::gt, x, e_.c(x, 0)), g,
                            e_.c(g, 0)),
                  dependent);
              return true;
            })
            .Case<ReshapeOp>([&](auto) {
              add(operand(0), reshapeTo(ctx_, g, shapeOf(operand(0))),
                  dependent);
              return true;
            })
            .Default([](Operation *) { return false; });
    if (!known) {
      ctx_.markUnsupported();
      return ctx_.error() << "no derivative rule for '"
                          << op.getName().getStringRef()
                          << "' (Gradient differentiates add, sub, mul, div, "
                             "neg, exp, log, tanh, sigmoid, relu and "
                             "reshape)";
    }
    return ctx_.hadError() ? failure() : success();
  }

  ImportContext &ctx_;
  Expr e_;
  llvm::DenseMap<Value, Value> adjoint_;
};

LogicalResult convertGradient(ImportContext &ctx) {
  const pb::AttributeProto *xsAttr = ctx.attribute("xs");
  FailureOr<std::string> yName = ctx.stringAttr("y", "");
  if (failed(yName))
    return failure();
  if (!xsAttr || xsAttr->type() != pb::AttributeProto::STRINGS ||
      xsAttr->strings_size() == 0)
    return ctx.error() << "attribute 'xs' must name one or more tensors";
  Value y = ctx.lookup(*yName);
  if (yName->empty() || !y)
    return ctx.error() << "attribute 'y' must name a tensor computed before "
                          "the node, it is '"
                       << *yName << "'";
  if (!isa<FloatType>(elementTypeOf(y)))
    return ctx.error() << "y must be a floating-point tensor";
  SmallVector<Value> xs;
  for (const std::string &name : xsAttr->strings()) {
    Value x = ctx.lookup(name);
    if (!x)
      return ctx.error() << "xs names '" << name
                         << "', which is not a tensor of the graph";
    if (!isa<FloatType>(elementTypeOf(x)))
      return ctx.error() << "xs names '" << name
                         << "', which is not a floating-point tensor";
    xs.push_back(x);
  }
  if (ctx.node().output_size() != int(xs.size()))
    return ctx.error() << "the node has " << ctx.node().output_size()
                       << " outputs for " << xs.size() << " tensors in xs";
  Differentiator differentiator(ctx);
  FailureOr<SmallVector<Value>> gradients = differentiator.gradients(y, xs);
  if (failed(gradients))
    return failure();
  for (auto [i, g] : llvm::enumerate(*gradients))
    ctx.setOutput(int(i), g);
  return success();
}

} // namespace

void registerGradientConverters(ConverterRegistry &r) {
  r.add("ai.onnx.preview.training.Gradient", 1, convertGradient);
}

} // namespace kiln::onnx
