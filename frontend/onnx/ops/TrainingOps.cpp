//===- TrainingOps.cpp - ai.onnx.preview.training optimizers --------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Adagrad, Momentum and Adam: one optimizer step over N tensors, each an
// elementwise formula of the learning rate R, the step count T and the
// tensors' states (the ONNX operator specification's formulas, spelled in
// kiln ops). Inputs are R, T, then N tensors of each kind grouped by kind
// (X1..XN, G1..GN, ...); outputs likewise.
//
//===----------------------------------------------------------------------===//

#include "frontend/onnx/ConverterRegistry.h"
#include "frontend/onnx/ops/Expr.h"

using namespace mlir;

namespace kiln::onnx {

namespace {

/// The node's operands: R, T and `kinds` groups of N tensors.
struct OptimizerInputs {
  Value rate, count; // count as the tensors' float type
  SmallVector<SmallVector<Value>> groups;
};

FailureOr<OptimizerInputs> readOptimizerInputs(ImportContext &ctx, int kinds) {
  int tensors = ctx.numInputs() - 2;
  if (tensors <= 0 || tensors % kinds != 0)
    return ctx.error() << "expects R, T and " << kinds
                       << " groups of equally many tensors, got "
                       << ctx.numInputs() << " inputs";
  int n = tensors / kinds;
  if (ctx.node().output_size() > n * (kinds - 1))
    return ctx.error() << "has " << ctx.node().output_size()
                       << " outputs; at most " << n * (kinds - 1);
  OptimizerInputs in;
  FailureOr<Value> rate = ctx.requiredInput(0, "R");
  FailureOr<Value> count = ctx.requiredInput(1, "T");
  if (failed(rate) || failed(count))
    return failure();
  in.groups.resize(kinds);
  for (int k = 0; k < kinds; ++k)
    for (int i = 0; i < n; ++i) {
      FailureOr<Value> v = ctx.requiredInput(2 + k * n + i, "a tensor");
      if (failed(v))
        return failure();
      if (!isa<FloatType>(elementTypeOf(*v)))
        return ctx.error() << "input #" << 2 + k * n + i
                           << " must hold floating-point values";
      in.groups[k].push_back(*v);
    }
  Type element = elementTypeOf(in.groups[0][0]);
  if (!isa<FloatType>(elementTypeOf(*rate)) ||
      !isa<IntegerType>(elementTypeOf(*count)))
    return ctx.error() << "R must be a float and T an integer";
  in.rate = castTo(ctx, *rate, element);
  in.count = castTo(ctx, *count, element);
  return in;
}

/// Optional float attribute, reported at the node when it has another type.
double attribute(ImportContext &ctx, llvm::StringRef name, double fallback,
                 bool &ok) {
  FailureOr<float> value = ctx.floatAttr(name, float(fallback));
  ok &= succeeded(value);
  return succeeded(value) ? double(*value) : fallback;
}

/// Sets outputs from groups of results, in order, as far as the node has
/// outputs.
LogicalResult setOutputs(ImportContext &ctx,
                         ArrayRef<SmallVector<Value>> groups) {
  int index = 0;
  for (const SmallVector<Value> &group : groups)
    for (Value v : group) {
      if (!v)
        return failure();
      if (index < ctx.node().output_size())
        ctx.setOutput(index, v);
      ++index;
    }
  return success();
}

LogicalResult convertAdagrad(ImportContext &ctx) {
  bool ok = true;
  double decay = attribute(ctx, "decay_factor", 0.0, ok);
  double epsilon = attribute(ctx, "epsilon", 1e-6, ok);
  double norm = attribute(ctx, "norm_coefficient", 0.0, ok);
  FailureOr<OptimizerInputs> in = readOptimizerInputs(ctx, 3);
  if (!ok || failed(in))
    return failure();
  Expr e(ctx);
  // r = R / (1 + T * decay)
  Value r = e.div(in->rate, e.add(e.c(in->rate, 1),
                                  e.mul(in->count, e.c(in->count, decay))));
  SmallVector<Value> xs, hs;
  for (size_t i = 0; i < in->groups[0].size(); ++i) {
    Value x = in->groups[0][i], g = in->groups[1][i], h = in->groups[2][i];
    Value grad = e.add(e.mul(e.c(x, norm), x), g);
    Value hNew = e.add(h, e.mul(grad, grad));
    Value adaptive = e.add(e.unary<SqrtOp>(hNew), e.c(x, epsilon));
    xs.push_back(e.sub(x, e.div(e.mul(r, grad), adaptive)));
    hs.push_back(hNew);
  }
  return setOutputs(ctx, {xs, hs});
}

LogicalResult convertMomentum(ImportContext &ctx) {
  bool ok = true;
  double alpha = attribute(ctx, "alpha", 0.0, ok);
  double beta = attribute(ctx, "beta", 0.0, ok);
  double norm = attribute(ctx, "norm_coefficient", 0.0, ok);
  FailureOr<std::string> mode = ctx.stringAttr("mode", "");
  FailureOr<OptimizerInputs> in = readOptimizerInputs(ctx, 3);
  if (!ok || failed(mode) || failed(in))
    return failure();
  if (*mode != "standard" && *mode != "nesterov")
    return ctx.error() << "'mode' must be standard or nesterov, got '" << *mode
                       << "'";
  Expr e(ctx);
  // The first step (T == 0) takes the gradient whole.
  Value betaAdjusted =
      e.select(e.cmp(ComparePredicate::gt, in->count, e.c(in->count, 0)),
               e.c(in->count, beta), e.c(in->count, 1));
  SmallVector<Value> xs, vs;
  for (size_t i = 0; i < in->groups[0].size(); ++i) {
    Value x = in->groups[0][i], g = in->groups[1][i], v = in->groups[2][i];
    Value grad = e.add(e.mul(e.c(x, norm), x), g);
    Value vNew = e.add(e.mul(e.c(v, alpha), v), e.mul(betaAdjusted, grad));
    Value step =
        *mode == "standard" ? vNew : e.add(grad, e.mul(e.c(vNew, alpha), vNew));
    xs.push_back(e.sub(x, e.mul(in->rate, step)));
    vs.push_back(vNew);
  }
  return setOutputs(ctx, {xs, vs});
}

LogicalResult convertAdam(ImportContext &ctx) {
  bool ok = true;
  double alpha = attribute(ctx, "alpha", 0.9, ok);
  double beta = attribute(ctx, "beta", 0.999, ok);
  double epsilon = attribute(ctx, "epsilon", 1e-6, ok);
  double norm = attribute(ctx, "norm_coefficient", 0.0, ok);
  double normPost = attribute(ctx, "norm_coefficient_post", 0.0, ok);
  FailureOr<OptimizerInputs> in = readOptimizerInputs(ctx, 4);
  if (!ok || failed(in))
    return failure();
  Expr e(ctx);
  Value t = in->count;
  // Bias correction from the second step on: R * sqrt(1 - beta^T) / (1 -
  // alpha^T).
  Value corrected =
      e.div(e.mul(in->rate, e.unary<SqrtOp>(e.sub(
                                e.c(t, 1), e.binary<PowOp>(e.c(t, beta), t)))),
            e.sub(e.c(t, 1), e.binary<PowOp>(e.c(t, alpha), t)));
  Value rate =
      e.select(e.cmp(ComparePredicate::gt, t, e.c(t, 0)), corrected, in->rate);
  SmallVector<Value> xs, vs, hs;
  for (size_t i = 0; i < in->groups[0].size(); ++i) {
    Value x = in->groups[0][i], g = in->groups[1][i], v = in->groups[2][i],
          h = in->groups[3][i];
    Value grad = e.add(e.mul(e.c(x, norm), x), g);
    Value vNew =
        e.add(e.mul(e.c(v, alpha), v), e.mul(e.c(grad, 1 - alpha), grad));
    Value hNew = e.add(e.mul(e.c(h, beta), h),
                       e.mul(e.c(grad, 1 - beta), e.mul(grad, grad)));
    Value root = e.add(e.unary<SqrtOp>(hNew), e.c(hNew, epsilon));
    Value xNew = e.sub(x, e.mul(rate, e.div(vNew, root)));
    xs.push_back(e.mul(e.c(xNew, 1 - normPost), xNew));
    vs.push_back(vNew);
    hs.push_back(hNew);
  }
  return setOutputs(ctx, {xs, vs, hs});
}

} // namespace

void registerTrainingConverters(ConverterRegistry &r) {
  r.add("ai.onnx.preview.training.Adagrad", 1, convertAdagrad);
  r.add("ai.onnx.preview.training.Momentum", 1, convertMomentum);
  r.add("ai.onnx.preview.training.Adam", 1, convertAdam);
}

} // namespace kiln::onnx
