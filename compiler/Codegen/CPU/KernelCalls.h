//===- KernelCalls.h - Calls from generated code into the kernel library --===//
//
// SPDX-License-Identifier: Apache-2.0
//
// What the passes that replace a loop nest by a call into the CPU kernel
// library (Kernels/) share: finding the constant global a view reads,
// declaring a kernel, and passing views as address + strides.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_CODEGEN_CPU_KERNELCALLS_H
#define KILN_COMPILER_CODEGEN_CPU_KERNELCALLS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

namespace kiln::compiler {

/// The constant global (with a dense initial value) `view` is a slice of,
/// through subviews and casts; null if none.
mlir::memref::GlobalOp constantSource(mlir::Value view,
                                      mlir::SymbolTable &symbols);

/// A private constant global `name` holding `bytes` (i8, 64-byte aligned),
/// inserted before `anchor`.
mlir::memref::GlobalOp createByteGlobal(mlir::Operation *anchor,
                                        llvm::StringRef name,
                                        llvm::ArrayRef<int8_t> bytes,
                                        mlir::SymbolTable &symbols);

/// The declaration of kernel `name` taking `arguments`, made once.
mlir::func::FuncOp declareKernel(mlir::ModuleOp module, llvm::StringRef name,
                                 llvm::ArrayRef<mlir::Type> arguments,
                                 mlir::SymbolTable &symbols);

/// Builds the address and strides of views for a kernel call before an op.
class KernelCallBuilder {
public:
  explicit KernelCallBuilder(mlir::Operation *op);

  mlir::Value constant(int64_t value);
  mlir::Value asI64(mlir::Value index);

  /// The address of a view's first element and its strides (elements).
  struct View {
    mlir::Value address;
    llvm::SmallVector<mlir::Value> strides;
  };
  View describe(mlir::Value view, int64_t elementBytes);

  /// The offset (elements) of a view into its base buffer.
  mlir::Value offsetOf(mlir::Value view);

  mlir::Value addressOf(mlir::memref::GlobalOp global);

  mlir::OpBuilder b;
  mlir::Location loc;
  mlir::Type pointer;
};

} // namespace kiln::compiler

#endif // KILN_COMPILER_CODEGEN_CPU_KERNELCALLS_H
