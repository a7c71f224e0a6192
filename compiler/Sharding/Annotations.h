//===- Annotations.h - Users' sharding annotations by name ------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// `kilnc --shard NAME=LAYOUT`: NAME is a model input (its `kiln.name`), a
// weight (an ONNX initializer) or a node (the op's name location); LAYOUT
// is `split(D)`, `split:D` or `replicated`. Each becomes a `kiln.shard`
// annotation, which kiln-shard honours.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_SHARDING_ANNOTATIONS_H
#define KILN_COMPILER_SHARDING_ANNOTATIONS_H

#include "mlir/IR/BuiltinOps.h"

#include <optional>
#include <string>
#include <vector>

namespace kiln::compiler::sharding {

struct ShardAnnotation {
  std::string name;
  /// The split dimension; nullopt for replicated.
  std::optional<int64_t> splitDim;
};

/// Parses NAME=LAYOUT; the error says what is wrong.
std::optional<ShardAnnotation> parseShardAnnotation(const std::string &text,
                                                    std::string &error);

/// Attaches each annotation to the function argument, constant or op of
/// that name (every one that has it). A name that matches nothing, or an
/// annotation the value cannot take, is an error on the module.
mlir::LogicalResult
annotateShardings(mlir::ModuleOp module,
                  const std::vector<ShardAnnotation> &annotations);

} // namespace kiln::compiler::sharding

#endif // KILN_COMPILER_SHARDING_ANNOTATIONS_H
