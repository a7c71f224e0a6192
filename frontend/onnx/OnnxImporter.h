//===- OnnxImporter.h - ONNX models into the kiln dialect -------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Reads an ONNX model (protobuf) and builds a module with one public
// function in the kiln dialect, meeting the graph contract: static shapes,
// only kiln + func ops, every op located at its ONNX node.
//
// The file is untrusted input. Malformed models get a located error, never a
// crash; unsupported operators are all listed at once, before anything else
// fails.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_FRONTEND_ONNX_ONNXIMPORTER_H
#define KILN_FRONTEND_ONNX_ONNXIMPORTER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <map>
#include <string>
#include <vector>

namespace kiln::onnx {

struct ImportOptions {
  /// Shapes for model inputs with symbolic or unknown dimensions, by name
  /// (`--input-shape ids=1x128`). A given shape must agree with every fixed
  /// dimension of the model.
  std::map<std::string, std::vector<int64_t>> inputShapes;
  /// Inputs fixed to a value at compile time (`--bind shape=shape.npy`):
  /// they become constants and leave the compiled model's inputs. This is
  /// how inputs that feed shapes (Reshape's shape, Slice's bounds...) are
  /// given to a compiler of static shapes.
  std::map<std::string, mlir::DenseElementsAttr> boundInputs;
  /// Rows on axis 0 of every input (`kilnc --batch-sizes`); 0: as the model
  /// or --input-shape says. The model must leave axis 0 symbolic (or fix it
  /// at this size); it replaces axis 0 of a given --input-shape.
  int64_t batchSize = 0;
};

/// Why an import failed (the details were emitted as diagnostics).
enum class ImportFailure {
  kNone,
  kInvalidModel, ///< Malformed, inconsistent or unreadable model.
  kUnsupported,  ///< A valid model using operators Kiln does not support.
};

/// What an import found out besides the module: why it failed, and what a
/// JIT needs to know to retry with the model's inputs in hand.
struct ImportReport {
  ImportFailure failure = ImportFailure::kNone;
  /// The graph's inputs (initializers excluded) in order, once the model
  /// parsed: the positions a caller passes run-time values in.
  std::vector<std::string> graphInputs;
  /// Graph inputs whose values the failing node needs at compile time: the
  /// inputs a non-constant shape operand is computed from. Binding them
  /// (ImportOptions::boundInputs) gets past that node.
  std::vector<std::string> compileTimeInputs;
  /// Graph inputs the import stopped at because a dimension is symbolic or
  /// missing: ImportOptions::inputShapes gets past them.
  std::vector<std::string> inputsWithoutShape;
};

/// Imports the model at `path`. On failure returns null; `report` says why.
mlir::OwningOpRef<mlir::ModuleOp> importOnnxFile(mlir::MLIRContext &context,
                                                 const std::string &path,
                                                 const ImportOptions &options,
                                                 ImportReport &report);

/// Registers the dialects an imported module contains.
/// Imports a serialised ModelProto held in memory. `name` stands for the
/// model file in locations and messages; external data is looked up in its
/// folder (the current directory when it has none).
mlir::OwningOpRef<mlir::ModuleOp> importOnnxBytes(mlir::MLIRContext &context,
                                                  llvm::StringRef bytes,
                                                  const std::string &name,
                                                  const ImportOptions &options,
                                                  ImportReport &report);

void registerOnnxImportDialects(mlir::DialectRegistry &registry);

} // namespace kiln::onnx

#endif // KILN_FRONTEND_ONNX_ONNXIMPORTER_H
