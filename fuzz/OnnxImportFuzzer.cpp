//===- OnnxImportFuzzer.cpp - libFuzzer harness for the ONNX importer -----===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Any bytes: importOnnxBytes builds a module or fails with at least one
// error diagnostic; it never crashes, leaks or hits UB. What it accepts
// verifies, meets the graph contract, and prints as IR that parses back.
//
// Raw mutations mostly break the protobuf encoding, so a custom mutator
// also parses the input as a ModelProto, changes one field (a dimension, an
// attribute, a node's inputs or op type, a node dropped or duplicated, a
// data type, an initializer's data, the opset) and serialises it again: the
// importer's checks behind the protobuf parser get exercised too.
//
// External data is looked up next to a fake model path in a private
// temporary folder holding one small weights file, so no input can make the
// importer read the machine's files.
//
//===----------------------------------------------------------------------===//

#include "compiler/Contracts/Passes.h"
#include "frontend/onnx/ConverterRegistry.h"
#include "frontend/onnx/OnnxImporter.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "onnx.pb.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>

extern "C" size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t maxSize);

namespace {

[[noreturn]] void fail(const char *what) {
  std::fprintf(stderr, "OnnxImportFuzzer: %s\n", what);
  std::abort();
}

struct Globals {
  mlir::DialectRegistry registry;
  std::string modelPath;
  std::vector<std::string> opTypes;

  Globals() {
    kiln::onnx::registerOnnxImportDialects(registry);
    opTypes = kiln::onnx::ConverterRegistry::get().opTypes();
    llvm::SmallString<128> folder;
    if (llvm::sys::fs::createUniqueDirectory("kiln-onnx-fuzz", folder))
      fail("cannot create a temporary folder");
    // What the seeds' external tensors name (test/frontend/onnx/Inputs).
    llvm::SmallString<128> weights(folder);
    llvm::sys::path::append(weights, "weights.bin");
    std::error_code error;
    llvm::raw_fd_ostream out(weights, error);
    if (error)
      fail("cannot write the external weights file");
    for (int i = 0; i < 52; ++i)
      out << char(i);
    llvm::SmallString<128> model(folder);
    llvm::sys::path::append(model, "model.onnx");
    modelPath = std::string(model);
    folder_ = std::string(folder);
    weights_ = std::string(weights);
  }
  ~Globals() {
    llvm::sys::fs::remove(weights_);
    llvm::sys::fs::remove(folder_);
  }

private:
  std::string folder_, weights_;
};

Globals &globals() {
  static Globals g;
  return g;
}

//===----------------------------------------------------------------------===//
// The structure-aware mutator
//===----------------------------------------------------------------------===//

int64_t interesting(std::mt19937_64 &rng) {
  static const int64_t values[] = {0,
                                   1,
                                   2,
                                   3,
                                   4,
                                   -1,
                                   -2,
                                   7,
                                   64,
                                   0x7fffffff,
                                   int64_t(1) << 32,
                                   int64_t(1) << 40,
                                   std::numeric_limits<int64_t>::max(),
                                   std::numeric_limits<int64_t>::min()};
  return rng() % 2 ? values[rng() % (sizeof values / sizeof *values)]
                   : int64_t(rng() % 16);
}

float interestingFloat(std::mt19937_64 &rng) {
  static const float values[] = {0.0f,  -0.0f, 1.0f,   -1.0f,    0.5f, 2.0f,
                                 1e-5f, 1e30f, 1e-40f, INFINITY, NAN};
  return values[rng() % (sizeof values / sizeof *values)];
}

// Attribute names the converters read; a mutated or added attribute gets one.
const char *const kAttributeNames[] = {"axis",
                                       "axes",
                                       "perm",
                                       "transA",
                                       "transB",
                                       "alpha",
                                       "beta",
                                       "keepdims",
                                       "to",
                                       "value",
                                       "kernel_shape",
                                       "pads",
                                       "strides",
                                       "dilations",
                                       "group",
                                       "auto_pad",
                                       "epsilon",
                                       "mode",
                                       "equation",
                                       "split",
                                       "starts",
                                       "ends",
                                       "ceil_mode",
                                       "count_include_pad",
                                       "allowzero",
                                       "noop_with_empty_axes",
                                       "select_last_index",
                                       "batch_dims",
                                       "direction",
                                       "coordinate_transformation_mode",
                                       "output_padding",
                                       "output_shape",
                                       "blocksize",
                                       "largest",
                                       "sorted",
                                       "k",
                                       "min",
                                       "max"};

template <typename T>
T &pick(google::protobuf::RepeatedPtrField<T> &field, std::mt19937_64 &rng) {
  return *field.Mutable(int(rng() % field.size()));
}

/// Every value name the graph defines, for rewiring inputs (never empty).
std::vector<std::string> valueNames(const onnx::GraphProto &graph) {
  std::vector<std::string> names = {"fuzz0"};
  for (const auto &input : graph.input())
    names.push_back(input.name());
  for (const auto &init : graph.initializer())
    names.push_back(init.name());
  for (const auto &node : graph.node())
    for (const auto &output : node.output())
      names.push_back(output);
  return names;
}

void mutateShape(onnx::TensorShapeProto &shape, std::mt19937_64 &rng) {
  if (shape.dim_size() == 0 || rng() % 6 == 0) {
    shape.add_dim()->set_dim_value(interesting(rng));
    return;
  }
  switch (rng() % 4) {
  case 0:
    shape.mutable_dim()->RemoveLast();
    break;
  case 1:
    pick(*shape.mutable_dim(), rng).set_dim_param("batch");
    break;
  case 2:
    pick(*shape.mutable_dim(), rng).clear_value();
    break;
  default:
    pick(*shape.mutable_dim(), rng).set_dim_value(interesting(rng));
    break;
  }
}

void mutateValueInfo(onnx::GraphProto &graph, std::mt19937_64 &rng) {
  auto &infos = rng() % 2 ? *graph.mutable_input() : *graph.mutable_output();
  if (infos.empty())
    return;
  onnx::ValueInfoProto &info = pick(infos, rng);
  onnx::TypeProto::Tensor *tensor = info.mutable_type()->mutable_tensor_type();
  switch (rng() % 5) {
  case 0:
    tensor->set_elem_type(int(rng() % 24));
    break;
  case 1:
    tensor->clear_shape();
    break;
  case 2: {
    std::vector<std::string> names = valueNames(graph);
    info.set_name(names[rng() % names.size()]);
    break;
  }
  default:
    mutateShape(*tensor->mutable_shape(), rng);
    break;
  }
}

void mutateAttribute(onnx::AttributeProto &attr, std::mt19937_64 &rng) {
  switch (rng() % 8) {
  case 0:
    attr.set_name(kAttributeNames[rng() % (sizeof kAttributeNames /
                                           sizeof *kAttributeNames)]);
    break;
  case 1:
    attr.set_type(onnx::AttributeProto::AttributeType(rng() % 15));
    break;
  case 2:
    attr.set_f(interestingFloat(rng));
    break;
  case 3:
    if (attr.ints_size() && rng() % 3)
      attr.set_ints(int(rng() % attr.ints_size()), interesting(rng));
    else if (attr.ints_size() && rng() % 2)
      attr.mutable_ints()->RemoveLast();
    else
      attr.add_ints(interesting(rng));
    break;
  case 4:
    if (attr.floats_size() && rng() % 2)
      attr.set_floats(int(rng() % attr.floats_size()), interestingFloat(rng));
    else
      attr.add_floats(interestingFloat(rng));
    break;
  case 5:
    attr.set_s(rng() % 2 ? "SAME_UPPER" : "ij,jk->ik");
    break;
  default:
    attr.set_i(interesting(rng));
    break;
  }
}

void mutateTensor(onnx::TensorProto &tensor, std::mt19937_64 &rng) {
  switch (rng() % 6) {
  case 0:
    tensor.set_data_type(int(rng() % 24));
    break;
  case 1:
    if (!tensor.raw_data().empty())
      tensor.mutable_raw_data()->resize(rng() % tensor.raw_data().size());
    else if (tensor.float_data_size())
      tensor.mutable_float_data()->RemoveLast();
    else if (tensor.int64_data_size())
      tensor.mutable_int64_data()->RemoveLast();
    else
      tensor.mutable_raw_data()->append(size_t(rng() % 9), '\x01');
    break;
  case 2:
    if (tensor.dims_size() && rng() % 2)
      tensor.set_dims(int(rng() % tensor.dims_size()), interesting(rng));
    else
      tensor.add_dims(interesting(rng));
    break;
  case 3:
    if (tensor.dims_size())
      tensor.mutable_dims()->RemoveLast();
    break;
  case 4:
    tensor.set_data_location(rng() % 2 ? onnx::TensorProto::EXTERNAL
                                       : onnx::TensorProto::DEFAULT);
    break;
  default: {
    onnx::StringStringEntryProto *entry = tensor.add_external_data();
    static const char *const keys[] = {"location", "offset", "length"};
    static const char *const values[] = {
        "weights.bin", "../weights.bin",      "/etc/passwd", "4", "48",
        "-1",          "99999999999999999999"};
    entry->set_key(keys[rng() % 3]);
    entry->set_value(values[rng() % 7]);
    break;
  }
  }
}

void mutateNode(onnx::GraphProto &graph, std::mt19937_64 &rng) {
  onnx::NodeProto &node = pick(*graph.mutable_node(), rng);
  const std::vector<std::string> &ops = globals().opTypes;
  switch (rng() % 7) {
  case 0:
    node.set_op_type(ops[rng() % ops.size()]);
    break;
  case 1: {
    std::vector<std::string> names = valueNames(graph);
    if (node.input_size() && rng() % 3)
      node.set_input(int(rng() % node.input_size()),
                     names[rng() % names.size()]);
    else if (node.input_size() && rng() % 2)
      node.mutable_input()->RemoveLast();
    else
      node.add_input(rng() % 4 ? names[rng() % names.size()] : "");
    break;
  }
  case 2:
    if (node.output_size() && rng() % 2)
      node.set_output(int(rng() % node.output_size()),
                      rng() % 2 ? "" : "fuzz" + std::to_string(rng() % 4));
    else
      node.add_output("fuzz" + std::to_string(rng() % 4));
    break;
  case 3:
    if (node.attribute_size() && rng() % 4)
      node.mutable_attribute()->DeleteSubrange(
          int(rng() % node.attribute_size()), 1);
    else {
      onnx::AttributeProto *attr = node.add_attribute();
      attr->set_name(kAttributeNames[rng() % (sizeof kAttributeNames /
                                              sizeof *kAttributeNames)]);
      attr->set_type(onnx::AttributeProto::INT);
      attr->set_i(interesting(rng));
    }
    break;
  case 4:
    // A Constant's value, or another tensor attribute.
    for (onnx::AttributeProto &attr : *node.mutable_attribute())
      if (attr.has_t()) {
        mutateTensor(*attr.mutable_t(), rng);
        return;
      }
    [[fallthrough]];
  default:
    if (node.attribute_size())
      mutateAttribute(pick(*node.mutable_attribute(), rng), rng);
    break;
  }
}

/// Changes one field of `model`.
void mutateModel(onnx::ModelProto &model, std::mt19937_64 &rng) {
  onnx::GraphProto &graph = *model.mutable_graph();
  switch (rng() % 10) {
  case 0:
    if (model.opset_import_size())
      pick(*model.mutable_opset_import(), rng)
          .set_version(rng() % 2 ? int64_t(rng() % 20) : interesting(rng));
    return;
  case 1:
    mutateValueInfo(graph, rng);
    return;
  case 2:
    if (graph.initializer_size()) {
      mutateTensor(pick(*graph.mutable_initializer(), rng), rng);
      return;
    }
    break;
  case 3:
    if (graph.node_size()) {
      // Drop a node.
      graph.mutable_node()->DeleteSubrange(int(rng() % graph.node_size()), 1);
      return;
    }
    break;
  case 4:
    if (graph.node_size()) {
      // Duplicate a node (its outputs then clash unless renamed).
      onnx::NodeProto copy = graph.node(int(rng() % graph.node_size()));
      if (rng() % 2)
        for (std::string &output : *copy.mutable_output())
          output += "_dup";
      *graph.add_node() = copy;
      return;
    }
    break;
  case 5:
    if (graph.node_size() > 1) {
      graph.mutable_node()->SwapElements(int(rng() % graph.node_size()),
                                         int(rng() % graph.node_size()));
      return;
    }
    break;
  default:
    break;
  }
  if (graph.node_size())
    mutateNode(graph, rng);
}

} // namespace

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size,
                                          size_t maxSize, unsigned seed) {
  std::mt19937_64 rng(seed);
  onnx::ModelProto model;
  if (rng() % 4 == 0 || !model.ParseFromArray(data, int(size)) ||
      !model.has_graph())
    return LLVMFuzzerMutate(data, size, maxSize);
  mutateModel(model, rng);
  std::string bytes;
  if (!model.SerializeToString(&bytes) || bytes.size() > maxSize)
    return LLVMFuzzerMutate(data, size, maxSize);
  std::memcpy(data, bytes.data(), bytes.size());
  return bytes.size();
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  Globals &g = globals();
  // A context per input: attributes and types uniqued for one input would
  // otherwise pile up over a run.
  mlir::MLIRContext context(g.registry, mlir::MLIRContext::Threading::DISABLED);
  int errors = 0;
  mlir::ScopedDiagnosticHandler quiet(&context, [&](mlir::Diagnostic &diag) {
    errors += diag.getSeverity() == mlir::DiagnosticSeverity::Error;
    return mlir::success();
  });

  kiln::onnx::ImportReport report;
  mlir::OwningOpRef<mlir::ModuleOp> module = kiln::onnx::importOnnxBytes(
      context, llvm::StringRef(reinterpret_cast<const char *>(data), size),
      g.modelPath, kiln::onnx::ImportOptions(), report);
  kiln::onnx::ImportFailure failure = report.failure;
  if (!module) {
    if (failure == kiln::onnx::ImportFailure::kNone)
      fail("import failed without a reason");
    if (errors == 0)
      fail("import failed without an error diagnostic");
    return 0;
  }
  if (failure != kiln::onnx::ImportFailure::kNone)
    fail("a module came back with a failure");
  if (mlir::failed(mlir::verify(*module)))
    fail("the imported module does not verify");
  mlir::PassManager pm(&context);
  pm.addPass(kiln::compiler::createVerifyGraphContractPass());
  if (mlir::failed(pm.run(*module)))
    fail("the imported module breaks the graph contract");

  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os);
  mlir::OwningOpRef<mlir::ModuleOp> reparsed =
      mlir::parseSourceString<mlir::ModuleOp>(text, &context);
  if (!reparsed)
    fail("the imported module does not parse back");
  return 0;
}
