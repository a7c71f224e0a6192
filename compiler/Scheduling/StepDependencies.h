//===- StepDependencies.h - Which steps must wait for which -----*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_SCHEDULING_STEPDEPENDENCIES_H
#define KILN_COMPILER_SCHEDULING_STEPDEPENDENCIES_H

#include "dialects/Exec/IR/ExecDialect.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

namespace kiln::compiler {

/// For steps in execution order with the buffers each binds: for each step,
/// the earlier steps it must wait for. Step j waits for step i < j when
/// they bind overlapping bytes and at least one of them writes them (a
/// true, anti or output dependency). Edges that others imply transitively
/// are dropped, so the lists stay short.
llvm::SmallVector<llvm::SmallVector<unsigned>> computeStepDependencies(
    llvm::ArrayRef<llvm::SmallVector<exec::BindingAttr>> bindings);

} // namespace kiln::compiler

#endif // KILN_COMPILER_SCHEDULING_STEPDEPENDENCIES_H
