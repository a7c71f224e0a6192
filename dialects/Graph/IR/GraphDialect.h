//===- GraphDialect.h - The kiln graph dialect ------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_GRAPH_IR_GRAPHDIALECT_H
#define KILN_DIALECTS_GRAPH_IR_GRAPHDIALECT_H

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Dialect.h"

#include "dialects/Graph/IR/GraphOpsDialect.h.inc"

#include "dialects/Graph/IR/GraphEnums.h"

#define GET_ATTRDEF_CLASSES
#include "dialects/Graph/IR/GraphAttrs.h.inc"

namespace kiln {
/// The annotation naming a value's layout over the ranks (a ShardingAttr)
/// on a function argument or a kiln.constant.
inline constexpr llvm::StringLiteral kShardAnnotation = "kiln.shard";

/// Whether `value` is a valid annotation of a value of `type`: a
/// replicated or split #kiln.sharding whose dimension the value has.
mlir::LogicalResult
verifyShardAnnotation(llvm::function_ref<mlir::InFlightDiagnostic()> emitError,
                      mlir::Attribute value, mlir::Type type);
} // namespace kiln

#endif // KILN_DIALECTS_GRAPH_IR_GRAPHDIALECT_H
