//===- Graph.cpp - Build a model in C++ -----------------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The graph is built directly as kiln-dialect IR in a small MLIRContext of
// its own. Each op's result type comes from the dialect's shared shape rules
// (TypeInference.h) and the new op is verified at once, so a user error is
// reported at the call that made it, never as a crash later. Outputs are
// only attached (a func.return) in the copy that gets serialised.
//
//===----------------------------------------------------------------------===//

#include "kiln/Graph.h"

#include "compiler/MemoryPlanning/EntrySignature.h"
#include "compiler/Driver/Driver.h"
#include "dialects/Graph/IR/GraphDialect.h"
#include "dialects/Graph/IR/GraphOps.h"
#include "dialects/Graph/IR/TypeInference.h"

#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace kiln {

/// The graph's side of GraphValue's private fields.
struct GraphValueAccess {
  static int id(const GraphValue &value) { return value.id_; }
  static const void *graph(const GraphValue &value) { return value.graph_; }
  static GraphValue make(int id, const void *graph, DType dtype,
                         std::vector<int64_t> shape) {
    return GraphValue(id, graph, dtype, std::move(shape));
  }
};

namespace {
Type elementTypeOf(MLIRContext *context, DType dtype) {
  Builder b(context);
  switch (dtype) {
  case DType::kF32:
    return b.getF32Type();
  case DType::kF16:
    return b.getF16Type();
  case DType::kBF16:
    return b.getBF16Type();
  case DType::kF64:
    return b.getF64Type();
  case DType::kI1:
    return b.getI1Type();
  case DType::kI8:
    return b.getI8Type();
  case DType::kI16:
    return b.getI16Type();
  case DType::kI32:
    return b.getI32Type();
  case DType::kI64:
    return b.getI64Type();
  case DType::kU8:
    return b.getIntegerType(8, /*isSigned=*/false);
  case DType::kU16:
    return b.getIntegerType(16, /*isSigned=*/false);
  case DType::kU32:
    return b.getIntegerType(32, /*isSigned=*/false);
  case DType::kU64:
    return b.getIntegerType(64, /*isSigned=*/false);
  }
  return Type();
}
} // namespace

class Graph::Impl {
public:
  explicit Impl(std::string name)
      : name_(std::move(name)), context_(createRegistry()),
        diagnostics_(context_, diagnosticStream_), builder_(&context_) {
    context_.loadDialect<KilnDialect, func::FuncDialect>();
    fileLoc_ = FileLineColLoc::get(&context_, name_, 0, 0);
    module_ = ModuleOp::create(fileLoc_);
    builder_.setInsertionPointToEnd(module_->getBody());
    function_ = func::FuncOp::create(builder_, fileLoc_, "main",
                                     builder_.getFunctionType({}, {}));
    builder_.setInsertionPointToEnd(function_.addEntryBlock());
  }

  const std::string &name() const { return name_; }
  const Status &status() const { return status_; }
  bool failed() const { return !status_.isOk(); }

  /// The location of the next op: "<graph>: node '<what>#<n>'".
  Location nextLoc(StringRef what) {
    std::string node = (what + "#" + Twine(nodeCount_++)).str();
    return NameLoc::get(StringAttr::get(&context_, node), fileLoc_);
  }

  /// Records `message` as the graph's error unless one is already set.
  GraphValue fail(const std::string &message) {
    if (!failed())
      status_ = rt::invalidArgument(message);
    return GraphValue();
  }
  /// Fails with what the diagnostics handler printed (or `fallback`).
  GraphValue failFromDiagnostics(Location loc, const std::string &fallback) {
    std::string printed = takeDiagnostics();
    if (printed.empty())
      emitError(loc) << fallback;
    printed += takeDiagnostics();
    while (!printed.empty() && printed.back() == '\n')
      printed.pop_back();
    return fail(printed);
  }

  /// The MLIR value behind `value`, or null after reporting why.
  Value lookup(const GraphValue &value, StringRef what) {
    if (failed())
      return Value();
    int id = GraphValueAccess::id(value);
    if (!value.valid() || GraphValueAccess::graph(value) != this ||
        size_t(id) >= values_.size()) {
      fail(name_ + ": error: " + what.str() +
           ": invalid value (from another graph, or from a failed call)");
      return Value();
    }
    return values_[id];
  }

  GraphValue record(Value value) {
    auto type = mlir::cast<RankedTensorType>(value.getType());
    std::optional<DType> dtype = compiler::toDType(type.getElementType());
    values_.push_back(value);
    return GraphValueAccess::make(int(values_.size() - 1), this,
                                  dtype.value_or(DType::kF32),
                                  type.getShape().vec());
  }

  RankedTensorType tensorType(ArrayRef<int64_t> shape, DType dtype) {
    return RankedTensorType::get(shape, elementTypeOf(&context_, dtype));
  }

  /// Creates an OpT with `resultType` (null when inference failed, which
  /// already emitted a diagnostic), verifies it and records its result.
  template <typename OpT>
  GraphValue create(Location loc, StringRef what, Type resultType,
                    ValueRange operands,
                    ArrayRef<NamedAttribute> attributes = {}) {
    if (!resultType)
      return failFromDiagnostics(loc, "cannot infer the result type of " +
                                          what.str());
    auto op =
        OpT::create(builder_, loc, TypeRange{resultType}, operands, attributes);
    if (mlir::failed(mlir::verify(op))) {
      op->erase();
      return failFromDiagnostics(loc, "invalid " + what.str());
    }
    return record(op->getResult(0));
  }

  GraphValue input(const std::string &name, DType dtype,
                   std::vector<int64_t> shape) {
    if (failed())
      return GraphValue();
    if (!elementTypeOf(&context_, dtype))
      return fail(name_ + ": error: input '" + name + "': element type " +
                  rt::dtypeName(dtype) + " is not supported");
    for (int64_t dim : shape)
      if (dim < 0)
        return fail(name_ + ": error: input '" + name +
                    "': dimensions must be static and non-negative");
    Block &body = function_.getBody().front();
    BlockArgument argument =
        body.addArgument(tensorType(shape, dtype), fileLoc_);
    inputNames_.push_back(name);
    return record(argument);
  }

  GraphValue constant(DType dtype, std::vector<int64_t> shape,
                      const void *data) {
    if (failed())
      return GraphValue();
    Location loc = nextLoc("constant");
    Type element = elementTypeOf(&context_, dtype);
    if (!element)
      return fail(name_ + ": error: constant: element type " +
                  std::string(rt::dtypeName(dtype)) + " is not supported");
    int64_t count = 1;
    for (int64_t dim : shape) {
      if (dim < 0)
        return fail(name_ + ": error: constant: negative dimension");
      count *= dim;
    }
    if (count > 0 && !data)
      return fail(name_ + ": error: constant: null data");
    auto type = RankedTensorType::get(shape, element);
    DenseElementsAttr value;
    if (dtype == DType::kI1) {
      // DenseElementsAttr packs booleans into bits; expand from bytes.
      const auto *bytes = static_cast<const uint8_t *>(data);
      SmallVector<bool> bits(bytes, bytes + count);
      value = DenseElementsAttr::get(type, ArrayRef<bool>(bits));
    } else {
      ArrayRef<char> raw(static_cast<const char *>(data),
                         size_t(count) * rt::dtypeSize(dtype));
      value = DenseElementsAttr::getFromRawBuffer(type, raw);
    }
    return record(ConstantOp::create(builder_, loc, value).getResult());
  }

  void output(GraphValue value, const std::string &name) {
    Value v = lookup(value, "output '" + name + "'");
    if (!v)
      return;
    outputs_.push_back(v);
    outputNames_.push_back(name);
  }

  /// A copy of the module with the entry's signature and return in place.
  FailureOr<OwningOpRef<ModuleOp>> finishedModule() {
    if (failed())
      return failure();
    if (outputs_.empty()) {
      fail(name_ + ": error: the graph has no outputs (call output())");
      return failure();
    }
    IRMapping mapping;
    OwningOpRef<ModuleOp> copy =
        mlir::cast<ModuleOp>(module_->getOperation()->clone(mapping));
    auto function =
        mlir::cast<func::FuncOp>(mapping.lookup(function_.getOperation()));
    Block &body = function.getBody().front();
    OpBuilder b = OpBuilder::atBlockEnd(&body);
    SmallVector<Value> results;
    SmallVector<Type> resultTypes;
    for (Value output : outputs_) {
      results.push_back(mapping.lookup(output));
      resultTypes.push_back(output.getType());
    }
    func::ReturnOp::create(b, fileLoc_, results);
    function.setFunctionType(
        b.getFunctionType(body.getArgumentTypes(), resultTypes));
    // Names of inputs and outputs, as the ONNX importer records them.
    for (auto [i, name] : llvm::enumerate(inputNames_))
      function.setArgAttr(i, compiler::kNameAttr, b.getStringAttr(name));
    for (auto [i, name] : llvm::enumerate(outputNames_))
      function.setResultAttr(i, compiler::kNameAttr, b.getStringAttr(name));
    if (mlir::failed(mlir::verify(*copy))) {
      failFromDiagnostics(fileLoc_, "the graph does not verify");
      return failure();
    }
    return FailureOr<OwningOpRef<ModuleOp>>(std::move(copy));
  }

  MLIRContext &context() { return context_; }

private:
  static DialectRegistry createRegistry() {
    DialectRegistry registry;
    registry.insert<KilnDialect, func::FuncDialect>();
    return registry;
  }
  std::string takeDiagnostics() {
    diagnosticStream_.flush();
    std::string text = std::move(diagnosticText_);
    diagnosticText_.clear();
    return text;
  }

  std::string name_;
  MLIRContext context_;
  std::string diagnosticText_;
  llvm::raw_string_ostream diagnosticStream_{diagnosticText_};
  compiler::ModelDiagnosticPrinter diagnostics_;
  OpBuilder builder_;
  Location fileLoc_ = UnknownLoc::get(&context_);
  OwningOpRef<ModuleOp> module_;
  func::FuncOp function_;
  std::vector<Value> values_;
  std::vector<std::string> inputNames_;
  std::vector<Value> outputs_;
  std::vector<std::string> outputNames_;
  int nodeCount_ = 0;
  Status status_;

  friend class Graph;
};

//===----------------------------------------------------------------------===//
// Graph
//===----------------------------------------------------------------------===//

Graph::Graph(std::string name)
    : impl_(std::make_unique<Impl>(std::move(name))) {}
Graph::~Graph() = default;
Graph::Graph(Graph &&) noexcept = default;
Graph &Graph::operator=(Graph &&) noexcept = default;

const Status &Graph::status() const { return impl_->status(); }
const std::string &Graph::name() const { return impl_->name(); }

GraphValue Graph::input(const std::string &name, DType dtype,
                        std::vector<int64_t> shape) {
  return impl_->input(name, dtype, std::move(shape));
}

GraphValue Graph::constant(const Tensor &value) {
  if (value.data.size() !=
      size_t(value.numElements()) * rt::dtypeSize(value.dtype))
    return impl_->fail(impl_->name() +
                       ": error: constant: the tensor's byte size does not "
                       "match its shape");
  return impl_->constant(value.dtype, value.shape, value.data.data());
}

GraphValue Graph::constant(DType dtype, std::vector<int64_t> shape,
                           const void *data) {
  return impl_->constant(dtype, std::move(shape), data);
}

GraphValue Graph::scalar(float value) {
  return impl_->constant(DType::kF32, {}, &value);
}

void Graph::output(GraphValue value, const std::string &name) {
  impl_->output(std::move(value), name);
}

namespace {
/// Result type from one of TypeInference.h's rules, or null on failure.
template <typename Infer> Type inferOne(Infer &&infer) {
  SmallVector<Type, 1> types;
  if (failed(infer(types)) || types.size() != 1)
    return Type();
  return types.front();
}

template <typename OpT>
GraphValue binary(Graph::Impl &impl, StringRef what, const GraphValue &lhs,
                  const GraphValue &rhs) {
  Value a = impl.lookup(lhs, what), b = a ? impl.lookup(rhs, what) : Value();
  if (!b)
    return GraphValue();
  Location loc = impl.nextLoc(what);
  Type type = inferOne([&](auto &types) {
    return inferBroadcastElementwise(loc, ValueRange{a, b}, Type(), types);
  });
  return impl.create<OpT>(loc, what, type, {a, b});
}

template <typename OpT>
GraphValue unary(Graph::Impl &impl, StringRef what, const GraphValue &x,
                 ArrayRef<NamedAttribute> attributes = {}) {
  Value input = impl.lookup(x, what);
  if (!input)
    return GraphValue();
  return impl.create<OpT>(impl.nextLoc(what), what, input.getType(), {input},
                          attributes);
}

NamedAttribute named(MLIRContext &context, StringRef name, Attribute value) {
  return NamedAttribute(StringAttr::get(&context, name), value);
}
} // namespace

#define KILN_BINARY(method, Op)                                                \
  GraphValue Graph::method(GraphValue lhs, GraphValue rhs) {                   \
    return binary<Op>(*impl_, #method, lhs, rhs);                              \
  }
KILN_BINARY(add, AddOp)
KILN_BINARY(sub, SubOp)
KILN_BINARY(mul, MulOp)
KILN_BINARY(div, DivOp)
KILN_BINARY(pow, PowOp)
KILN_BINARY(minimum, MinOp)
KILN_BINARY(maximum, MaxOp)
#undef KILN_BINARY

#define KILN_UNARY(method, Op)                                                 \
  GraphValue Graph::method(GraphValue x) {                                     \
    return unary<Op>(*impl_, #method, x);                                      \
  }
KILN_UNARY(neg, NegOp)
KILN_UNARY(abs, AbsOp)
KILN_UNARY(exp, ExpOp)
KILN_UNARY(log, LogOp)
KILN_UNARY(sqrt, SqrtOp)
KILN_UNARY(tanh, TanhOp)
KILN_UNARY(sigmoid, SigmoidOp)
KILN_UNARY(relu, ReluOp)
KILN_UNARY(erf, ErfOp)
#undef KILN_UNARY

GraphValue Graph::gelu(GraphValue x, bool tanhApproximation) {
  MLIRContext &context = impl_->context();
  auto mode =
      tanhApproximation ? GeluApproximation::tanh : GeluApproximation::none;
  return unary<GeluOp>(*impl_, "gelu", x,
                       {named(context, "approximate",
                              GeluApproximationAttr::get(&context, mode))});
}

GraphValue Graph::cast(GraphValue x, DType to) {
  Value input = impl_->lookup(x, "cast");
  if (!input)
    return GraphValue();
  Location loc = impl_->nextLoc("cast");
  if (!elementTypeOf(&impl_->context(), to))
    return impl_->fail(impl_->name() + ": error: cast: element type " +
                       rt::dtypeName(to) + " is not supported");
  auto type = mlir::cast<RankedTensorType>(input.getType());
  return impl_->create<CastOp>(loc, "cast",
                               impl_->tensorType(type.getShape(), to), {input});
}

GraphValue Graph::matmul(GraphValue lhs, GraphValue rhs) {
  Value a = impl_->lookup(lhs, "matmul");
  Value b = a ? impl_->lookup(rhs, "matmul") : Value();
  if (!b)
    return GraphValue();
  Location loc = impl_->nextLoc("matmul");
  Type type = inferOne([&](auto &types) {
    return inferMatmul(loc, a.getType(), b.getType(), types);
  });
  return impl_->create<MatmulOp>(loc, "matmul", type, {a, b});
}

GraphValue Graph::linear(GraphValue x, GraphValue weight, GraphValue bias) {
  Value a = impl_->lookup(x, "linear");
  Value b = a ? impl_->lookup(weight, "linear") : Value();
  if (!b)
    return GraphValue();
  Value c;
  if (bias.valid() && !(c = impl_->lookup(bias, "linear")))
    return GraphValue();
  Location loc = impl_->nextLoc("linear");
  Type type = inferOne([&](auto &types) {
    return inferGemm(loc, a.getType(), b.getType(), c ? c.getType() : Type(),
                     /*transA=*/false, /*transB=*/true, types);
  });
  SmallVector<Value> operands{a, b};
  if (c)
    operands.push_back(c);
  MLIRContext &context = impl_->context();
  return impl_->create<GemmOp>(
      loc, "linear", type, operands,
      {named(context, "trans_b", UnitAttr::get(&context))});
}

GraphValue Graph::conv2d(GraphValue input, GraphValue weight, GraphValue bias,
                         std::vector<int64_t> strides,
                         std::vector<int64_t> pads,
                         std::vector<int64_t> dilations, int64_t groups) {
  Value x = impl_->lookup(input, "conv2d");
  Value w = x ? impl_->lookup(weight, "conv2d") : Value();
  if (!w)
    return GraphValue();
  Value b;
  if (bias.valid() && !(b = impl_->lookup(bias, "conv2d")))
    return GraphValue();
  Location loc = impl_->nextLoc("conv2d");
  Type type = inferOne([&](auto &types) {
    return inferConv2d(loc, x.getType(), w.getType(), b ? b.getType() : Type(),
                       strides, pads, dilations, groups, types);
  });
  SmallVector<Value> operands{x, w};
  if (b)
    operands.push_back(b);
  MLIRContext &context = impl_->context();
  Builder builder(&context);
  return impl_->create<Conv2dOp>(
      loc, "conv2d", type, operands,
      {named(context, "strides", builder.getDenseI64ArrayAttr(strides)),
       named(context, "pads", builder.getDenseI64ArrayAttr(pads)),
       named(context, "dilations", builder.getDenseI64ArrayAttr(dilations)),
       named(context, "groups", builder.getI64IntegerAttr(groups))});
}

namespace {
template <typename OpT>
GraphValue pool(Graph::Impl &impl, StringRef what, const GraphValue &input,
                ArrayRef<int64_t> kernel, ArrayRef<int64_t> strides,
                ArrayRef<int64_t> pads) {
  Value x = impl.lookup(input, what);
  if (!x)
    return GraphValue();
  Location loc = impl.nextLoc(what);
  SmallVector<int64_t> dilations{1, 1};
  Type type = inferOne([&](auto &types) {
    return inferPool2d(loc, x.getType(), kernel, strides, pads, dilations,
                       /*ceilMode=*/false, types);
  });
  MLIRContext &context = impl.context();
  Builder builder(&context);
  return impl.create<OpT>(
      loc, what, type, {x},
      {named(context, "kernel_shape", builder.getDenseI64ArrayAttr(kernel)),
       named(context, "strides", builder.getDenseI64ArrayAttr(strides)),
       named(context, "pads", builder.getDenseI64ArrayAttr(pads))});
}
} // namespace

GraphValue Graph::maxPool2d(GraphValue input, std::vector<int64_t> kernel,
                            std::vector<int64_t> strides,
                            std::vector<int64_t> pads) {
  return pool<MaxPool2dOp>(*impl_, "max_pool2d", input, kernel, strides, pads);
}

GraphValue Graph::avgPool2d(GraphValue input, std::vector<int64_t> kernel,
                            std::vector<int64_t> strides,
                            std::vector<int64_t> pads) {
  return pool<AvgPool2dOp>(*impl_, "avg_pool2d", input, kernel, strides, pads);
}

GraphValue Graph::globalAvgPool(GraphValue input) {
  Value x = impl_->lookup(input, "global_avg_pool");
  if (!x)
    return GraphValue();
  Location loc = impl_->nextLoc("global_avg_pool");
  Type type = inferOne(
      [&](auto &types) { return inferGlobalPool(loc, x.getType(), types); });
  return impl_->create<GlobalAvgPoolOp>(loc, "global_avg_pool", type, {x});
}

namespace {
template <typename OpT>
GraphValue softmaxLike(Graph::Impl &impl, StringRef what,
                       const GraphValue &input, int64_t axis) {
  Value x = impl.lookup(input, what);
  if (!x)
    return GraphValue();
  Location loc = impl.nextLoc(what);
  Type type = inferOne([&](auto &types) {
    return inferSameAsOperandWithAxis(loc, x.getType(), axis, types);
  });
  MLIRContext &context = impl.context();
  return impl.create<OpT>(
      loc, what, type, {x},
      {named(context, "axis", Builder(&context).getI64IntegerAttr(axis))});
}
} // namespace

GraphValue Graph::softmax(GraphValue x, int64_t axis) {
  return softmaxLike<SoftmaxOp>(*impl_, "softmax", x, axis);
}

GraphValue Graph::logSoftmax(GraphValue x, int64_t axis) {
  return softmaxLike<LogSoftmaxOp>(*impl_, "log_softmax", x, axis);
}

GraphValue Graph::layerNorm(GraphValue x, GraphValue scale, GraphValue bias,
                            int64_t axis, double epsilon) {
  Value input = impl_->lookup(x, "layer_norm");
  Value s = input ? impl_->lookup(scale, "layer_norm") : Value();
  if (!s)
    return GraphValue();
  Value b;
  if (bias.valid() && !(b = impl_->lookup(bias, "layer_norm")))
    return GraphValue();
  Location loc = impl_->nextLoc("layer_norm");
  Type type = inferOne([&](auto &types) {
    return inferLayerNorm(loc, input.getType(), s.getType(),
                          b ? b.getType() : Type(), axis, types);
  });
  SmallVector<Value> operands{input, s};
  if (b)
    operands.push_back(b);
  MLIRContext &context = impl_->context();
  Builder builder(&context);
  return impl_->create<LayerNormOp>(
      loc, "layer_norm", type, operands,
      {named(context, "axis", builder.getI64IntegerAttr(axis)),
       named(context, "epsilon", builder.getF64FloatAttr(epsilon))});
}

namespace {
template <typename OpT>
GraphValue reduce(Graph::Impl &impl, StringRef what, const GraphValue &input,
                  ArrayRef<int64_t> axes, bool keepDims) {
  Value x = impl.lookup(input, what);
  if (!x)
    return GraphValue();
  Location loc = impl.nextLoc(what);
  Type type = inferOne([&](auto &types) {
    return inferReduce(loc, x.getType(), axes, keepDims, types);
  });
  MLIRContext &context = impl.context();
  SmallVector<NamedAttribute> attributes{
      named(context, "axes", Builder(&context).getDenseI64ArrayAttr(axes))};
  if (keepDims)
    attributes.push_back(named(context, "keep_dims", UnitAttr::get(&context)));
  return impl.create<OpT>(loc, what, type, {x}, attributes);
}
} // namespace

GraphValue Graph::reduceSum(GraphValue x, std::vector<int64_t> axes,
                            bool keepDims) {
  return reduce<ReduceSumOp>(*impl_, "reduce_sum", x, axes, keepDims);
}

GraphValue Graph::reduceMean(GraphValue x, std::vector<int64_t> axes,
                             bool keepDims) {
  return reduce<ReduceMeanOp>(*impl_, "reduce_mean", x, axes, keepDims);
}

GraphValue Graph::reduceMax(GraphValue x, std::vector<int64_t> axes,
                            bool keepDims) {
  return reduce<ReduceMaxOp>(*impl_, "reduce_max", x, axes, keepDims);
}

GraphValue Graph::reshape(GraphValue x, std::vector<int64_t> shape) {
  Value input = impl_->lookup(x, "reshape");
  if (!input)
    return GraphValue();
  Location loc = impl_->nextLoc("reshape");
  for (int64_t dim : shape)
    if (dim < 0)
      return impl_->fail(impl_->name() + ": error: node '" +
                         "reshape': dimensions must be static and "
                         "non-negative");
  auto type = mlir::cast<RankedTensorType>(input.getType());
  return impl_->create<ReshapeOp>(
      loc, "reshape", RankedTensorType::get(shape, type.getElementType()),
      {input});
}

GraphValue Graph::transpose(GraphValue x, std::vector<int64_t> permutation) {
  Value input = impl_->lookup(x, "transpose");
  if (!input)
    return GraphValue();
  Location loc = impl_->nextLoc("transpose");
  Type type = inferOne([&](auto &types) {
    return inferTranspose(loc, input.getType(), permutation, types);
  });
  MLIRContext &context = impl_->context();
  return impl_->create<TransposeOp>(
      loc, "transpose", type, {input},
      {named(context, "permutation",
             Builder(&context).getDenseI64ArrayAttr(permutation))});
}

GraphValue Graph::concat(const std::vector<GraphValue> &values, int64_t axis) {
  SmallVector<Value> inputs;
  for (const GraphValue &value : values) {
    Value v = impl_->lookup(value, "concat");
    if (!v)
      return GraphValue();
    inputs.push_back(v);
  }
  Location loc = impl_->nextLoc("concat");
  Type type = inferOne([&](auto &types) {
    return inferConcat(loc, ValueRange(inputs).getTypes(), axis, types);
  });
  MLIRContext &context = impl_->context();
  return impl_->create<ConcatOp>(
      loc, "concat", type, inputs,
      {named(context, "axis", Builder(&context).getI64IntegerAttr(axis))});
}

StatusOr<std::string> Graph::toMlirText() const {
  auto module = impl_->finishedModule();
  if (failed(module))
    return impl_->status();
  std::string text;
  llvm::raw_string_ostream os(text);
  (*module)->print(os, OpPrintingFlags().enableDebugInfo());
  return text;
}

StatusOr<std::string> Graph::toBytecode() const {
  auto module = impl_->finishedModule();
  if (failed(module))
    return impl_->status();
  std::string bytes;
  llvm::raw_string_ostream os(bytes);
  if (mlir::failed(writeBytecodeToFile(module->get(), os)))
    return rt::internalError(impl_->name() +
                             ": cannot serialise the graph as bytecode");
  os.flush();
  return bytes;
}

} // namespace kiln
