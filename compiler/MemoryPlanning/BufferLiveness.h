//===- BufferLiveness.h - Lifetimes of a function's buffers -----*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The MLIR half of memory planning: finds the statically shaped allocations
// of a bufferised function, their lifetimes in the execution order (the
// function body's top-level ops) and the in-place reuses that are legal.
// The rules are in docs/memory-planning.md.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_MEMORYPLANNING_BUFFERLIVENESS_H
#define KILN_COMPILER_MEMORYPLANNING_BUFFERLIVENESS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

#include <string>

namespace kiln::compiler {

/// One allocation to place in the arena.
struct BufferLifetime {
  mlir::memref::AllocOp alloc;
  uint64_t bytes = 0;
  /// First and last step (index of a top-level op) that touch the buffer or
  /// a view of it; the last step is the final one if the buffer escapes.
  int64_t firstUse = 0;
  int64_t lastUse = 0;
  /// The top-level op at `firstUse`: the one that writes the buffer first.
  mlir::Operation *producer = nullptr;
  /// Returned, captured, or used by an op we cannot see through.
  bool escapes = false;
  /// Index of a buffer whose storage this one may take over, or -1.
  int64_t reuses = -1;
};

/// A function's execution order and buffers.
struct FunctionBuffers {
  llvm::SmallVector<mlir::Operation *> steps;
  llvm::SmallVector<BufferLifetime> buffers;
  /// Top-level ops that become a loop nest: linalg ops and copies.
  int64_t kernels = 0;
};

/// Analyses `function`. Fails (with an error on the function) only for
/// buffers whose size does not fit in 63 bits.
mlir::FailureOr<FunctionBuffers> analyzeBuffers(mlir::func::FuncOp function);

/// A short description of `loc` for reports: the name of a NameLoc (an ONNX
/// node), "file:line:col" of a file location, fused parts joined by '+'.
std::string describeLocation(mlir::Location loc);

} // namespace kiln::compiler

#endif // KILN_COMPILER_MEMORYPLANNING_BUFFERLIVENESS_H
