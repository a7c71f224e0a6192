//===- EntrySignature.h - Inputs and outputs of a model ---------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// A model's entry point seen from outside: named, typed, shaped inputs and
// outputs. Read from the kiln-level function before lowering (afterwards
// only raw buffers remain) and used to check and marshal user tensors.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_MEMORYPLANNING_ENTRYSIGNATURE_H
#define KILN_COMPILER_MEMORYPLANNING_ENTRYSIGNATURE_H

#include "kiln/runtime/Artifact.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include <string>
#include <vector>

namespace kiln::compiler {

/// Attribute naming an argument or result (set by importers from the model's
/// own names). Without it inputs are "arg<N>" and outputs "result<N>".
inline constexpr llvm::StringLiteral kNameAttr = "kiln.name";
/// Result attributes of an output whose length along `kiln.length_axis` is
/// decided by the data; result `kiln.length_result` (an i64 scalar) holds it
/// (rt::TensorSpec::lengthAxis).
inline constexpr llvm::StringLiteral kLengthAxisAttr = "kiln.length_axis";
inline constexpr llvm::StringLiteral kLengthResultAttr = "kiln.length_result";

/// The entry function's name and its inputs and outputs, described as the
/// artifact format and the runtime describe them.
struct EntrySignature {
  std::string function;
  std::vector<rt::TensorSpec> inputs;
  std::vector<rt::TensorSpec> outputs;
  /// Bytes of the arena the lowered entry takes as its last argument; known
  /// once the module is lowered (see readArenaBytes).
  uint64_t arenaBytes = 0;
};

/// The arena size recorded by kiln-plan-memory on a lowered module.
mlir::FailureOr<uint64_t> readArenaBytes(mlir::ModuleOp loweredModule);

/// The runtime element type of an MLIR element type, if it has one.
std::optional<rt::DType> toDType(mlir::Type type);

/// The name of an output of `module`'s public functions whose length the
/// data decides (kLengthAxisAttr), if any.
std::optional<std::string> outputWithRuntimeLength(mlir::ModuleOp module);

/// Finds the entry function (`entry`, or the only public function when
/// empty) and describes it; errors are emitted on the module.
mlir::FailureOr<EntrySignature> getEntrySignature(mlir::ModuleOp module,
                                                  llvm::StringRef entry);

} // namespace kiln::compiler

#endif // KILN_COMPILER_MEMORYPLANNING_ENTRYSIGNATURE_H
