//===- Pipelines.h - Kiln's named pass pipelines ----------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The CLI, the C++ API and kiln-opt all build their pipelines here, so every
// stage is reproducible from kiln-opt by its registered name:
//
//   kiln-cpu-pipeline  = kiln-cleanup-pipeline, kiln-fusion-pipeline,
//                        kiln-cpu-codegen-pipeline (kiln-convert-graph-to-
//                        linalg, kiln-fuse-group-loops,
//                        kiln-bufferize-and-plan-pipeline, kiln-form-kernels,
//                        kiln-form-cpu-dispatches,
//                        kiln-cpu-lower-to-llvm-pipeline)
//   kiln-cuda-pipeline = kiln-cleanup-pipeline, kiln-fusion-pipeline,
//                        kiln-cuda-prepare-pipeline (kiln-convert-graph-to-
//                        linalg, kiln-fuse-group-loops,
//                        kiln-bufferize-and-plan-pipeline, generic ops,
//                        kiln-form-kernels, kiln-verify-cuda-kernels), then
//                        the printer (kilnc --emit=cuda; kiln-translate
//                        --kiln-mlir-to-cuda replays it from a .mlir file)
//
// The driver runs the same stages one by one, with plugin passes between
// them (kiln/PassPlugin.h).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_PIPELINES_PIPELINES_H
#define KILN_COMPILER_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace kiln::compiler {

/// Options of the whole-model pipelines (kiln-cpu-pipeline,
/// kiln-cuda-pipeline): `kiln-opt --kiln-cpu-pipeline=fusion=false`.
struct ModelPipelineOptions
    : public mlir::PassPipelineOptions<ModelPipelineOptions> {
  Option<bool> fusion{*this, "fusion",
                      llvm::cl::desc("Form fusion groups (off: one kernel "
                                     "per op, for A/B comparisons)"),
                      llvm::cl::init(true)};
};

/// Graph clean-up after import: check the graph contract, then canonicalise
/// (folding constants and shape computations) and remove common
/// subexpressions. Registered as `kiln-cleanup-pipeline`.
void buildCleanupPipeline(mlir::OpPassManager &pm);

/// Groups graph ops into kiln.fusion ops, one kernel each. Registered as
/// `kiln-fusion-pipeline`.
void buildFusionPipeline(mlir::OpPassManager &pm);

/// Graph -> LLVM dialect with an exec.program per entry. Registered as
/// `kiln-cpu-pipeline`.
void buildCpuPipeline(mlir::OpPassManager &pm,
                      const ModelPipelineOptions &options);

/// Graph -> linalg.generic on planned buffers, the CUDA emitter's input.
/// Registered as `kiln-cuda-pipeline`.
void buildCudaPipeline(mlir::OpPassManager &pm,
                       const ModelPipelineOptions &options);

/// Registers every named pipeline with the global registry.
void registerPipelines();

} // namespace kiln::compiler

#endif // KILN_COMPILER_PIPELINES_PIPELINES_H
