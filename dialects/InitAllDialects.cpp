//===- InitAllDialects.cpp - Register every Kiln dialect ------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dialects/InitAllDialects.h"

#include "dialects/Exec/IR/ExecDialect.h"
#include "dialects/Graph/IR/GraphDialect.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"

void kiln::registerAllDialects(mlir::DialectRegistry &registry) {
  // The frontend's output contract: kiln + func (+ builtin).
  registry.insert<kiln::KilnDialect, mlir::func::FuncDialect>();
  // The execution level: schedules of dispatches (docs/execution-model.md).
  registry.insert<kiln::exec::KilnExecDialect>();
}
