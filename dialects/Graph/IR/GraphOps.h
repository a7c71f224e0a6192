//===- GraphOps.h - Ops of the kiln graph dialect ---------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_GRAPH_IR_GRAPHOPS_H
#define KILN_DIALECTS_GRAPH_IR_GRAPHOPS_H

#include "dialects/Graph/IR/GraphDialect.h"
#include "dialects/Graph/IR/TypeInference.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "dialects/Graph/IR/GraphEnums.h"

#define GET_OP_CLASSES
#include "dialects/Graph/IR/GraphOps.h.inc"

#endif // KILN_DIALECTS_GRAPH_IR_GRAPHOPS_H
