//===- ReadPosition.h - Where a vector read starts --------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Rewrites that read a transfer's bytes another way (a widened contiguous
// load, a prefetch ahead of it) need the buffer behind its view and the
// element it starts at.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_CODEGEN_CPU_READPOSITION_H
#define KILN_COMPILER_CODEGEN_CPU_READPOSITION_H

#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"

namespace kiln::compiler {

struct ReadPosition {
  /// The base buffer of the read's view (a 0-d memref).
  mlir::Value base;
  /// The element the read starts at, counted from `base`: the view's
  /// offset plus each index times its stride.
  mlir::Value element;
};

/// `read`'s position, computed in front of the builder's insertion point.
ReadPosition readPosition(mlir::OpBuilder &b,
                          mlir::vector::TransferReadOp read);

} // namespace kiln::compiler

#endif // KILN_COMPILER_CODEGEN_CPU_READPOSITION_H
