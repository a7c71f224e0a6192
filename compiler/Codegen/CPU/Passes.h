//===- Passes.h - CPU code generation passes --------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_CODEGEN_CPU_PASSES_H
#define KILN_COMPILER_CODEGEN_CPU_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir::linalg {
class LinalgDialect;
} // namespace mlir::linalg
namespace mlir::arith {
class ArithDialect;
} // namespace mlir::arith
namespace mlir::memref {
class MemRefDialect;
} // namespace mlir::memref
namespace mlir::affine {
class AffineDialect;
} // namespace mlir::affine
namespace mlir::func {
class FuncOp;
} // namespace mlir::func
namespace mlir::math {
class MathDialect;
} // namespace mlir::math
namespace mlir::scf {
class SCFDialect;
} // namespace mlir::scf
namespace mlir::vector {
class VectorDialect;
} // namespace mlir::vector

namespace kiln::compiler {

/// Module attribute holding the arena size in bytes (see PlanMemory).
inline constexpr llvm::StringLiteral kArenaBytesAttr = "kiln.arena_bytes";

/// Function attribute: bytes of the graph's intermediate tensors, one
/// buffer each (see RecordGraphTensorBytes); kiln-plan-memory consumes it.
inline constexpr llvm::StringLiteral kGraphTensorBytesAttr =
    "kiln.graph_tensor_bytes";

/// Alignment of every buffer in the arena (a cache line; enough for AVX-512
/// loads).
inline constexpr int64_t kArenaAlignment = 64;

#define GEN_PASS_DECL
#include "compiler/Codegen/CPU/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "compiler/Codegen/CPU/Passes.h.inc"

} // namespace kiln::compiler

#endif // KILN_COMPILER_CODEGEN_CPU_PASSES_H
