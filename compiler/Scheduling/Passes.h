//===- Passes.h - Scheduling passes ------------------------------*- C++
//-*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_SCHEDULING_PASSES_H
#define KILN_COMPILER_SCHEDULING_PASSES_H

#include "dialects/Exec/IR/ExecDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace kiln::compiler {

/// `exec.interface` on public functions: [inputs, results].
inline constexpr llvm::StringLiteral kEntryInterfaceAttr = "exec.interface";

/// What kiln-record-entry-interface recorded on `function`, if it is a
/// well-formed [inputs, results] pair.
struct EntryInterface {
  unsigned inputs = 0;
  unsigned results = 0;
};
std::optional<EntryInterface> readEntryInterface(mlir::Operation *function);

#define GEN_PASS_DECL
#include "compiler/Scheduling/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "compiler/Scheduling/Passes.h.inc"

} // namespace kiln::compiler

#endif // KILN_COMPILER_SCHEDULING_PASSES_H
