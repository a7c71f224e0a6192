//===- OnnxImporter.cpp - ONNX models into the kiln dialect ---------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Order of work, chosen so that users see the most useful error first:
//   1. parse the protobuf (size-limited) and check the opset;
//   2. list every unsupported operator at once, before converting anything;
//   3. order the nodes (Kahn's algorithm: cycles and undefined inputs are
//      reported by node name);
//   4. import inputs (specialising symbolic dimensions), initializers, nodes;
//   5. verify the function: any type error is located at its node.
//
//===----------------------------------------------------------------------===//

#include "frontend/onnx/OnnxImporter.h"

#include "dialects/Graph/IR/GraphOps.h"
#include "frontend/onnx/ConverterRegistry.h"
#include "frontend/onnx/TensorImport.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <google/protobuf/io/coded_stream.h>

#include <deque>
#include <map>

using namespace mlir;

namespace kiln::onnx {

namespace {

/// Largest model accepted: protobuf's own limit for one message.
constexpr int kMaxModelBytes = std::numeric_limits<int>::max();

/// The values `node` reads: its inputs, and for Gradient the tensor its
/// `y` attribute names (it differentiates what computes y, so it must come
/// after it).
SmallVector<std::string> valuesReadBy(const pb::NodeProto &node);

/// The values a subgraph reads from its enclosing scopes: what its nodes
/// read that it does not define itself.
void freeValuesOf(const pb::GraphProto &graph,
                  SmallVector<std::string> &values) {
  llvm::StringSet<> defined;
  for (const pb::ValueInfoProto &input : graph.input())
    defined.insert(input.name());
  for (const pb::TensorProto &init : graph.initializer())
    defined.insert(init.name());
  for (const pb::NodeProto &node : graph.node())
    for (const std::string &output : node.output())
      defined.insert(output);
  for (const pb::NodeProto &node : graph.node())
    for (const std::string &value : valuesReadBy(node))
      if (!value.empty() && !defined.contains(value))
        values.push_back(value);
}

/// The values `node` reads: its inputs, for Gradient the tensor its `y`
/// attribute names (it differentiates what computes y, so it must come
/// after it), and for If, Loop and Scan what their bodies read from the
/// enclosing graph.
SmallVector<std::string> valuesReadBy(const pb::NodeProto &node) {
  SmallVector<std::string> values(node.input().begin(), node.input().end());
  for (const pb::AttributeProto &attr : node.attribute()) {
    if (attr.type() == pb::AttributeProto::GRAPH)
      freeValuesOf(attr.g(), values);
    if (node.op_type() == "Gradient" &&
        node.domain() == "ai.onnx.preview.training" && attr.name() == "y" &&
        attr.type() == pb::AttributeProto::STRING)
      values.push_back(attr.s());
  }
  return values;
}

class ModelImporter {
public:
  ModelImporter(MLIRContext &context, const std::string &path,
                const ImportOptions &options)
      : context_(context), path_(path), options_(options),
        fileLoc_(FileLineColLoc::get(&context, path, 0, 0)) {
    llvm::SmallString<256> folder(path);
    llvm::sys::path::remove_filename(folder);
    folder_ = folder.empty() ? "." : std::string(folder);
  }

  /// Reads the model from `bytes` instead of the file at `path`.
  void setBytes(llvm::StringRef bytes) { bytes_ = bytes; }

  OwningOpRef<ModuleOp> run(ImportReport &report);

private:
  LogicalResult parse();
  LogicalResult checkOpset();
  LogicalResult reportUnsupportedOperators();
  /// The converter for `node` at its domain's version, or null.
  Converter converterFor(const pb::NodeProto &node) const {
    bool defaultDomain = node.domain().empty() || node.domain() == "ai.onnx";
    int64_t version =
        defaultDomain ? opset_ : domainVersions_.lookup(node.domain());
    return ConverterRegistry::get().lookup(defaultDomain ? "" : node.domain(),
                                           node.op_type(), version);
  }
  /// The nodes of `graph` in an order where each follows what it reads;
  /// `outer`, for a subgraph, holds the enclosing graph's values.
  FailureOr<SmallVector<int>> orderNodes(const pb::GraphProto &graph,
                                         const ImportContext *outer);
  /// Defines `graph`'s initializers as constants (an unsupported data type
  /// marks `ctx` unsupported).
  LogicalResult defineInitializers(ImportContext &ctx,
                                   const pb::GraphProto &graph);
  /// Imports an If/Loop/Scan body inline (ImportContext::importSubgraph).
  FailureOr<SmallVector<GraphValue>>
  importSubgraph(ImportContext &ctx, const pb::GraphProto &graph,
                 ArrayRef<GraphValue> inputs);
  FailureOr<RankedTensorType> importInputType(const pb::ValueInfoProto &info);
  LogicalResult importGraph(ModuleOp module);

  InFlightDiagnostic error() { return emitError(fileLoc_); }

  MLIRContext &context_;
  std::string path_;
  std::string folder_;
  const ImportOptions &options_;
  Location fileLoc_;
  std::optional<llvm::StringRef> bytes_;
  pb::ModelProto model_;
  int64_t opset_ = 0; // Of the default domain; 0 when it imports none.
  /// Versions of the other domains the model imports.
  llvm::StringMap<int64_t> domainVersions_;
  ImportFailure failure_ = ImportFailure::kInvalidModel;
  /// Filled as the import learns it (see ImportReport).
  std::vector<std::string> graphInputs_;
  std::vector<std::string> compileTimeInputs_;
  std::vector<std::string> inputsWithoutShape_;
  /// Node orders of the bodies imported so far.
  llvm::DenseMap<const pb::GraphProto *, SmallVector<int>> bodyOrders_;
};

LogicalResult ModelImporter::parse() {
  std::unique_ptr<llvm::MemoryBuffer> file;
  if (!bytes_) {
    auto buffer = llvm::MemoryBuffer::getFile(
        path_, /*IsText=*/false, /*RequiresNullTerminator=*/false);
    if (!buffer)
      return error() << "cannot read the model: "
                     << buffer.getError().message();
    file = std::move(*buffer);
  }
  llvm::StringRef bytes = bytes_ ? *bytes_ : file->getBuffer();
  if (bytes.size() > size_t(kMaxModelBytes))
    return error() << "the model is larger than 2 GiB; store its weights as "
                      "external data";
  google::protobuf::io::CodedInputStream stream(
      reinterpret_cast<const uint8_t *>(bytes.data()), int(bytes.size()));
  stream.SetTotalBytesLimit(kMaxModelBytes);
  // Deeply nested messages (graphs in attributes) are refused rather than
  // recursed into without bound.
  stream.SetRecursionLimit(64);
  if (!model_.ParseFromCodedStream(&stream) || !stream.ConsumedEntireMessage())
    return error() << "not a valid ONNX model (protobuf parsing failed: the "
                      "file is truncated, corrupt or not ONNX)";
  if (!model_.has_graph())
    return error() << "the model has no graph";
  return success();
}

LogicalResult ModelImporter::checkOpset() {
  bool found = false, knownDomain = false;
  const ConverterRegistry &registry = ConverterRegistry::get();
  for (const pb::OperatorSetIdProto &opset : model_.opset_import()) {
    if (opset.domain().empty() || opset.domain() == "ai.onnx") {
      opset_ = opset.version();
      found = true;
    } else {
      domainVersions_[opset.domain()] = opset.version();
      knownDomain |= registry.knowsDomain(opset.domain());
    }
  }
  // A model of only other domains' ops (the training optimizers) imports
  // when Kiln has converters for one of them; its nodes say the rest.
  if (!found && knownDomain)
    return success();
  if (!found) {
    // Models made only of other domains' ops (training, ML) are valid.
    if (model_.opset_import_size() > 0)
      failure_ = ImportFailure::kUnsupported;
    return error() << "the model imports no version of the default ONNX "
                      "operator set";
  }
  if (opset_ <= 0)
    return error() << "opset " << opset_ << " does not exist";
  if (opset_ < kMinOpset || opset_ > kMaxOpset) {
    failure_ = ImportFailure::kUnsupported;
    return error() << "the model uses ONNX opset " << opset_
                   << "; Kiln supports opsets " << kMinOpset << " to "
                   << kMaxOpset;
  }
  return success();
}

LogicalResult ModelImporter::reportUnsupportedOperators() {
  // (domain, op type) -> node names, in first-seen order.
  std::map<std::pair<std::string, std::string>, std::vector<std::string>>
      missing;
  for (auto [index, node] : llvm::enumerate(model_.graph().node())) {
    bool defaultDomain = node.domain().empty() || node.domain() == "ai.onnx";
    if (converterFor(node))
      continue;
    missing[{defaultDomain ? "ai.onnx" : node.domain(), node.op_type()}]
        .push_back(node.name().empty()
                       ? node.op_type() + "#" + std::to_string(index)
                       : node.name());
  }
  if (missing.empty())
    return success();
  failure_ = ImportFailure::kUnsupported;
  size_t nodes = 0;
  for (auto &entry : missing)
    nodes += entry.second.size();
  InFlightDiagnostic diag = error();
  diag << "the model uses " << missing.size()
       << " unsupported operator(s) in " << nodes << " node(s):";
  for (auto &[key, names] : missing) {
    diag << "\n  " << key.second << " (domain " << key.first << ", opset "
         << opset_ << "): ";
    for (size_t i = 0; i < names.size() && i < 10; ++i)
      diag << (i ? ", " : "") << "'" << names[i] << "'";
    if (names.size() > 10)
      diag << " and " << names.size() - 10 << " more";
  }
  return failure();
}

FailureOr<SmallVector<int>>
ModelImporter::orderNodes(const pb::GraphProto &graph,
                          const ImportContext *outer) {
  llvm::StringSet<> available, inputNames, initNames;
  for (const pb::ValueInfoProto &input : graph.input()) {
    if (!inputNames.insert(input.name()).second)
      return error() << "graph input '" << input.name()
                     << "' is declared twice";
    available.insert(input.name());
  }
  for (const pb::TensorProto &init : graph.initializer()) {
    if (!initNames.insert(init.name()).second)
      return error() << "initializer '" << init.name() << "' is defined twice";
    available.insert(init.name());
  }
  if (graph.sparse_initializer_size() > 0) {
    failure_ = ImportFailure::kUnsupported;
    return error() << "sparse initializers are not supported";
  }
  // Which node produces each value.
  llvm::StringMap<int> producer;
  for (auto [index, node] : llvm::enumerate(graph.node()))
    for (const std::string &output : node.output())
      if (!output.empty()) {
        if (available.contains(output) || producer.count(output))
          return error() << "value '" << output
                         << "' is defined more than once";
        producer[output] = int(index);
      }
  int count = graph.node_size();
  std::vector<int> pending(count, 0);
  std::vector<std::vector<int>> users(count);
  for (auto [index, node] : llvm::enumerate(graph.node())) {
    for (const std::string &input : valuesReadBy(node)) {
      if (input.empty() || available.contains(input))
        continue;
      // A subgraph reads the enclosing graph's values freely.
      if (outer && outer->isDefined(input) && !producer.count(input))
        continue;
      auto it = producer.find(input);
      if (it == producer.end())
        return emitError(NameLoc::get(
                   StringAttr::get(&context_, node.name().empty()
                                                  ? node.op_type()
                                                  : node.name()),
                   fileLoc_))
               << "node '" << node.name() << "' (" << node.op_type()
               << ") uses '" << input
               << "', which no node, input or initializer defines";
      ++pending[index];
      users[it->second].push_back(int(index));
    }
  }
  std::deque<int> ready;
  for (int i = 0; i < count; ++i)
    if (pending[i] == 0)
      ready.push_back(i);
  SmallVector<int> order;
  while (!ready.empty()) {
    int node = ready.front();
    ready.pop_front();
    order.push_back(node);
    for (int user : users[node])
      if (--pending[user] == 0)
        ready.push_back(user);
  }
  if (int(order.size()) != count) {
    for (int i = 0; i < count; ++i)
      if (pending[i] > 0)
        return error() << "the graph has a cycle through node '"
                       << graph.node(i).name() << "' ("
                       << graph.node(i).op_type() << ")";
  }
  return order;
}

FailureOr<RankedTensorType>
ModelImporter::importInputType(const pb::ValueInfoProto &info) {
  if (!info.has_type())
    return error() << "input '" << info.name() << "' has no type";
  if (!info.type().has_tensor_type()) {
    // Sequences, maps and optionals are valid ONNX that Kiln does not run.
    failure_ = ImportFailure::kUnsupported;
    return error() << "input '" << info.name()
                   << "' is not a tensor (sequences, maps and optionals are "
                      "not supported)";
  }
  const pb::TypeProto::Tensor &tensor = info.type().tensor_type();
  Type element = importElementType(&context_, tensor.elem_type(), fileLoc_);
  if (!element) {
    if (isUnsupportedOnnxType(tensor.elem_type()))
      failure_ = ImportFailure::kUnsupported;
    return error() << "input '" << info.name()
                   << "' has an unsupported element type";
  }
  auto given = options_.inputShapes.find(info.name());
  if (!tensor.has_shape()) {
    if (given == options_.inputShapes.end()) {
      inputsWithoutShape_.push_back(info.name());
      return error() << "input '" << info.name()
                     << "' has no shape: give one with --input-shape "
                     << info.name() << "=DxDx...";
    }
    std::optional<int64_t> count = checkedElementCount(given->second);
    if (!count || *count > (int64_t(1) << 40))
      return error() << "--input-shape for '" << info.name()
                     << "' is implausibly large";
    SmallVector<int64_t> shape(given->second.begin(), given->second.end());
    if (options_.batchSize > 0 && !shape.empty())
      shape[0] = options_.batchSize;
    return RankedTensorType::get(shape, element);
  }
  const auto &dims = tensor.shape().dim();
  if (options_.batchSize > 0) {
    if (dims.empty())
      return error() << "--batch-sizes: input '" << info.name()
                     << "' is a scalar, it has no batch axis";
    if (dims[0].has_dim_value() && dims[0].dim_value() != options_.batchSize)
      return error() << "--batch-sizes: input '" << info.name()
                     << "' fixes axis 0 at " << dims[0].dim_value()
                     << ", so the model cannot be compiled for a batch of "
                     << options_.batchSize
                     << " (export it with a dynamic batch axis)";
  }
  if (given != options_.inputShapes.end() &&
      int(given->second.size()) != dims.size())
    return error() << "--input-shape gives " << given->second.size()
                   << " dimensions for input '" << info.name()
                   << "', the model has " << dims.size();
  SmallVector<int64_t> shape;
  for (auto [d, dim] : llvm::enumerate(dims)) {
    bool fixed = dim.has_dim_value() && dim.dim_value() >= 0;
    if (dim.has_dim_value() && dim.dim_value() < 0)
      return error() << "input '" << info.name() << "' has a negative "
                     << "dimension " << dim.dim_value();
    if (d == 0 && options_.batchSize > 0) {
      shape.push_back(options_.batchSize);
      continue;
    }
    if (given != options_.inputShapes.end()) {
      int64_t size = given->second[d];
      if (size < 0)
        return error() << "--input-shape for '" << info.name()
                       << "' has a negative dimension";
      if (fixed && dim.dim_value() != size)
        return error() << "--input-shape for '" << info.name()
                       << "' gives dimension " << d << " as " << size
                       << ", the model fixes it at " << dim.dim_value();
      shape.push_back(size);
      continue;
    }
    if (!fixed) {
      inputsWithoutShape_.push_back(info.name());
      return error() << "input '" << info.name() << "' has symbolic dimension "
                     << d
                     << (dim.has_dim_param() ? " ('" + dim.dim_param() + "')"
                                             : std::string())
                     << ": give its shape with --input-shape " << info.name()
                     << "=DxDx...";
    }
    shape.push_back(dim.dim_value());
  }
  std::optional<int64_t> count = checkedElementCount(shape);
  if (!count || *count > (int64_t(1) << 40))
    return error() << "input '" << info.name() << "' is implausibly large";
  return RankedTensorType::get(shape, element);
}

LogicalResult ModelImporter::defineInitializers(ImportContext &ctx,
                                                const pb::GraphProto &graph) {
  OpBuilder &builder = ctx.builder();
  for (const pb::TensorProto &init : graph.initializer()) {
    Location loc = NameLoc::get(builder.getStringAttr(init.name()), fileLoc_);
    FailureOr<DenseElementsAttr> value =
        importTensor(init, &context_, folder_, loc);
    if (failed(value)) {
      if (isUnsupportedOnnxType(init.data_type()))
        ctx.markUnsupported();
      return failure();
    }
    ctx.define(init.name(), ConstantOp::create(builder, loc, *value));
  }
  return success();
}

FailureOr<SmallVector<GraphValue>>
ModelImporter::importSubgraph(ImportContext &ctx, const pb::GraphProto &graph,
                              ArrayRef<GraphValue> inputs) {
  if (graph.input_size() != int(inputs.size()))
    return ctx.error() << "the body '" << graph.name() << "' has "
                       << graph.input_size() << " inputs, the node gives it "
                       << inputs.size();
  // An unrolled loop imports its body once per iteration: order it once.
  auto known = bodyOrders_.find(&graph);
  if (known == bodyOrders_.end()) {
    FailureOr<SmallVector<int>> order = orderNodes(graph, &ctx);
    if (failed(order))
      return failure();
    known = bodyOrders_.try_emplace(&graph, std::move(*order)).first;
  }
  const SmallVector<int> &order = known->second;
  for (auto [input, value] : llvm::zip(graph.input(), inputs))
    ctx.defineAny(input.name(), value);
  if (failed(defineInitializers(ctx, graph)))
    return failure();
  for (int index : order) {
    const pb::NodeProto &node = graph.node(index);
    ctx.setNode(node, index);
    if (failed(ctx.checkInputLengthsStatic()))
      return failure();
    Converter convert = converterFor(node);
    if (!convert) {
      ctx.markUnsupported();
      return ctx.error() << "unsupported operator " << node.op_type()
                         << " in the body '" << graph.name() << "'";
    }
    if (failed(convert(ctx)) || ctx.hadError())
      return failure();
  }
  SmallVector<GraphValue> outputs;
  for (const pb::ValueInfoProto &output : graph.output()) {
    GraphValue value = ctx.lookupAny(output.name());
    if (!value.tensor && !value.isSequence())
      return emitError(fileLoc_)
             << "the body '" << graph.name() << "' does not compute its "
             << "output '" << output.name() << "'";
    if (value.tensor && ctx.runtimeLengthOf(value.tensor)) {
      ctx.markUnsupported();
      return ctx.error() << "the body '" << graph.name() << "' output '"
                         << output.name()
                         << "' has a length that depends on the data; "
                            "bodies must compute static shapes";
    }
    outputs.push_back(std::move(value));
  }
  return outputs;
}

LogicalResult ModelImporter::importGraph(ModuleOp module) {
  const pb::GraphProto &graph = model_.graph();
  FailureOr<SmallVector<int>> order = orderNodes(graph, nullptr);
  if (failed(order))
    return failure();

  // Initializers shadow inputs of the same name (older exporters list
  // weights as inputs too).
  llvm::StringSet<> initializerNames;
  for (const pb::TensorProto &init : graph.initializer())
    initializerNames.insert(init.name());
  for (const pb::ValueInfoProto &input : graph.input())
    if (!initializerNames.contains(input.name()))
      graphInputs_.push_back(input.name());
  for (auto &entry : options_.boundInputs)
    if (!llvm::any_of(graph.input(), [&](const pb::ValueInfoProto &in) {
          return in.name() == entry.first;
        }))
      return error() << "--bind names '" << entry.first
                     << "', which is not an input of the model";
  // A misspelt --input-shape is reported before the shapes it would fix.
  for (auto &entry : options_.inputShapes)
    if (!llvm::any_of(graph.input(), [&](const pb::ValueInfoProto &in) {
          return in.name() == entry.first &&
                 !initializerNames.contains(in.name());
        }))
      return error() << "--input-shape names '" << entry.first
                     << "', which is not an input of the model";
  SmallVector<const pb::ValueInfoProto *> inputs;
  SmallVector<Type> inputTypes;
  for (const pb::ValueInfoProto &input : graph.input()) {
    if (initializerNames.contains(input.name()) ||
        options_.boundInputs.count(input.name()))
      continue;
    FailureOr<RankedTensorType> type = importInputType(input);
    if (failed(type))
      return failure();
    inputs.push_back(&input);
    inputTypes.push_back(*type);
  }

  OpBuilder builder(&context_);
  builder.setInsertionPointToEnd(module.getBody());
  std::string name = graph.name().empty() ? "main" : graph.name();
  // Model-supplied names are data, not identifiers: keep the symbol simple.
  for (char &c : name)
    if (!llvm::isAlnum(c) && c != '_')
      c = '_';
  if (!llvm::isAlpha(name[0]) && name[0] != '_')
    name = "m_" + name;
  auto function = func::FuncOp::create(
      builder, fileLoc_, name, builder.getFunctionType(inputTypes, {}));
  Block *body = function.addEntryBlock();
  builder.setInsertionPointToStart(body);
  for (auto [index, input] : llvm::enumerate(inputs))
    function.setArgAttr(index, "kiln.name",
                        builder.getStringAttr(input->name()));

  ImportContext ctx(builder, path_, opset_);
  ctx.setSubgraphImporter(
      [&](const pb::GraphProto &subgraph, ArrayRef<GraphValue> values) {
        return importSubgraph(ctx, subgraph, values);
      });
  for (auto [index, input] : llvm::enumerate(inputs))
    ctx.defineGraphInput(input->name(), body->getArgument(index));
  if (failed(defineInitializers(ctx, graph))) {
    if (ctx.isUnsupported())
      failure_ = ImportFailure::kUnsupported;
    return failure();
  }

  for (auto &[boundName, value] : options_.boundInputs) {
    // The bound value must fit what the model declares for the input.
    const pb::ValueInfoProto *info = nullptr;
    for (const pb::ValueInfoProto &in : graph.input())
      if (in.name() == boundName)
        info = &in;
    if (info->has_type() && info->type().has_tensor_type()) {
      Type element = importElementType(
          &context_, info->type().tensor_type().elem_type(), fileLoc_);
      if (!element)
        return failure();
      if (element != value.getElementType())
        return error() << "--bind value for '" << boundName << "' has type "
                       << value.getElementType() << ", the model declares "
                       << element;
    }
    ctx.define(boundName,
               ConstantOp::create(builder, NameLoc::get(builder.getStringAttr(
                                                            boundName),
                                                        fileLoc_),
                                  value));
  }

  // Fully static declared shapes of the graph outputs: what a converter
  // whose result shape depends on run-time values (Resize with scales given
  // as an input) may rely on, since they are checked against the computed
  // ones below. (value_info is not checked, so it is not used.)
  auto declare = [&](const pb::ValueInfoProto &info) {
    if (!info.has_type() || !info.type().has_tensor_type() ||
        !info.type().tensor_type().has_shape())
      return;
    SmallVector<int64_t> shape;
    for (const auto &dim : info.type().tensor_type().shape().dim()) {
      if (!dim.has_dim_value() || dim.dim_value() < 0)
        return;
      shape.push_back(dim.dim_value());
    }
    ctx.declareShape(info.name(), shape);
  };
  for (const pb::ValueInfoProto &info : graph.output())
    declare(info);

  // A node that fails does not stop the import: every node whose inputs
  // were computed is still converted, so that all the nodes Kiln refuses
  // are reported at once (and a JIT learns every input it must bind).
  int refused = 0, invalid = 0;
  for (int index : *order) {
    const pb::NodeProto &node = graph.node(index);
    if (refused + invalid > 0 &&
        llvm::any_of(node.input(), [&](const std::string &name) {
          return !name.empty() && !ctx.isDefined(name);
        }))
      continue; // Downstream of a failed node.
    ctx.setNode(node, index);
    Converter convert = converterFor(node);
    if (failed(ctx.checkInputLengthsStatic()) || failed(convert(ctx)) ||
        ctx.hadError())
      ++(ctx.isUnsupported() ? refused : invalid);
  }
  compileTimeInputs_.assign(ctx.compileTimeInputs().begin(),
                            ctx.compileTimeInputs().end());
  if (refused + invalid > 0) {
    // A malformed node makes the model invalid, whatever else it has.
    failure_ =
        invalid ? ImportFailure::kInvalidModel : ImportFailure::kUnsupported;
    return failure();
  }

  SmallVector<Value> results;
  for (const pb::ValueInfoProto &output : graph.output()) {
    Value value = ctx.lookup(output.name());
    if (!value && ctx.lookupSequence(output.name())) {
      failure_ = ImportFailure::kUnsupported;
      return error() << "output '" << output.name()
                     << "' is a sequence: Kiln resolves sequences inside the "
                        "graph, its outputs must be tensors";
    }
    if (!value)
      return error() << "output '" << output.name()
                     << "' is not computed by the graph";
    // What the model declares about an output must agree with what it
    // computes (unknown parts are not checked).
    if (output.has_type() && output.type().has_tensor_type()) {
      const pb::TypeProto::Tensor &declared = output.type().tensor_type();
      auto computed = cast<RankedTensorType>(value.getType());
      if (declared.elem_type() != 0) {
        Type element =
            importElementType(&context_, declared.elem_type(), fileLoc_);
        if (!element)
          return failure();
        if (element != computed.getElementType())
          return error() << "output '" << output.name() << "' is declared "
                         << element << " but computes "
                         << computed.getElementType();
      }
      if (declared.has_shape()) {
        const auto &dims = declared.shape().dim();
        bool rankMatches = dims.size() == computed.getRank();
        // A dimension that the data decides is not known before a run.
        const ImportContext::RuntimeLength *bounded =
            ctx.runtimeLengthOf(value);
        for (int d = 0; rankMatches && d < dims.size(); ++d)
          if (dims[d].has_dim_value() && !(bounded && bounded->axis == d) &&
              dims[d].dim_value() != computed.getDimSize(d))
            rankMatches = false;
        if (!rankMatches)
          return error() << "output '" << output.name()
                         << "' is declared with a shape that differs from "
                            "the computed "
                         << computed;
      }
    }
    results.push_back(value);
  }
  if (results.empty())
    return error() << "the graph has no outputs";
  // An output whose length depends on the data is followed by its length,
  // an i64 scalar named "<output>:length"; the runtime cuts the output to it.
  SmallVector<std::string> names;
  for (const pb::ValueInfoProto &output : graph.output())
    names.push_back(output.name());
  SmallVector<std::pair<int64_t, int64_t>> lengthOf(results.size(), {-1, -1});
  for (size_t i = 0, e = results.size(); i < e; ++i) {
    const ImportContext::RuntimeLength *bounded =
        ctx.runtimeLengthOf(results[i]);
    if (!bounded)
      continue;
    // An output listed twice shares its first listing's length.
    auto earlier = llvm::find(ArrayRef(results).take_front(i), results[i]);
    if (earlier != results.begin() + i) {
      lengthOf[i] = lengthOf[earlier - results.begin()];
      continue;
    }
    std::string name = names[i] + ":length";
    if (llvm::is_contained(names, name))
      return error() << "output '" << names[i]
                     << "' has a run-time length, and its length output's "
                        "name '"
                     << name << "' is taken";
    lengthOf[i] = {bounded->axis, int64_t(results.size())};
    results.push_back(bounded->length);
    names.push_back(name);
  }
  func::ReturnOp::create(builder, fileLoc_, results);
  function.setType(builder.getFunctionType(
      inputTypes, llvm::to_vector(ValueRange(results).getTypes())));
  for (auto [index, name] : llvm::enumerate(names))
    function.setResultAttr(index, "kiln.name", builder.getStringAttr(name));
  for (auto [index, length] : llvm::enumerate(lengthOf)) {
    if (length.first < 0)
      continue;
    function.setResultAttr(index, "kiln.length_axis",
                           builder.getI64IntegerAttr(length.first));
    function.setResultAttr(index, "kiln.length_result",
                           builder.getI64IntegerAttr(length.second));
  }
  // Converters build ops with checked types; the verifier catches whatever
  // is left (element types an op does not accept), located at the node.
  return verify(module);
}

OwningOpRef<ModuleOp> ModelImporter::run(ImportReport &report) {
  report = ImportReport();
  OwningOpRef<ModuleOp> module = ModuleOp::create(fileLoc_);
  bool imported = succeeded(parse()) && succeeded(checkOpset()) &&
                  succeeded(reportUnsupportedOperators()) &&
                  succeeded(importGraph(*module));
  report.failure = imported ? ImportFailure::kNone : failure_;
  report.graphInputs = std::move(graphInputs_);
  report.compileTimeInputs = std::move(compileTimeInputs_);
  report.inputsWithoutShape = std::move(inputsWithoutShape_);
  if (!imported)
    return nullptr;
  return module;
}

} // namespace

OwningOpRef<ModuleOp> importOnnxFile(MLIRContext &context,
                                     const std::string &path,
                                     const ImportOptions &options,
                                     ImportReport &report) {
  context.loadDialect<KilnDialect, func::FuncDialect>();
  return ModelImporter(context, path, options).run(report);
}

OwningOpRef<ModuleOp> importOnnxBytes(MLIRContext &context,
                                      llvm::StringRef bytes,
                                      const std::string &name,
                                      const ImportOptions &options,
                                      ImportReport &report) {
  context.loadDialect<KilnDialect, func::FuncDialect>();
  ModelImporter importer(context, name, options);
  importer.setBytes(bytes);
  return importer.run(report);
}

void registerOnnxImportDialects(DialectRegistry &registry) {
  registry.insert<KilnDialect, func::FuncDialect>();
}

} // namespace kiln::onnx
