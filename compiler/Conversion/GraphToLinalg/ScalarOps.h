//===- ScalarOps.h - Scalar semantics of kiln elementwise ops ---*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// What one element of a kiln elementwise op computes, as arith/math ops.
// The tensor-level lowering only decides the iteration; these functions
// decide the arithmetic, in one table per kind (unary, binary, compare,
// cast). Floats and integers are told apart by the element type.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_CONVERSION_GRAPHTOLINALG_SCALAROPS_H
#define KILN_COMPILER_CONVERSION_GRAPHTOLINALG_SCALAROPS_H

#include "dialects/Graph/IR/GraphEnums.h"
#include "mlir/IR/Builders.h"

namespace kiln::compiler::lowering {

/// One element of a kiln unary op (`op`), or null if `op` is not one.
mlir::Value emitUnary(mlir::OpBuilder &b, mlir::Location loc,
                      mlir::Operation *op, mlir::Value x);

/// One element of a kiln binary op (`op`), or null if `op` is not one.
mlir::Value emitBinary(mlir::OpBuilder &b, mlir::Location loc,
                       mlir::Operation *op, mlir::Value lhs, mlir::Value rhs);

/// `lhs <predicate> rhs` as i1 (ordered float comparisons except `ne`).
mlir::Value emitCompare(mlir::OpBuilder &b, mlir::Location loc,
                        ComparePredicate predicate, mlir::Value lhs,
                        mlir::Value rhs);

/// `x` converted to `to` with kiln.cast's rules.
mlir::Value emitCast(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                     mlir::Type to);

/// Arithmetic shared by several lowerings (float or integer by type).
mlir::Value emitAdd(mlir::OpBuilder &b, mlir::Location loc, mlir::Value lhs,
                    mlir::Value rhs);
mlir::Value emitSub(mlir::OpBuilder &b, mlir::Location loc, mlir::Value lhs,
                    mlir::Value rhs);
mlir::Value emitMul(mlir::OpBuilder &b, mlir::Location loc, mlir::Value lhs,
                    mlir::Value rhs);
mlir::Value emitDiv(mlir::OpBuilder &b, mlir::Location loc, mlir::Value lhs,
                    mlir::Value rhs);
/// NaN-propagating maximum/minimum for floats, signed for integers.
mlir::Value emitMax(mlir::OpBuilder &b, mlir::Location loc, mlir::Value lhs,
                    mlir::Value rhs);
mlir::Value emitMin(mlir::OpBuilder &b, mlir::Location loc, mlir::Value lhs,
                    mlir::Value rhs);

} // namespace kiln::compiler::lowering

#endif // KILN_COMPILER_CONVERSION_GRAPHTOLINALG_SCALAROPS_H
