//===- Pipelines.h - Kiln's named pass pipelines ----------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The CLI, the C++ API and kiln-opt all build their pipelines here, so every
// stage is reproducible from kiln-opt by its registered name.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_PIPELINES_PIPELINES_H
#define KILN_COMPILER_PIPELINES_PIPELINES_H

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace kiln::compiler {

/// Graph clean-up after import: check the graph contract, then canonicalise
/// (folding constants and shape computations) and remove common
/// subexpressions. Registered as `kiln-cleanup-pipeline`.
void buildCleanupPipeline(mlir::OpPassManager &pm);

/// Registers every named pipeline with the global registry.
void registerPipelines();

} // namespace kiln::compiler

#endif // KILN_COMPILER_PIPELINES_PIPELINES_H
