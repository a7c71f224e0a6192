//===- ImportContext.h - State shared by ONNX node converters ---*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// A converter sees one ONNX node through this class: its inputs as MLIR
// values, its attributes with type checks, constant inputs (shape operands),
// its location, and a builder whose ops are folded as they are created (so
// ONNX shape computations on constants become constants immediately).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_FRONTEND_ONNX_IMPORTCONTEXT_H
#define KILN_FRONTEND_ONNX_IMPORTCONTEXT_H

#include "onnx.pb.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

#include <functional>
#include <optional>
#include <string>

namespace kiln::onnx {

/// The generated protobuf classes live in the global `onnx` namespace.
namespace pb = ::onnx;

/// An ONNX sequence built and consumed inside the graph. Kiln resolves
/// sequences at import time: their length and every position that indexes
/// them are compile-time values (positions given as graph inputs are bound
/// by the JIT, as shape operands are), so a sequence is the list of its
/// tensors, and SequenceAt is the tensor itself.
struct Sequence {
  llvm::SmallVector<mlir::Value> tensors;
  /// The element type of the tensors (an empty sequence has none to tell).
  mlir::Type element;
};

/// A value of the graph: a tensor, or a sequence resolved at import.
struct GraphValue {
  mlir::Value tensor;
  std::optional<Sequence> sequence;

  GraphValue() = default;
  GraphValue(mlir::Value tensor) : tensor(tensor) {}
  GraphValue(Sequence sequence) : sequence(std::move(sequence)) {}
  bool isSequence() const { return sequence.has_value(); }
};

class ImportContext {
public:
  ImportContext(mlir::OpBuilder &builder, llvm::StringRef modelPath,
                int64_t opset);

  mlir::OpBuilder &builder() { return builder_; }
  mlir::MLIRContext *context() { return builder_.getContext(); }
  /// The model's default-domain opset.
  int64_t opset() const { return opset_; }
  /// The folder holding the model (external data is resolved inside it).
  const std::string &modelFolder() const { return modelFolder_; }

  //===--------------------------------------------------------------------===//
  // Values by ONNX name
  //===--------------------------------------------------------------------===//

  void define(const std::string &name, mlir::Value value) {
    values_[name] = value;
  }
  /// Defines graph input `name` (a function argument): what errors about
  /// values computed from it name.
  void defineGraphInput(const std::string &name, mlir::Value argument) {
    define(name, argument);
    graphInputNames_[argument] = name;
  }
  /// The value named `name`, or null.
  mlir::Value lookup(const std::string &name) const {
    auto it = values_.find(name);
    return it == values_.end() ? mlir::Value() : it->second;
  }

  void defineSequence(const std::string &name, Sequence sequence) {
    sequences_[name] = std::move(sequence);
  }
  /// The sequence named `name`, or null.
  const Sequence *lookupSequence(const std::string &name) const {
    auto it = sequences_.find(name);
    return it == sequences_.end() ? nullptr : &it->second;
  }
  /// Whether `name` has been computed, as a tensor or as a sequence.
  bool isDefined(const std::string &name) const {
    return lookup(name) || lookupSequence(name);
  }

  /// Records the fully static shape a model declares for graph output
  /// `name` (the importer checks it against the computed one).
  void declareShape(const std::string &name, llvm::ArrayRef<int64_t> shape) {
    declaredShapes_[name] = llvm::SmallVector<int64_t>(shape);
  }
  /// The static shape the model declares for `name`, if any.
  std::optional<llvm::ArrayRef<int64_t>>
  declaredShape(const std::string &name) const {
    auto it = declaredShapes_.find(name);
    if (it == declaredShapes_.end())
      return std::nullopt;
    return llvm::ArrayRef<int64_t>(it->second);
  }

  //===--------------------------------------------------------------------===//
  // The current node
  //===--------------------------------------------------------------------===//

  void setNode(const pb::NodeProto &node, int index);
  const pb::NodeProto &node() const { return *node_; }
  /// `<node name>` (or `<OpType>#<index>` when unnamed) inside the model
  /// file: the location of every op this node produces.
  mlir::Location loc() const { return loc_; }
  /// An error at the node, starting "node 'n' (OpType): ".
  mlir::InFlightDiagnostic error();
  /// A location for `node` without making it current.
  mlir::Location locationOf(const pb::NodeProto &node, int index) const;

  /// Number of inputs, counting trailing optional ones that are present.
  int numInputs() const { return node_->input_size(); }
  /// Input `i`, or null when absent or given as "" (an omitted optional).
  mlir::Value input(int i) const;
  /// Input `i`, or an error naming it when it is missing.
  mlir::FailureOr<mlir::Value> requiredInput(int i, llvm::StringRef what);

  /// Defines output `i` of the node. Extra outputs the model never uses may
  /// be left undefined; using them later is reported then.
  void setOutput(int i, mlir::Value value);

  /// Input `i`, a tensor or a sequence, or an error when it is missing.
  mlir::FailureOr<GraphValue> anyInput(int i, llvm::StringRef what);
  /// Defines output `i` of the node as a tensor or a sequence.
  void setAnyOutput(int i, const GraphValue &value);
  /// The value named `name`, a tensor or a sequence (empty when neither).
  GraphValue lookupAny(const std::string &name) const;
  /// Defines `name` as a tensor or a sequence.
  void defineAny(const std::string &name, const GraphValue &value);

  /// Input `i` as a sequence, or an error naming it when it is missing or
  /// a tensor.
  mlir::FailureOr<const Sequence *> sequenceInput(int i, llvm::StringRef what);
  /// Defines output `i` of the node as a sequence.
  void setSequenceOutput(int i, Sequence sequence);

  //===--------------------------------------------------------------------===//
  // Attributes (type-checked; a wrong type is an error at the node)
  //===--------------------------------------------------------------------===//

  const pb::AttributeProto *attribute(llvm::StringRef name) const;
  mlir::FailureOr<int64_t> intAttr(llvm::StringRef name, int64_t fallback);
  mlir::FailureOr<float> floatAttr(llvm::StringRef name, float fallback);
  mlir::FailureOr<std::string> stringAttr(llvm::StringRef name,
                                          llvm::StringRef fallback);
  /// nullopt when absent.
  mlir::FailureOr<std::optional<llvm::SmallVector<int64_t>>>
  intsAttr(llvm::StringRef name);
  /// Empty when absent.
  mlir::FailureOr<llvm::SmallVector<double>> floatsAttr(llvm::StringRef name);

  //===--------------------------------------------------------------------===//
  // Constants
  //===--------------------------------------------------------------------===//

  /// The constant value of input `i` (shape operands must be constants:
  /// Kiln compiles static shapes).
  mlir::FailureOr<mlir::DenseElementsAttr> constantInput(int i,
                                                         llvm::StringRef what);
  /// The constant value of `value`; otherwise an error saying `what` must
  /// be a constant and which graph inputs it comes from (recorded for the
  /// JIT, as constantInput does).
  mlir::FailureOr<mlir::DenseElementsAttr> constantOf(mlir::Value value,
                                                      llvm::StringRef what);
  /// Graph inputs that a shape operand which is not a constant was computed
  /// from, collected as constantInput() reports them (in order, no
  /// duplicates): the inputs a JIT binds to their values and retries with.
  llvm::ArrayRef<std::string> compileTimeInputs() const {
    return compileTimeInputs_;
  }
  /// A constant integer input as a vector (any integer element type).
  mlir::FailureOr<llvm::SmallVector<int64_t>>
  constantInts(int i, llvm::StringRef what);

  /// Verifies `op` (a bad model must not reach a folder), then folds it if
  /// it can (its result becomes a constant or an existing value) and returns
  /// its first result. A verification error is reported at the node and
  /// makes hadError() true; the importer stops after the node.
  mlir::Value finish(mlir::Operation *op);

  //===--------------------------------------------------------------------===//
  // Subgraphs (If, Loop and Scan bodies)
  //===--------------------------------------------------------------------===//

  using SubgraphImporter =
      std::function<mlir::FailureOr<llvm::SmallVector<GraphValue>>(
          const pb::GraphProto &, llvm::ArrayRef<GraphValue>)>;
  void setSubgraphImporter(SubgraphImporter importer) {
    subgraphImporter_ = std::move(importer);
  }
  /// Imports `graph` inline with `inputs` bound to its inputs and returns
  /// its outputs. The body sees the enclosing values (ONNX's outer scope);
  /// its own names are forgotten afterwards, and the current node is
  /// restored. A refused body node makes the current node refused too.
  mlir::FailureOr<llvm::SmallVector<GraphValue>>
  importSubgraph(const pb::GraphProto &graph,
                 llvm::ArrayRef<GraphValue> inputs);
  /// Takes `count` unrolled iterations (of Loop and Scan bodies) from the
  /// model's budget; false when it is spent, so that nested or long loops
  /// cannot grow the graph without bound.
  bool spendIterations(int64_t count);

  /// Whether an error was reported outside a converter's own return value
  /// (for the current node).
  bool hadError() const { return hadError_; }

  /// Marks the current node's failure as "valid, but not supported" (exit
  /// code 3) rather than "invalid model".
  void markUnsupported() { unsupported_ = true; }
  bool isUnsupported() const { return unsupported_; }

  /// An i64 (or other `element`) constant tensor.
  mlir::Value constant(mlir::DenseElementsAttr value);

  //===--------------------------------------------------------------------===//
  // Outputs whose length depends on the data (NonZero, Compress, Unique)
  //===--------------------------------------------------------------------===//

  /// A value whose dimension `axis` is only a bound: the rows that count
  /// are the first `length` (an i64 scalar computed beside it); the rest are
  /// padding. Such a value may only be a graph output: the runtime cuts it
  /// to its length after a run.
  struct RuntimeLength {
    int64_t axis;
    mlir::Value length;
    std::string producer; ///< "node 'n' (NonZero)", for errors.
  };
  /// Marks output `i` of the current node (already set) as cut to `length`
  /// along `axis` at run time.
  void setRuntimeLength(int i, int64_t axis, mlir::Value length);
  /// The run-time length of `value`, or null when its shape is all static.
  const RuntimeLength *runtimeLengthOf(mlir::Value value) const {
    auto it = runtimeLengths_.find(value);
    return it == runtimeLengths_.end() ? nullptr : &it->second;
  }
  /// Refuses (exit 3) the current node when one of its inputs has a
  /// run-time length: kernels compute static shapes only.
  mlir::LogicalResult checkInputLengthsStatic();

private:
  mlir::OpBuilder &builder_;
  std::string modelPath_;
  std::string modelFolder_;
  int64_t opset_;
  llvm::StringMap<mlir::Value> values_;
  llvm::StringMap<Sequence> sequences_;
  SubgraphImporter subgraphImporter_;
  /// Unrolled loop iterations left for the whole model.
  int64_t iterationBudget_ = 4096;
  llvm::DenseMap<mlir::Value, std::string> graphInputNames_;
  llvm::SmallVector<std::string> compileTimeInputs_;
  llvm::StringMap<llvm::SmallVector<int64_t>> declaredShapes_;
  llvm::DenseMap<mlir::Value, RuntimeLength> runtimeLengths_;
  const pb::NodeProto *node_ = nullptr;
  mlir::Location loc_;
  bool hadError_ = false;
  bool unsupported_ = false;
};

/// Shape of a ranked tensor value.
llvm::ArrayRef<int64_t> shapeOf(mlir::Value value);
/// Element type of a tensor value.
mlir::Type elementTypeOf(mlir::Value value);

} // namespace kiln::onnx

#endif // KILN_FRONTEND_ONNX_IMPORTCONTEXT_H
