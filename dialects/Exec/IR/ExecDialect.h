//===- ExecDialect.h - The exec schedule dialect ----------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_EXEC_IR_EXECDIALECT_H
#define KILN_DIALECTS_EXEC_IR_EXECDIALECT_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/Types.h"

#include "dialects/Exec/IR/ExecOpsDialect.h.inc"

#include "dialects/Exec/IR/ExecEnums.h.inc"

#define GET_TYPEDEF_CLASSES
#include "dialects/Exec/IR/ExecOpsTypes.h.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/Exec/IR/ExecAttrs.h.inc"

#endif // KILN_DIALECTS_EXEC_IR_EXECDIALECT_H
