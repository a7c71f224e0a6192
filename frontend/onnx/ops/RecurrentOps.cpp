//===- RecurrentOps.cpp - RNN, GRU and LSTM -------------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The recurrent ops with every attribute (directions, activations with
// their alpha/beta, clip, layouts, initial states, sequence_lens,
// peepholes, input_forget, linear_before_reset), spelled out in kiln ops:
//   * the input projection X * W^T + Wb (+ Rb) of all time steps is one
//     GEMM, hoisted out of the recurrence;
//   * the recurrence is unrolled over the (static) sequence length: per
//     step one GEMM H * R^T and the gates' elementwise math, which the
//     fusion pass groups into a kernel around the GEMM;
//   * sequence_lens (a constant, or an input the JIT binds) masks the steps
//     past each batch entry's length: its state stays, its output is 0.
//
//===----------------------------------------------------------------------===//

#include "frontend/onnx/ConverterRegistry.h"
#include "frontend/onnx/ops/Expr.h"

#include "llvm/ADT/StringSwitch.h"

using namespace mlir;

namespace kiln::onnx {

namespace {

enum class Cell { kRnn, kGru, kLstm };

/// Gates per cell: RNN one, GRU z r h, LSTM i o f c (ONNX's order).
int64_t gateCount(Cell cell) {
  return cell == Cell::kRnn ? 1 : cell == Cell::kGru ? 3 : 4;
}

/// One of the activation functions the recurrent ops accept.
struct Activation {
  std::string name;
  double alpha = 0, beta = 0;
};

/// Elementwise builders for one recurrent node, with the shape ops the
/// unrolled recurrence needs.
class Recurrence : public Expr {
public:
  using Expr::Expr;

  Value slice(Value value, ArrayRef<int64_t> starts, ArrayRef<int64_t> limits) {
    if (!value)
      return {};
    SmallVector<int64_t> steps(starts.size(), 1);
    SmallVector<Type> types;
    if (failed(kiln::inferSlice(ctx_.loc(), value.getType(), starts, limits,
                                steps, types)))
      return {};
    return ctx_.finish(SliceOp::create(ctx_.builder(), ctx_.loc(), types[0],
                                       value, starts, limits, steps));
  }
  /// Columns [begin, end) of a 2-D value.
  Value columns(Value value, int64_t begin, int64_t end) {
    return value ? slice(value, {0, begin}, {shapeOf(value)[0], end}) : value;
  }
  /// Entry `index` of dimension 0, that dimension dropped.
  Value entry(Value value, int64_t index) {
    if (!value)
      return {};
    SmallVector<int64_t> starts(shapeOf(value).size(), 0);
    SmallVector<int64_t> limits(shapeOf(value));
    starts[0] = index;
    limits[0] = index + 1;
    Value one = slice(value, starts, limits);
    return one ? reshapeTo(ctx_, one, shapeOf(value).drop_front()) : one;
  }
  Value reshape(Value value, ArrayRef<int64_t> shape) {
    return value ? reshapeTo(ctx_, value, shape) : value;
  }
  Value transpose(Value value, ArrayRef<int64_t> permutation) {
    if (!value)
      return {};
    SmallVector<Type> types;
    if (failed(kiln::inferTranspose(ctx_.loc(), value.getType(), permutation,
                                    types)))
      return {};
    return ctx_.finish(TransposeOp::create(ctx_.builder(), ctx_.loc(), types[0],
                                           value, permutation));
  }
  Value concat(ArrayRef<Value> values, int64_t axis) {
    if (values.empty() || llvm::any_of(values, [](Value v) { return !v; }))
      return {};
    if (values.size() == 1)
      return values.front();
    SmallVector<Type> types;
    if (failed(kiln::inferConcat(ctx_.loc(), ValueRange(values).getTypes(),
                                 axis, types)))
      return {};
    return ctx_.finish(
        ConcatOp::create(ctx_.builder(), ctx_.loc(), types[0], values, axis));
  }
  /// a * b^T (+ bias): a [M, K], b [N, K].
  Value linear(Value a, Value b, Value bias = {}) {
    if (!a || !b)
      return {};
    SmallVector<Type> types;
    if (failed(kiln::inferGemm(ctx_.loc(), a.getType(), b.getType(),
                               bias ? bias.getType() : Type(), false, true,
                               types)))
      return {};
    return ctx_.finish(GemmOp::create(ctx_.builder(), ctx_.loc(), types[0], a,
                                      b, bias, APFloat(1.0), APFloat(1.0),
                                      false, true));
  }
  /// A [values.size(), 1] boolean constant (a per-row mask).
  Value mask(ArrayRef<bool> values) {
    auto type = RankedTensorType::get({int64_t(values.size()), 1},
                                      ctx_.builder().getI1Type());
    return ctx_.constant(DenseElementsAttr::get(type, values));
  }
  Value zeros(Type element, ArrayRef<int64_t> shape) {
    auto type = RankedTensorType::get(shape, element);
    return ctx_.constant(
        DenseElementsAttr::get(type, FloatAttr::get(element, 0.0)));
  }

  Value activate(const Activation &f, Value x) {
    if (!x)
      return {};
    if (f.name == "relu")
      return unary<ReluOp>(x);
    if (f.name == "tanh")
      return unary<TanhOp>(x);
    if (f.name == "sigmoid")
      return unary<SigmoidOp>(x);
    if (f.name == "affine")
      return add(mul(c(x, f.alpha), x), c(x, f.beta));
    if (f.name == "leakyrelu")
      return select(cmp(ComparePredicate::lt, x, c(x, 0)),
                    mul(c(x, f.alpha), x), x);
    if (f.name == "thresholdedrelu")
      return select(cmp(ComparePredicate::gt, x, c(x, f.alpha)), x, c(x, 0));
    if (f.name == "scaledtanh")
      return mul(c(x, f.alpha), unary<TanhOp>(mul(c(x, f.beta), x)));
    if (f.name == "hardsigmoid")
      return max(c(x, 0),
                 min(c(x, 1), add(mul(c(x, f.alpha), x), c(x, f.beta))));
    if (f.name == "elu")
      return select(cmp(ComparePredicate::gt, x, c(x, 0)), x,
                    mul(c(x, f.alpha), sub(unary<ExpOp>(x), c(x, 1))));
    if (f.name == "softsign")
      return div(x, add(c(x, 1), unary<AbsOp>(x)));
    // softplus, as max(x, 0) + log(1 + exp(-|x|)) so that it cannot overflow.
    return add(max(x, c(x, 0)),
               unary<LogOp>(
                   add(c(x, 1), unary<ExpOp>(unary<NegOp>(unary<AbsOp>(x))))));
  }
  /// `x` clipped to [-clip, clip] when a clip is set.
  Value clipped(Value x, std::optional<double> clip) {
    if (!x || !clip)
      return x;
    return min(max(x, c(x, -*clip)), c(x, *clip));
  }
};

/// Parameters that alpha/beta feed, by activation (consumed in order, as
/// ONNX Runtime does: only functions that take one consume one).
bool takesAlpha(llvm::StringRef name) {
  return llvm::is_contained({"affine", "leakyrelu", "thresholdedrelu",
                             "scaledtanh", "hardsigmoid", "elu"},
                            name);
}
bool takesBeta(llvm::StringRef name) {
  return llvm::is_contained({"affine", "scaledtanh", "hardsigmoid"}, name);
}
/// ONNX's defaults where the attribute lists none.
double defaultAlpha(llvm::StringRef name) {
  return llvm::StringSwitch<double>(name)
      .Case("leakyrelu", 0.01)
      .Case("hardsigmoid", 0.2)
      .Default(1.0);
}
double defaultBeta(llvm::StringRef name) {
  return name == "hardsigmoid" ? 0.5 : name == "affine" ? 0.0 : 1.0;
}

/// A string-list attribute, or `fallback` when absent.
FailureOr<SmallVector<std::string>> stringsAttr(ImportContext &ctx,
                                                llvm::StringRef name) {
  SmallVector<std::string> values;
  const pb::AttributeProto *attr = ctx.attribute(name);
  if (!attr)
    return values;
  if (attr->type() != pb::AttributeProto::STRINGS)
    return ctx.error() << "attribute '" << name
                       << "' must be a list of strings";
  for (const std::string &value : attr->strings())
    values.push_back(value);
  return values;
}

/// The activations of every direction: `perDirection` functions each
/// (f for RNN, f g for GRU, f g h for LSTM), the defaults when absent.
FailureOr<SmallVector<Activation>> activationsOf(ImportContext &ctx, Cell cell,
                                                 int64_t directions) {
  size_t perDirection = cell == Cell::kRnn ? 1 : cell == Cell::kGru ? 2 : 3;
  auto names = stringsAttr(ctx, "activations");
  auto alphas = ctx.floatsAttr("activation_alpha");
  auto betas = ctx.floatsAttr("activation_beta");
  if (failed(names) || failed(alphas) || failed(betas))
    return failure();
  if (names->empty()) {
    SmallVector<std::string> defaults =
        cell == Cell::kRnn ? SmallVector<std::string>{"Tanh"}
        : cell == Cell::kGru
            ? SmallVector<std::string>{"Sigmoid", "Tanh"}
            : SmallVector<std::string>{"Sigmoid", "Tanh", "Tanh"};
    for (int64_t d = 0; d < directions; ++d)
      names->append(defaults.begin(), defaults.end());
  }
  // One direction's list serves both (as ONNX Runtime reads it).
  if (names->size() == perDirection && directions == 2)
    names->append(SmallVector<std::string>(*names));
  if (names->size() != perDirection * size_t(directions))
    return ctx.error() << "'activations' lists " << names->size()
                       << " functions; this node needs " << perDirection
                       << " per direction (" << perDirection * directions
                       << ")";
  SmallVector<Activation> activations;
  size_t nextAlpha = 0, nextBeta = 0;
  for (const std::string &name : *names) {
    Activation f{llvm::StringRef(name).lower(), 0, 0};
    if (!llvm::is_contained({"relu", "tanh", "sigmoid", "affine", "leakyrelu",
                             "thresholdedrelu", "scaledtanh", "hardsigmoid",
                             "elu", "softsign", "softplus"},
                            f.name)) {
      ctx.markUnsupported();
      return ctx.error() << "unknown activation function '" << name << "'";
    }
    f.alpha = defaultAlpha(f.name);
    f.beta = defaultBeta(f.name);
    if (takesAlpha(f.name) && nextAlpha < alphas->size())
      f.alpha = (*alphas)[nextAlpha++];
    if (takesBeta(f.name) && nextBeta < betas->size())
      f.beta = (*betas)[nextBeta++];
    activations.push_back(f);
  }
  return activations;
}

/// What one direction computes: every step's output and the last states.
struct DirectionResult {
  SmallVector<Value> outputs; // In time order, each [batch, hidden].
  Value hidden, cell;
};

/// The node's operands, checked, in the layout-0 orientation.
struct RecurrentNode {
  Cell cell;
  Value x;                  // [seq, batch, input]
  Value w, r, b, p;         // As ONNX gives them (b, p optional).
  Value initialH, initialC; // [dirs, batch, hidden] (optional)
  int64_t seq = 0, batch = 0, input = 0, hidden = 0, directions = 1;
  bool reverseOnly = false;
  std::optional<double> clip;
  bool inputForget = false, linearBeforeReset = false;
  SmallVector<Activation> activations;
  /// Per batch entry, when some are shorter than the sequence.
  std::optional<SmallVector<int64_t>> lengths;
};

/// Runs direction `d` over the sequence. The reverse direction of a
/// batch entry shorter than the sequence starts at its own last step: the
/// masked steps after it leave the initial state as it is.
DirectionResult runDirection(Recurrence &e, const RecurrentNode &node,
                             int64_t d) {
  int64_t gates = gateCount(node.cell), h = node.hidden, bsz = node.batch;
  Type element = elementTypeOf(node.x);
  Value w = e.entry(node.w, d); // [G*H, input]
  Value r = e.entry(node.r, d); // [G*H, hidden]
  // Biases: Wb + Rb folded into the hoisted projection, except GRU's
  // recurrent h-gate bias under linear_before_reset (it is inside r * (.)).
  Value inputBias, recurrentHBias;
  if (node.b) {
    Value both = e.entry(node.b, d); // [2*G*H]
    Value wb = e.slice(both, {0}, {gates * h});
    Value rb = e.slice(both, {gates * h}, {2 * gates * h});
    if (node.cell == Cell::kGru && node.linearBeforeReset) {
      Value rbZR = e.slice(rb, {0}, {2 * h});
      recurrentHBias = e.slice(rb, {2 * h}, {3 * h});
      inputBias = e.add(wb, e.concat({rbZR, e.zeros(element, {h})}, 0));
    } else {
      inputBias = e.add(wb, rb);
    }
  }
  // The input projection of all steps at once: [seq * batch, G*H].
  Value projected =
      e.linear(e.reshape(node.x, {node.seq * bsz, node.input}), w, inputBias);
  projected = e.reshape(projected, {node.seq, bsz, gates * h});
  Value peepI, peepO, peepF;
  if (node.p) {
    Value p = e.entry(node.p, d); // [3*H]: i o f
    peepI = e.slice(p, {0}, {h});
    peepO = e.slice(p, {h}, {2 * h});
    peepF = e.slice(p, {2 * h}, {3 * h});
  }
  size_t perDirection = node.cell == Cell::kRnn   ? 1
                        : node.cell == Cell::kGru ? 2
                                                  : 3;
  auto fn = [&](size_t i) { return node.activations[d * perDirection + i]; };
  auto gate = [&](Value all, int64_t g) {
    return e.columns(all, g * h, (g + 1) * h);
  };

  DirectionResult result;
  result.hidden =
      node.initialH ? e.entry(node.initialH, d) : e.zeros(element, {bsz, h});
  if (node.cell == Cell::kLstm)
    result.cell =
        node.initialC ? e.entry(node.initialC, d) : e.zeros(element, {bsz, h});
  bool reverse = node.reverseOnly || d == 1;
  result.outputs.assign(node.seq, Value());
  for (int64_t step = 0; step < node.seq; ++step) {
    int64_t t = reverse ? node.seq - 1 - step : step;
    Value xp = e.entry(projected, t); // [batch, G*H]
    Value hPrev = result.hidden, cPrev = result.cell;
    Value hNext, cNext;
    if (node.cell == Cell::kRnn) {
      hNext = e.activate(fn(0),
                         e.clipped(e.add(xp, e.linear(hPrev, r)), node.clip));
    } else if (node.cell == Cell::kGru) {
      // With linear_before_reset one GEMM gives all three gates' recurrent
      // terms; without, the h gate's multiplies r * H and needs its own.
      Value recurrent, recurrentH;
      if (node.linearBeforeReset) {
        Value all = e.linear(hPrev, r);
        recurrent = e.columns(all, 0, 2 * h);
        recurrentH = gate(all, 2);
        if (recurrentHBias)
          recurrentH = e.add(recurrentH, recurrentHBias);
      } else {
        recurrent = e.linear(hPrev, e.slice(r, {0, 0}, {2 * h, h}));
      }
      Value zr = e.add(e.columns(xp, 0, 2 * h), recurrent);
      Value z = e.activate(fn(0), e.clipped(gate(zr, 0), node.clip));
      Value rGate = e.activate(fn(0), e.clipped(gate(zr, 1), node.clip));
      Value candidate =
          node.linearBeforeReset
              ? e.add(gate(xp, 2), e.mul(rGate, recurrentH))
              : e.add(gate(xp, 2),
                      e.linear(e.mul(rGate, hPrev),
                               e.slice(r, {2 * h, 0}, {3 * h, h})));
      Value hTilde = e.activate(fn(1), e.clipped(candidate, node.clip));
      // (1 - z) * h~ + z * h = h~ + z * (h - h~)
      hNext = e.add(hTilde, e.mul(z, e.sub(hPrev, hTilde)));
    } else {
      Value all = e.add(xp, e.linear(hPrev, r)); // i o f c
      Value i = gate(all, 0), o = gate(all, 1), f = gate(all, 2),
            cIn = gate(all, 3);
      if (peepI) {
        i = e.add(i, e.mul(peepI, cPrev));
        f = e.add(f, e.mul(peepF, cPrev));
      }
      i = e.activate(fn(0), e.clipped(i, node.clip));
      f = node.inputForget ? e.sub(e.c(i, 1), i)
                           : e.activate(fn(0), e.clipped(f, node.clip));
      Value g = e.activate(fn(1), e.clipped(cIn, node.clip));
      cNext = e.add(e.mul(f, cPrev), e.mul(i, g));
      if (peepO)
        o = e.add(o, e.mul(peepO, cNext));
      o = e.activate(fn(0), e.clipped(o, node.clip));
      hNext = e.mul(o, e.activate(fn(2), cNext));
    }
    Value output = hNext;
    if (node.lengths) {
      // Entries whose sequence has ended keep their state and output 0.
      SmallVector<bool> live;
      for (int64_t length : *node.lengths)
        live.push_back(t < length);
      Value alive = e.mask(live);
      hNext = e.select(alive, hNext, hPrev);
      if (cNext)
        cNext = e.select(alive, cNext, cPrev);
      output = e.select(alive, output, e.c(output, 0));
    }
    result.hidden = hNext;
    result.cell = cNext;
    result.outputs[t] = output;
  }
  return result;
}

/// The node's operands and attributes, checked against one another.
FailureOr<RecurrentNode> readNode(ImportContext &ctx, Cell cell) {
  RecurrentNode node;
  node.cell = cell;
  FailureOr<Value> x = ctx.requiredInput(0, "X");
  FailureOr<Value> w = ctx.requiredInput(1, "W");
  FailureOr<Value> r = ctx.requiredInput(2, "R");
  FailureOr<int64_t> hiddenSize = ctx.intAttr("hidden_size", -1);
  FailureOr<std::string> direction = ctx.stringAttr("direction", "forward");
  FailureOr<int64_t> layout = ctx.intAttr("layout", 0);
  FailureOr<int64_t> inputForget = ctx.intAttr("input_forget", 0);
  FailureOr<int64_t> linearBeforeReset = ctx.intAttr("linear_before_reset", 0);
  if (failed(x) || failed(w) || failed(r) || failed(hiddenSize) ||
      failed(direction) || failed(layout) || failed(inputForget) ||
      failed(linearBeforeReset))
    return failure();
  if (ctx.attribute("clip")) {
    FailureOr<float> clip = ctx.floatAttr("clip", 0);
    if (failed(clip))
      return failure();
    if (!(*clip > 0))
      return ctx.error() << "'clip' must be positive, got " << *clip;
    node.clip = *clip;
  }
  if (*direction != "forward" && *direction != "reverse" &&
      *direction != "bidirectional")
    return ctx.error() << "unknown direction '" << *direction << "'";
  if (*layout != 0 && *layout != 1)
    return ctx.error() << "'layout' must be 0 or 1, got " << *layout;
  node.directions = *direction == "bidirectional" ? 2 : 1;
  node.reverseOnly = *direction == "reverse";
  node.inputForget = *inputForget != 0;
  node.linearBeforeReset = *linearBeforeReset != 0;
  if (!isa<FloatType>(elementTypeOf(*x)))
    return ctx.error() << "X must hold floating-point values";
  if (shapeOf(*x).size() != 3)
    return ctx.error() << "X must have rank 3, got " << shapeOf(*x).size();
  Recurrence e(ctx);
  node.x = *layout ? e.transpose(*x, {1, 0, 2}) : *x;
  node.seq = shapeOf(node.x)[0];
  node.batch = shapeOf(node.x)[1];
  node.input = shapeOf(node.x)[2];
  int64_t gates = gateCount(cell);
  // hidden_size may be left out: R's shape gives it.
  if (ctx.attribute("hidden_size") && *hiddenSize <= 0)
    return ctx.error() << "'hidden_size' must be positive, got " << *hiddenSize;
  node.hidden = ctx.attribute("hidden_size") ? *hiddenSize
                : shapeOf(*r).size() == 3    ? shapeOf(*r)[2]
                                             : -1;
  int64_t h = node.hidden, dirs = node.directions;
  auto expect = [&](Value value, const char *what,
                    ArrayRef<int64_t> shape) -> LogicalResult {
    if (shapeOf(value) == shape && elementTypeOf(value) == elementTypeOf(*x))
      return success();
    std::string expected;
    for (int64_t dim : shape)
      expected += (expected.empty() ? "" : "x") + std::to_string(dim);
    return ctx.error() << what << " must be " << expected << " of X's "
                       << "element type, got " << value.getType();
  };
  if (h <= 0)
    return ctx.error() << "R must be [directions, gates * hidden, hidden], got "
                       << r->getType();
  if (failed(expect(*w, "W", {dirs, gates * h, node.input})) ||
      failed(expect(*r, "R", {dirs, gates * h, h})))
    return failure();
  node.w = *w;
  node.r = *r;
  if ((node.b = ctx.input(3)) &&
      failed(expect(node.b, "B", {dirs, 2 * gates * h})))
    return failure();
  auto state = [&](int index, const char *what) -> FailureOr<Value> {
    Value value = ctx.input(index);
    if (!value)
      return Value();
    SmallVector<int64_t> shape =
        *layout ? SmallVector<int64_t>{node.batch, dirs, h}
                : SmallVector<int64_t>{dirs, node.batch, h};
    if (failed(expect(value, what, shape)))
      return failure();
    return *layout ? e.transpose(value, {1, 0, 2}) : value;
  };
  FailureOr<Value> initialH = state(5, "initial_h");
  if (failed(initialH))
    return failure();
  node.initialH = *initialH;
  if (cell == Cell::kLstm) {
    FailureOr<Value> initialC = state(6, "initial_c");
    if (failed(initialC))
      return failure();
    node.initialC = *initialC;
    if ((node.p = ctx.input(7)) && failed(expect(node.p, "P", {dirs, 3 * h})))
      return failure();
  }
  if (ctx.input(4)) {
    FailureOr<SmallVector<int64_t>> lengths =
        ctx.constantInts(4, "sequence_lens");
    if (failed(lengths))
      return failure();
    if (int64_t(lengths->size()) != node.batch)
      return ctx.error() << "sequence_lens has " << lengths->size()
                         << " entries for a batch of " << node.batch;
    for (int64_t length : *lengths)
      if (length < 0 || length > node.seq)
        return ctx.error() << "sequence_lens entry " << length
                           << " is outside [0, " << node.seq << "]";
    if (llvm::any_of(*lengths, [&](int64_t l) { return l != node.seq; }))
      node.lengths = *lengths;
  }
  FailureOr<SmallVector<Activation>> activations =
      activationsOf(ctx, cell, dirs);
  if (failed(activations))
    return failure();
  node.activations = std::move(*activations);
  return node;
}

/// Y [seq, dirs, batch, hidden], Y_h and Y_c [dirs, batch, hidden] (batch
/// first with layout 1).
LogicalResult convertRecurrent(ImportContext &ctx, Cell cell) {
  FailureOr<RecurrentNode> node = readNode(ctx, cell);
  if (failed(node))
    return failure();
  FailureOr<int64_t> layout = ctx.intAttr("layout", 0);
  if (failed(layout))
    return failure();
  Recurrence e(ctx);
  int64_t bsz = node->batch, h = node->hidden;
  SmallVector<Value> ys, hs, cs;
  for (int64_t d = 0; d < node->directions; ++d) {
    DirectionResult result = runDirection(e, *node, d);
    SmallVector<Value> steps;
    for (Value output : result.outputs)
      steps.push_back(e.reshape(output, {1, 1, bsz, h}));
    ys.push_back(e.concat(steps, 0));
    hs.push_back(e.reshape(result.hidden, {1, bsz, h}));
    if (result.cell)
      cs.push_back(e.reshape(result.cell, {1, bsz, h}));
  }
  Value y = e.concat(ys, 1), yh = e.concat(hs, 0);
  Value yc = cs.empty() ? Value() : e.concat(cs, 0);
  if (*layout) {
    y = e.transpose(y, {2, 0, 1, 3});
    yh = e.transpose(yh, {1, 0, 2});
    yc = e.transpose(yc, {1, 0, 2});
  }
  if (!y || !yh || (cell == Cell::kLstm && !yc) || ctx.hadError())
    return failure();
  ctx.setOutput(0, y);
  ctx.setOutput(1, yh);
  if (yc)
    ctx.setOutput(2, yc);
  return success();
}

LogicalResult convertRnn(ImportContext &ctx) {
  return convertRecurrent(ctx, Cell::kRnn);
}
LogicalResult convertGru(ImportContext &ctx) {
  return convertRecurrent(ctx, Cell::kGru);
}
LogicalResult convertLstm(ImportContext &ctx) {
  return convertRecurrent(ctx, Cell::kLstm);
}

} // namespace

void registerRecurrentConverters(ConverterRegistry &r) {
  r.add("RNN", 7, convertRnn);
  r.add("GRU", 7, convertGru);
  r.add("LSTM", 7, convertLstm);
}

} // namespace kiln::onnx
