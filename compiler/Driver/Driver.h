//===- Driver.h - Load, compile and run models ------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The one implementation behind kilnc (and, later, the C++ API): load a
// model file into the kiln dialect, lower it through the named pipelines,
// JIT it for the host CPU. Failures are classified so that every front door
// maps them to the same documented exit codes.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_DRIVER_DRIVER_H
#define KILN_COMPILER_DRIVER_DRIVER_H

#include "compiler/Codegen/CPU/CpuJit.h"
#include "kiln/runtime/Artifact.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"

#include <memory>
#include <string>

namespace kiln::compiler {

/// Why a driver step failed. The CLI's exit codes are these values.
enum class ErrorKind {
  kNone = 0,
  kUsage = 1,        ///< Bad command line.
  kInvalidInput = 2, ///< Malformed model or inputs (parse/verify errors, bad .npy).
  kUnsupported = 3,  ///< Valid, but uses something Kiln cannot compile yet.
  kInternal = 4,     ///< A bug in Kiln.
};

/// A failure with its class; the details were already reported as
/// diagnostics or are in `message`.
struct DriverError {
  ErrorKind kind = ErrorKind::kNone;
  std::string message;
  explicit operator bool() const { return kind != ErrorKind::kNone; }
};

/// How far to lower.
enum class Stage {
  kKiln,   ///< Cleaned-up kiln dialect (contract checked, constants folded).
  kLinalg, ///< linalg/tensor on tensors, before bufferisation.
  kLLVM,   ///< LLVM dialect, ready for the JIT.
};

/// An MLIRContext with every dialect the driver's pipelines create.
std::unique_ptr<mlir::MLIRContext> createContext();

/// Parses `path` (.mlir) into `module`; diagnostics go to the context's
/// handler. ONNX is reported as not supported yet.
DriverError loadModel(mlir::MLIRContext &context, const std::string &path,
                      mlir::OwningOpRef<mlir::ModuleOp> &module);

/// Lowers `module` in place to `stage`.
DriverError lowerTo(mlir::ModuleOp module, Stage stage);

/// Cleans up, lowers and JIT-compiles `module` (consumed) for this CPU.
DriverError compileForCpu(mlir::ModuleOp module, const std::string &entry,
                          std::unique_ptr<CpuJitExecutable> &executable);

/// Cleans up and lowers `module` (consumed), then compiles it ahead of time
/// into a .kiln artifact for this CPU.
DriverError compileToArtifact(mlir::ModuleOp module, const std::string &entry,
                              rt::Artifact &artifact);

} // namespace kiln::compiler

#endif // KILN_COMPILER_DRIVER_DRIVER_H
