//===- ImportContext.cpp - State shared by ONNX node converters -----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "frontend/onnx/ImportContext.h"

#include "dialects/Graph/IR/GraphOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"

using namespace mlir;

namespace kiln::onnx {

ImportContext::ImportContext(OpBuilder &builder, llvm::StringRef modelPath,
                             int64_t opset)
    : builder_(builder), modelPath_(modelPath.str()), opset_(opset),
      loc_(builder.getUnknownLoc()) {
  llvm::SmallString<256> folder(modelPath);
  llvm::sys::path::remove_filename(folder);
  modelFolder_ = folder.empty() ? "." : std::string(folder);
}

Location ImportContext::locationOf(const pb::NodeProto &node, int index) const {
  std::string name = node.name().empty()
                         ? node.op_type() + "#" + std::to_string(index)
                         : node.name();
  return NameLoc::get(builder_.getStringAttr(name),
                      FileLineColLoc::get(builder_.getContext(), modelPath_,
                                          0, 0));
}

void ImportContext::setNode(const pb::NodeProto &node, int index) {
  node_ = &node;
  loc_ = locationOf(node, index);
  hadError_ = false;
  unsupported_ = false;
}

InFlightDiagnostic ImportContext::error() {
  return emitError(loc_) << "node '"
                         << cast<NameLoc>(loc_).getName().getValue() << "' ("
                         << node_->op_type() << "): ";
}

Value ImportContext::input(int i) const {
  if (i >= node_->input_size() || node_->input(i).empty())
    return {};
  return lookup(node_->input(i));
}

FailureOr<Value> ImportContext::requiredInput(int i, llvm::StringRef what) {
  if (Value value = input(i))
    return value;
  if (i < node_->input_size() && lookupSequence(node_->input(i)))
    return error() << "input #" << i << " (" << what
                   << ") is a sequence, a tensor is expected";
  return error() << "missing input #" << i << " (" << what << ")";
}

FailureOr<GraphValue> ImportContext::anyInput(int i, llvm::StringRef what) {
  GraphValue value;
  if (i < node_->input_size() && !node_->input(i).empty())
    value = lookupAny(node_->input(i));
  if (!value.tensor && !value.isSequence())
    return error() << "missing input #" << i << " (" << what << ")";
  return value;
}

void ImportContext::setAnyOutput(int i, const GraphValue &value) {
  if (value.isSequence())
    setSequenceOutput(i, *value.sequence);
  else
    setOutput(i, value.tensor);
}

GraphValue ImportContext::lookupAny(const std::string &name) const {
  if (Value tensor = lookup(name))
    return tensor;
  if (const Sequence *sequence = lookupSequence(name))
    return *sequence;
  return {};
}

void ImportContext::defineAny(const std::string &name,
                              const GraphValue &value) {
  if (value.isSequence())
    defineSequence(name, *value.sequence);
  else
    define(name, value.tensor);
}

FailureOr<const Sequence *> ImportContext::sequenceInput(int i,
                                                         llvm::StringRef what) {
  if (i < node_->input_size() && !node_->input(i).empty()) {
    if (const Sequence *sequence = lookupSequence(node_->input(i)))
      return sequence;
    if (lookup(node_->input(i)))
      return error() << "input #" << i << " (" << what
                     << ") is a tensor, a sequence is expected";
  }
  return error() << "missing input #" << i << " (" << what << ")";
}

void ImportContext::setSequenceOutput(int i, Sequence sequence) {
  if (i < node_->output_size() && !node_->output(i).empty())
    defineSequence(node_->output(i), std::move(sequence));
}

void ImportContext::setOutput(int i, Value value) {
  // Every value the importer defines has a sound static shape: a dimension
  // that overflowed or went negative is a malformed model, caught here once
  // for all converters.
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || !kiln::checkedElementCount(type.getShape()) ||
      *kiln::checkedElementCount(type.getShape()) > (int64_t(1) << 40)) {
    if (!hadError_)
      error() << "output #" << i << " would have the impossible type "
              << value.getType();
    hadError_ = true;
    return;
  }
  if (i < node_->output_size() && !node_->output(i).empty())
    define(node_->output(i), value);
}

const pb::AttributeProto *ImportContext::attribute(llvm::StringRef name) const {
  for (const pb::AttributeProto &attr : node_->attribute())
    if (attr.name() == name)
      return &attr;
  return nullptr;
}

FailureOr<int64_t> ImportContext::intAttr(llvm::StringRef name,
                                          int64_t fallback) {
  const pb::AttributeProto *attr = attribute(name);
  if (!attr)
    return fallback;
  if (attr->type() != pb::AttributeProto::INT)
    return error() << "attribute '" << name << "' must be an integer";
  return attr->i();
}

FailureOr<float> ImportContext::floatAttr(llvm::StringRef name,
                                          float fallback) {
  const pb::AttributeProto *attr = attribute(name);
  if (!attr)
    return fallback;
  if (attr->type() != pb::AttributeProto::FLOAT)
    return error() << "attribute '" << name << "' must be a float";
  return attr->f();
}

FailureOr<std::string> ImportContext::stringAttr(llvm::StringRef name,
                                                 llvm::StringRef fallback) {
  const pb::AttributeProto *attr = attribute(name);
  if (!attr)
    return fallback.str();
  if (attr->type() != pb::AttributeProto::STRING)
    return error() << "attribute '" << name << "' must be a string";
  return attr->s();
}

FailureOr<std::optional<SmallVector<int64_t>>>
ImportContext::intsAttr(llvm::StringRef name) {
  const pb::AttributeProto *attr = attribute(name);
  if (!attr)
    return std::optional<SmallVector<int64_t>>();
  if (attr->type() != pb::AttributeProto::INTS)
    return error() << "attribute '" << name << "' must be a list of integers";
  return std::optional<SmallVector<int64_t>>(
      SmallVector<int64_t>(attr->ints().begin(), attr->ints().end()));
}

FailureOr<SmallVector<double>> ImportContext::floatsAttr(llvm::StringRef name) {
  SmallVector<double> values;
  const pb::AttributeProto *attr = attribute(name);
  if (!attr)
    return values;
  if (attr->type() != pb::AttributeProto::FLOATS)
    return error() << "attribute '" << name << "' must be a list of floats";
  for (float value : attr->floats())
    values.push_back(value);
  return values;
}

namespace {
/// What a value that should have been a constant is computed from: the
/// graph inputs it depends on (in order of discovery), and otherwise the
/// first op whose operands are all constants, which the importer could not
/// fold.
struct NonConstantOrigin {
  SmallVector<Value> graphInputs;
  Operation *unfolded = nullptr;
};

NonConstantOrigin originOf(Value value,
                           const llvm::DenseMap<Value, std::string> &inputs) {
  NonConstantOrigin origin;
  SmallVector<Value> worklist{value};
  llvm::DenseSet<Value> seen{value};
  while (!worklist.empty()) {
    Value next = worklist.pop_back_val();
    if (inputs.count(next)) {
      origin.graphInputs.push_back(next);
      continue;
    }
    Operation *op = next.getDefiningOp();
    if (!op || matchPattern(next, m_Constant()))
      continue;
    bool allConstant = true;
    for (Value operand : op->getOperands()) {
      allConstant &= matchPattern(operand, m_Constant());
      if (seen.insert(operand).second)
        worklist.push_back(operand);
    }
    if (allConstant && !origin.unfolded)
      origin.unfolded = op;
  }
  return origin;
}

/// "node 'where1' (kiln.where)": the ONNX node an imported op came from.
std::string describeOp(Operation *op) {
  std::string node = "an op";
  if (auto name = dyn_cast<NameLoc>(op->getLoc()))
    node = "node '" + name.getName().str() + "'";
  return node + " (" + op->getName().getStringRef().str() + ")";
}
} // namespace

FailureOr<DenseElementsAttr> ImportContext::constantInput(int i,
                                                          llvm::StringRef what) {
  FailureOr<Value> value = requiredInput(i, what);
  if (failed(value))
    return failure();
  return constantOf(*value,
                    ("input #" + llvm::Twine(i) + " (" + what + ")").str());
}

FailureOr<DenseElementsAttr> ImportContext::constantOf(Value value,
                                                       llvm::StringRef what) {
  DenseElementsAttr attr;
  if (matchPattern(value, m_Constant(&attr)))
    return attr;
  // A valid model Kiln cannot compile as is: exit 3, and the message says
  // what would fix it.
  markUnsupported();
  NonConstantOrigin origin = originOf(value, graphInputNames_);
  InFlightDiagnostic diag = error() << what
                                    << " must be a constant: Kiln compiles "
                                       "static shapes";
  if (origin.graphInputs.empty()) {
    diag << ", and it is computed from constants by ops Kiln does not fold";
    if (origin.unfolded)
      diag << " (first: "
           << describeOp(origin.unfolded) << ")";
    return diag;
  }
  std::string names, bind;
  for (Value input : origin.graphInputs) {
    const std::string &name = graphInputNames_.lookup(input);
    if (!llvm::is_contained(compileTimeInputs_, name))
      compileTimeInputs_.push_back(name);
    names += (names.empty() ? "'" : ", '") + name + "'";
    bind += " --bind " + name + "=FILE.npy";
  }
  diag << ", and it is computed from graph input"
       << (origin.graphInputs.size() > 1 ? "s " : " ") << names
       << " (fix it at compile time with" << bind
       << "; `kilnc run` and kiln::JitModel do that with the values given)";
  return diag;
}

FailureOr<SmallVector<int64_t>> ImportContext::constantInts(int i,
                                                            llvm::StringRef what) {
  FailureOr<DenseElementsAttr> attr = constantInput(i, what);
  if (failed(attr))
    return failure();
  if (!isa<IntegerType>(attr->getElementType()))
    return error() << "input #" << i << " (" << what
                   << ") must hold integers";
  SmallVector<int64_t> values;
  for (const APInt &v : attr->getValues<APInt>())
    values.push_back(v.getSExtValue());
  return values;
}

FailureOr<SmallVector<GraphValue>>
ImportContext::importSubgraph(const pb::GraphProto &graph,
                              ArrayRef<GraphValue> inputs) {
  if (!subgraphImporter_)
    return error() << "subgraphs cannot be imported here";
  // The body's names live in their own scope (they may shadow the outer
  // graph's), and its nodes become the current node in turn.
  llvm::StringMap<Value> values = values_;
  llvm::StringMap<Sequence> sequences = sequences_;
  const pb::NodeProto *node = node_;
  Location loc = loc_;
  FailureOr<SmallVector<GraphValue>> outputs = subgraphImporter_(graph, inputs);
  bool unsupported = unsupported_;
  values_ = std::move(values);
  sequences_ = std::move(sequences);
  node_ = node;
  loc_ = loc;
  hadError_ = false;
  unsupported_ = unsupported;
  return outputs;
}

void ImportContext::setRuntimeLength(int i, int64_t axis, Value length) {
  Value value = lookup(node_->output(i));
  if (!value)
    return;
  std::string producer;
  llvm::raw_string_ostream(producer)
      << "node '" << cast<NameLoc>(loc_).getName().getValue() << "' ("
      << node_->op_type() << ")";
  runtimeLengths_[value] = {axis, length, producer};
}

LogicalResult ImportContext::checkInputLengthsStatic() {
  for (const std::string &name : node_->input()) {
    const RuntimeLength *bounded =
        name.empty() ? nullptr : runtimeLengthOf(lookup(name));
    if (!bounded)
      continue;
    markUnsupported();
    return error() << "input '" << name << "' comes from " << bounded->producer
                   << ", whose output length depends on the data: Kiln "
                      "compiles static shapes and supports such values only "
                      "as outputs of the model";
  }
  return success();
}

bool ImportContext::spendIterations(int64_t count) {
  if (count > iterationBudget_)
    return false;
  iterationBudget_ -= count;
  return true;
}

Value ImportContext::finish(Operation *op) {
  if (failed(verify(op, /*verifyRecursively=*/false))) {
    hadError_ = true;
    return op->getResult(0);
  }
  SmallVector<Value> folded;
  if (succeeded(builder_.tryFold(op, folded)) && !folded.empty()) {
    op->erase();
    return folded.front();
  }
  return op->getResult(0);
}

Value ImportContext::constant(DenseElementsAttr value) {
  return ConstantOp::create(builder_, loc_, value);
}

ArrayRef<int64_t> shapeOf(Value value) {
  return cast<RankedTensorType>(value.getType()).getShape();
}

Type elementTypeOf(Value value) {
  return cast<RankedTensorType>(value.getType()).getElementType();
}

} // namespace kiln::onnx
