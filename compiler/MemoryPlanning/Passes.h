//===- Passes.h - Memory planning passes ------------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Bufferisation, result-copy elision and the one-arena memory plan: what the
// CPU and CUDA backends share before their code generators run.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_MEMORYPLANNING_PASSES_H
#define KILN_COMPILER_MEMORYPLANNING_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir {
class OpPassManager;
} // namespace mlir
namespace mlir::linalg {
class LinalgDialect;
} // namespace mlir::linalg
namespace mlir::arith {
class ArithDialect;
} // namespace mlir::arith
namespace mlir::memref {
class MemRefDialect;
} // namespace mlir::memref
namespace mlir::tensor {
class TensorDialect;
} // namespace mlir::tensor
namespace mlir::func {
class FuncOp;
} // namespace mlir::func

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
#include "compiler/MemoryPlanning/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "compiler/MemoryPlanning/Passes.h.inc"

/// Appends linalg on tensors -> linalg on buffers with every intermediate
/// in one planned arena (kiln-plan-memory) and copies as linalg.copy: the
/// part of code generation the CPU and CUDA backends share. Registered as
/// `kiln-bufferize-and-plan-pipeline`.
void buildBufferizeAndPlanPipeline(mlir::OpPassManager &pm);

/// Registers the passes above and the pipeline, with the upstream
/// bufferisation passes it is made of.
void registerMemoryPlanningPassesAndPipeline();

} // namespace kiln::compiler

#endif // KILN_COMPILER_MEMORYPLANNING_PASSES_H
