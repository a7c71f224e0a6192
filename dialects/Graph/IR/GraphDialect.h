//===- GraphDialect.h - The kiln graph dialect ------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_GRAPH_IR_GRAPHDIALECT_H
#define KILN_DIALECTS_GRAPH_IR_GRAPHDIALECT_H

#include "mlir/IR/Dialect.h"

#include "dialects/Graph/IR/GraphOpsDialect.h.inc"

#endif // KILN_DIALECTS_GRAPH_IR_GRAPHDIALECT_H
