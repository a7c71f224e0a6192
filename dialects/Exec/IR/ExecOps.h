//===- ExecOps.h - Ops of the exec schedule dialect -------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_EXEC_IR_EXECOPS_H
#define KILN_DIALECTS_EXEC_IR_EXECOPS_H

#include "dialects/Exec/IR/ExecDialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace kiln::exec {
class ProgramOp;
} // namespace kiln::exec

#include "dialects/Exec/IR/ExecOpInterfaces.h.inc"

#define GET_OP_CLASSES
#include "dialects/Exec/IR/ExecOps.h.inc"

#endif // KILN_DIALECTS_EXEC_IR_EXECOPS_H
