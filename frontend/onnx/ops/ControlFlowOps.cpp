//===- ControlFlowOps.cpp - ONNX If, Loop and Scan ------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Kiln graphs have static shapes and no regions, so control flow is
// resolved at import, with the bodies imported inline
// (ImportContext::importSubgraph):
// - If on a condition known at compile time imports the branch taken; on a
//   run-time condition it imports both and selects between their outputs,
//   which needs the branches to agree on every output's type (otherwise
//   the condition decides shapes, and is asked for as a compile-time value,
//   which `kilnc run` binds as a JIT);
// - Loop and Scan are unrolled: the trip count, the loop condition after
//   each iteration and the scanned lengths must be compile-time values
//   (they decide the outputs' shapes), and the model's iterations are
//   bounded (ImportContext::spendIterations), with exit 3 beyond.
//
//===----------------------------------------------------------------------===//

#include "frontend/onnx/ConverterRegistry.h"
#include "frontend/onnx/ops/Expr.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;

namespace kiln::onnx {

namespace {

FailureOr<const pb::GraphProto *> graphAttr(ImportContext &ctx,
                                            llvm::StringRef name) {
  const pb::AttributeProto *attr = ctx.attribute(name);
  if (!attr || attr->type() != pb::AttributeProto::GRAPH)
    return ctx.error() << "attribute '" << name << "' must be a graph";
  return &attr->g();
}

/// A boolean or integer scalar constant as a truth value.
FailureOr<bool> truthOf(ImportContext &ctx, Value value, llvm::StringRef what) {
  FailureOr<DenseElementsAttr> attr = ctx.constantOf(value, what);
  if (failed(attr))
    return failure();
  if (attr->getNumElements() != 1 || !isa<IntegerType>(attr->getElementType()))
    return ctx.error() << what << " must be one boolean";
  return !(*attr->getValues<APInt>().begin()).isZero();
}

LogicalResult convertIf(ImportContext &ctx) {
  FailureOr<Value> cond = ctx.requiredInput(0, "cond");
  FailureOr<const pb::GraphProto *> thenBranch = graphAttr(ctx, "then_branch");
  FailureOr<const pb::GraphProto *> elseBranch = graphAttr(ctx, "else_branch");
  if (failed(cond) || failed(thenBranch) || failed(elseBranch))
    return failure();
  if (shapeOf(*cond).size() > 1 ||
      !(shapeOf(*cond).empty() || shapeOf(*cond)[0] == 1) ||
      !elementTypeOf(*cond).isInteger(1))
    return ctx.error() << "cond must be one boolean, it is " << cond->getType();
  if (matchPattern(*cond, m_Constant())) {
    FailureOr<bool> taken = truthOf(ctx, *cond, "cond");
    if (failed(taken))
      return failure();
    FailureOr<SmallVector<GraphValue>> outputs =
        ctx.importSubgraph(**(*taken ? thenBranch : elseBranch), {});
    if (failed(outputs))
      return failure();
    for (auto [i, v] : llvm::enumerate(*outputs))
      ctx.setAnyOutput(int(i), v);
    return success();
  }
  FailureOr<SmallVector<GraphValue>> thenOut =
      ctx.importSubgraph(**thenBranch, {});
  if (failed(thenOut))
    return failure();
  FailureOr<SmallVector<GraphValue>> elseOut =
      ctx.importSubgraph(**elseBranch, {});
  if (failed(elseOut))
    return failure();
  if (thenOut->size() != elseOut->size())
    return ctx.error() << "the branches have " << thenOut->size() << " and "
                       << elseOut->size() << " outputs";
  bool selectable = llvm::all_of(llvm::zip(*thenOut, *elseOut), [](auto pair) {
    const GraphValue &a = std::get<0>(pair), &b = std::get<1>(pair);
    return !a.isSequence() && !b.isSequence() &&
           a.tensor.getType() == b.tensor.getType();
  });
  if (!selectable) {
    // The condition decides the outputs' types, or picks a sequence: it
    // must be known.
    (void)ctx.constantOf(*cond, "cond (the branches' outputs differ in type "
                                "or are sequences)");
    return failure();
  }
  Value flag = reshapeTo(ctx, *cond, {});
  Expr e(ctx);
  for (auto [i, pair] : llvm::enumerate(llvm::zip(*thenOut, *elseOut))) {
    Value chosen =
        e.select(flag, std::get<0>(pair).tensor, std::get<1>(pair).tensor);
    if (!chosen)
      return failure();
    ctx.setOutput(int(i), chosen);
  }
  return success();
}

/// Loop(M, cond, v...) with body(i, cond, v...) -> (cond, v..., scan...).
LogicalResult convertLoop(ImportContext &ctx) {
  FailureOr<const pb::GraphProto *> body = graphAttr(ctx, "body");
  if (failed(body))
    return failure();
  std::optional<int64_t> trips;
  if (ctx.input(0)) {
    FailureOr<SmallVector<int64_t>> m = ctx.constantInts(0, "M");
    if (failed(m))
      return failure();
    if (m->size() != 1 || (*m)[0] < 0)
      return ctx.error() << "M must be one non-negative integer";
    trips = (*m)[0];
  }
  bool running = true;
  if (Value cond = ctx.input(1)) {
    FailureOr<bool> initial = truthOf(ctx, cond, "input #1 (cond)");
    if (failed(initial))
      return failure();
    running = *initial;
  }
  if (!trips && !ctx.input(1))
    return ctx.error() << "a Loop without M or cond never ends";
  // Carried values may be tensors or sequences (a list that a scripted
  // PyTorch loop appends to).
  SmallVector<GraphValue> carried;
  for (int i = 2; i < ctx.numInputs(); ++i) {
    FailureOr<GraphValue> v = ctx.anyInput(i, "v_initial");
    if (failed(v))
      return failure();
    carried.push_back(*v);
  }
  int64_t scans = int64_t((*body)->output_size()) - 1 - int64_t(carried.size());
  if (scans < 0 || (*body)->input_size() != 2 + int(carried.size()))
    return ctx.error() << "the body must take (i, cond, " << carried.size()
                       << " values) and give (cond, " << carried.size()
                       << " values, scan outputs)";
  Type i64 = ctx.builder().getI64Type(), i1 = ctx.builder().getI1Type();
  SmallVector<SmallVector<Value>> scanned(scans);
  int64_t iteration = 0;
  for (; running && (!trips || iteration < *trips); ++iteration) {
    if (!ctx.spendIterations(1)) {
      ctx.markUnsupported();
      return ctx.error() << "the model's loops unroll to more than Kiln's "
                            "budget of iterations (4096)";
    }
    SmallVector<GraphValue> inputs = {scalarConstant(ctx, i64, iteration),
                                      scalarConstant(ctx, i1, 1)};
    inputs.append(carried);
    FailureOr<SmallVector<GraphValue>> outputs =
        ctx.importSubgraph(**body, inputs);
    if (failed(outputs))
      return failure();
    for (int64_t k = 0; k <= scans; ++k)
      if ((*outputs)[k ? carried.size() + k : 0].isSequence())
        return ctx.error() << "the body's condition and scan outputs must be "
                              "tensors";
    FailureOr<bool> next =
        truthOf(ctx, (*outputs)[0].tensor,
                "the body's condition (it decides how many iterations run)");
    if (failed(next))
      return failure();
    running = *next;
    for (size_t v = 0; v < carried.size(); ++v)
      carried[v] = (*outputs)[1 + v];
    for (int64_t k = 0; k < scans; ++k)
      scanned[k].push_back((*outputs)[1 + carried.size() + k].tensor);
  }
  for (auto [i, v] : llvm::enumerate(carried))
    ctx.setAnyOutput(int(i), v);
  for (int64_t k = 0; k < scans; ++k) {
    if (scanned[k].empty()) {
      ctx.markUnsupported();
      return ctx.error() << "a Loop that runs no iteration has scan outputs "
                            "of unknown shape";
    }
    FailureOr<Value> stacked = stackOf(ctx, scanned[k], 0);
    if (failed(stacked))
      return failure();
    ctx.setOutput(int(carried.size() + k), *stacked);
  }
  return success();
}

/// Reads an ints attribute of `count` entries (default all 0).
FailureOr<SmallVector<int64_t>> intsOr0(ImportContext &ctx,
                                        llvm::StringRef name, int64_t count) {
  auto attr = ctx.intsAttr(name);
  if (failed(attr))
    return failure();
  SmallVector<int64_t> values = attr->value_or(SmallVector<int64_t>(count, 0));
  if (int64_t(values.size()) != count)
    return ctx.error() << "attribute '" << name << "' must have " << count
                       << " entries";
  return values;
}

/// One Scan over `states` and `inputs` (already without a batch
/// dimension): per step, the inputs' slices along their axes (in their
/// directions) and the states go through the body; the scan outputs are
/// stacked along their axes.
FailureOr<SmallVector<Value>>
scanOnce(ImportContext &ctx, const pb::GraphProto &body,
         SmallVector<Value> states, ArrayRef<Value> inputs,
         ArrayRef<int64_t> inputAxes, ArrayRef<int64_t> inputDirections,
         ArrayRef<int64_t> outputAxes, ArrayRef<int64_t> outputDirections) {
  int64_t length = -1;
  SmallVector<int64_t> axes;
  for (auto [input, axisAttr] : llvm::zip(inputs, inputAxes)) {
    FailureOr<int64_t> axis =
        normalizeAxisAt(ctx, axisAttr, shapeOf(input).size());
    if (failed(axis))
      return failure();
    int64_t size = shapeOf(input)[*axis];
    if (length >= 0 && size != length)
      return ctx.error() << "the scan inputs have different lengths (" << length
                         << " and " << size << ")";
    length = size;
    axes.push_back(*axis);
  }
  int64_t scans = int64_t(body.output_size()) - int64_t(states.size());
  if (scans < 0 || body.input_size() != int(states.size() + inputs.size()))
    return ctx.error() << "the body must take " << states.size()
                       << " states and " << inputs.size()
                       << " scan inputs and give the states first";
  if (int64_t(outputAxes.size()) != scans ||
      int64_t(outputDirections.size()) != scans)
    return ctx.error() << "scan_output_axes and scan_output_directions must "
                          "have an entry per scan output ("
                       << scans << ")";
  if (length <= 0) {
    ctx.markUnsupported();
    return ctx.error() << "a Scan over no element has outputs of unknown "
                          "shape";
  }
  if (!ctx.spendIterations(length)) {
    ctx.markUnsupported();
    return ctx.error() << "the model's loops unroll to more than Kiln's "
                          "budget of iterations (4096)";
  }
  SmallVector<SmallVector<Value>> scanned(scans);
  for (int64_t t = 0; t < length; ++t) {
    SmallVector<GraphValue> bodyInputs(states.begin(), states.end());
    for (auto [i, input] : llvm::enumerate(inputs)) {
      int64_t at = inputDirections[i] ? length - 1 - t : t;
      FailureOr<Value> slice = takeAlong(ctx, input, axes[i], at);
      if (failed(slice))
        return failure();
      bodyInputs.push_back(*slice);
    }
    FailureOr<SmallVector<GraphValue>> outputs =
        ctx.importSubgraph(body, bodyInputs);
    if (failed(outputs))
      return failure();
    if (llvm::any_of(*outputs,
                     [](const GraphValue &v) { return v.isSequence(); }))
      return ctx.error() << "a Scan body's outputs must be tensors";
    for (size_t s = 0; s < states.size(); ++s)
      states[s] = (*outputs)[s].tensor;
    for (int64_t k = 0; k < scans; ++k)
      scanned[k].push_back((*outputs)[states.size() + k].tensor);
  }
  SmallVector<Value> results(states);
  for (int64_t k = 0; k < scans; ++k) {
    if (outputDirections[k])
      std::reverse(scanned[k].begin(), scanned[k].end());
    FailureOr<int64_t> axis = normalizeAxisAt(
        ctx, outputAxes[k], shapeOf(scanned[k].front()).size() + 1);
    if (failed(axis))
      return failure();
    FailureOr<Value> stacked = stackOf(ctx, scanned[k], *axis);
    if (failed(stacked))
      return failure();
    results.push_back(*stacked);
  }
  return results;
}

/// Scan: opset 9 and later scan along any axis; opset 8 has a batch
/// dimension first on every state and input (its body sees one batch
/// entry), and scans along axis 1.
LogicalResult convertScan(ImportContext &ctx) {
  FailureOr<const pb::GraphProto *> body = graphAttr(ctx, "body");
  FailureOr<int64_t> numScanInputs = ctx.intAttr("num_scan_inputs", -1);
  if (failed(body) || failed(numScanInputs))
    return failure();
  bool batched = ctx.opset() < 9;
  int first = batched ? 1 : 0;
  if (batched && ctx.input(0)) {
    ctx.markUnsupported();
    return ctx.error() << "Scan with sequence_lens is not supported";
  }
  int64_t m = *numScanInputs;
  int64_t n = ctx.numInputs() - first - m;
  if (m <= 0 || n < 0)
    return ctx.error() << "num_scan_inputs must be in [1, "
                       << ctx.numInputs() - first << "]";
  SmallVector<Value> states, inputs;
  for (int i = first; i < ctx.numInputs(); ++i) {
    FailureOr<Value> v =
        ctx.requiredInput(i, i < first + n ? "state" : "scan input");
    if (failed(v))
      return failure();
    (i < first + n ? states : inputs).push_back(*v);
  }
  int64_t scans = int64_t((*body)->output_size()) - n;
  if (scans < 0)
    return ctx.error() << "the body gives fewer outputs than the " << n
                       << " states";
  FailureOr<SmallVector<int64_t>> inputAxes =
      batched ? FailureOr<SmallVector<int64_t>>(SmallVector<int64_t>(m, 0))
              : intsOr0(ctx, "scan_input_axes", m);
  FailureOr<SmallVector<int64_t>> inputDirections =
      intsOr0(ctx, batched ? "directions" : "scan_input_directions", m);
  FailureOr<SmallVector<int64_t>> outputAxes =
      batched ? FailureOr<SmallVector<int64_t>>(SmallVector<int64_t>(scans, 0))
              : intsOr0(ctx, "scan_output_axes", scans);
  FailureOr<SmallVector<int64_t>> outputDirections =
      batched ? FailureOr<SmallVector<int64_t>>(SmallVector<int64_t>(scans, 0))
              : intsOr0(ctx, "scan_output_directions", scans);
  if (failed(inputAxes) || failed(inputDirections) || failed(outputAxes) ||
      failed(outputDirections))
    return failure();
  if (!batched) {
    FailureOr<SmallVector<Value>> results =
        scanOnce(ctx, **body, states, inputs, *inputAxes, *inputDirections,
                 *outputAxes, *outputDirections);
    if (failed(results))
      return failure();
    for (auto [i, v] : llvm::enumerate(*results))
      ctx.setOutput(int(i), v);
    return success();
  }
  // Opset 8: one scan per batch entry, the results stacked again.
  int64_t batch = -1;
  for (Value v : llvm::concat<Value>(states, inputs)) {
    if (shapeOf(v).empty() || (batch >= 0 && shapeOf(v)[0] != batch))
      return ctx.error() << "every state and scan input must start with the "
                            "same batch dimension";
    batch = shapeOf(v)[0];
  }
  SmallVector<SmallVector<Value>> perOutput;
  for (int64_t b = 0; b < batch; ++b) {
    SmallVector<Value> entryStates, entryInputs;
    for (Value v : states) {
      FailureOr<Value> e = takeAlong(ctx, v, 0, b);
      if (failed(e))
        return failure();
      entryStates.push_back(*e);
    }
    for (Value v : inputs) {
      FailureOr<Value> e = takeAlong(ctx, v, 0, b);
      if (failed(e))
        return failure();
      entryInputs.push_back(*e);
    }
    FailureOr<SmallVector<Value>> results =
        scanOnce(ctx, **body, entryStates, entryInputs, *inputAxes,
                 *inputDirections, *outputAxes, *outputDirections);
    if (failed(results))
      return failure();
    perOutput.resize(results->size());
    for (auto [i, v] : llvm::enumerate(*results))
      perOutput[i].push_back(v);
  }
  if (batch <= 0) {
    ctx.markUnsupported();
    return ctx.error() << "a Scan over an empty batch has outputs of unknown "
                          "shape";
  }
  for (auto [i, values] : llvm::enumerate(perOutput)) {
    FailureOr<Value> stacked = stackOf(ctx, values, 0);
    if (failed(stacked))
      return failure();
    ctx.setOutput(int(i), *stacked);
  }
  return success();
}

} // namespace

void registerControlFlowConverters(ConverterRegistry &r) {
  r.add("If", 1, convertIf);
  r.add("Loop", 1, convertLoop);
  r.add("Scan", 8, convertScan);
}

} // namespace kiln::onnx
