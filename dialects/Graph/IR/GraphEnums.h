//===- GraphEnums.h - Enumerations of the kiln dialect ----------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_GRAPH_IR_GRAPHENUMS_H
#define KILN_DIALECTS_GRAPH_IR_GRAPHENUMS_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/StringRef.h"
#include <optional>

#include "dialects/Graph/IR/GraphEnums.h.inc"

#endif // KILN_DIALECTS_GRAPH_IR_GRAPHENUMS_H
