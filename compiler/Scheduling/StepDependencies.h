//===- StepDependencies.h - Which steps must wait for which -----*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_SCHEDULING_STEPDEPENDENCIES_H
#define KILN_COMPILER_SCHEDULING_STEPDEPENDENCIES_H

#include "dialects/Exec/IR/ExecDialect.h"
#include "mlir/IR/Location.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <array>
#include <optional>
#include <string>

namespace kiln::exec {
class ProgramOp;
} // namespace kiln::exec

namespace kiln::compiler {

/// For steps in execution order with the buffers each binds: for each step,
/// the earlier steps it must wait for. Step j waits for step i < j when
/// they bind overlapping bytes and at least one of them writes them (a
/// true, anti or output dependency). Edges that others imply transitively
/// are dropped, so the lists stay short.
llvm::SmallVector<llvm::SmallVector<unsigned>> computeStepDependencies(
    llvm::ArrayRef<llvm::SmallVector<exec::BindingAttr>> bindings);

/// A collective step instead of a dispatch: bindings are [send, recv].
struct CollectiveSpec {
  exec::CollectiveKind kind;
  exec::ReductionKind reduction;
  int32_t ranks = 1;
  mlir::Type element;
};

/// One dispatch (or collective) to schedule.
struct DispatchSpec {
  mlir::Location loc;
  std::string callee;
  std::array<int32_t, 3> grid = {1, 1, 1};
  std::optional<std::array<int32_t, 3>> block; ///< CUDA only.
  int32_t sharedBytes = 0;
  llvm::SmallVector<exec::BindingAttr> bindings;
  /// Debug information: the typed buffers the kernel computes.
  std::vector<exec::BindingAttr> results;
  std::vector<mlir::Type> resultElements;
  /// Arithmetic operations of the whole dispatch, when known.
  std::optional<int64_t> flops;
  /// Set for a collective step (no callee).
  std::optional<CollectiveSpec> collective;
};

/// Fills the (empty) body of `program` with one exec.dispatch (or
/// exec.collective) per spec, in
/// order, each after the earlier ones computeStepDependencies says it
/// must wait for. What both backends' schedules are made of.
void populateDispatches(exec::ProgramOp program,
                        llvm::ArrayRef<DispatchSpec> dispatches);

} // namespace kiln::compiler

#endif // KILN_COMPILER_SCHEDULING_STEPDEPENDENCIES_H
