//===- ScalarCode.h - Scalar MLIR ops as CUDA C++ -----------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The body of a linalg.generic (arith, math, select, casts, linalg.index,
// memref.load) printed as CUDA C++ statements, one `T vN = expr;` per op.
// Op spellings live in one table (ScalarCode.cpp); f16/bf16 values are held
// in float registers, rounded when an op truncates to them.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_CODEGEN_CUDA_SCALARCODE_H
#define KILN_COMPILER_CODEGEN_CUDA_SCALARCODE_H

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <string>

namespace kiln::compiler::cuda {

/// The C++ type a value of `type` is computed in ("float" for f16 too).
std::string computeType(mlir::Type type);
/// The C++ type a buffer of `type` stores ("__half" for f16).
std::string storageType(mlir::Type type);
/// `expr` (a storage value) converted to the compute type.
std::string loadAs(mlir::Type type, const std::string &expr);
/// `expr` (a compute value) converted to the storage type.
std::string storeAs(mlir::Type type, const std::string &expr);
/// Whether values of `type` need cuda_fp16.h / cuda_bf16.h.
bool needsHalfHeaders(mlir::Type type);
/// A C++ literal of `attr` (an integer or float attribute) as `type`.
std::string literal(mlir::Attribute attr, mlir::Type type);

/// An affine expression as C++, dims and symbols replaced by the given
/// expressions; division and modulo round as affine maps define them.
std::string affineText(mlir::AffineExpr expr,
                       llvm::ArrayRef<std::string> dims,
                       llvm::ArrayRef<std::string> symbols = {});

/// Prints scalar ops. Values are bound to C++ expressions (block arguments,
/// loop indices) or to the variables it declares.
class ScalarCode {
public:
  /// Turns a memref.load's buffer and C++ index expressions into an lvalue
  /// expression; empty on failure (it reported the error).
  using LoadHook = std::function<std::string(
      mlir::Value memref, llvm::ArrayRef<std::string> indices)>;

  ScalarCode(llvm::raw_ostream &os, std::string indent, std::string prefix,
             LoadHook load)
      : os_(os), indent_(std::move(indent)), prefix_(std::move(prefix)),
        load_(std::move(load)) {}

  void bind(mlir::Value value, std::string expr) {
    names_[value] = std::move(expr);
  }
  /// The expression of `value`: bound, or an outside arith.constant.
  mlir::FailureOr<std::string> valueOf(mlir::Value value);
  /// Prints `op`; errors are emitted on `op`.
  mlir::LogicalResult emit(mlir::Operation *op);
  /// Prints every op of `block` but its terminator.
  mlir::LogicalResult emitBlock(mlir::Block &block,
                                mlir::Operation *skip = nullptr);

  /// `a combine b` for the reduction combiners Kiln recognises ("" if not).
  static std::string combine(mlir::Operation *combiner, const std::string &a,
                             const std::string &b);
  /// The identity of a recognised combiner as a literal ("" if none).
  static std::string identity(mlir::Operation *combiner);

private:
  mlir::FailureOr<std::string> expression(mlir::Operation *op);

  llvm::raw_ostream &os_;
  std::string indent_;
  std::string prefix_;
  LoadHook load_;
  llvm::DenseMap<mlir::Value, std::string> names_;
  unsigned next_ = 0;
};

} // namespace kiln::compiler::cuda

#endif // KILN_COMPILER_CODEGEN_CUDA_SCALARCODE_H
