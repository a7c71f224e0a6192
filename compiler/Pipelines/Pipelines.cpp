//===- Pipelines.cpp - Kiln's named pass pipelines ------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "compiler/Pipelines/Pipelines.h"
#include "kiln/PassPlugin.h"

#include "compiler/Codegen/CPU/CpuCodegen.h"
#include "compiler/Codegen/CUDA/CudaCodegen.h"
#include "compiler/Contracts/Passes.h"
#include "compiler/Fusion/Passes.h"
#include "compiler/GraphTransforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void kiln::compiler::buildCleanupPipeline(OpPassManager &pm) {
  // Check first: the canonicaliser assumes verifier-valid, contract-valid IR
  // and the user deserves an error about their model, not about a pattern.
  pm.addPass(createVerifyGraphContractPass());
  // Folding runs to a fixpoint so that ONNX shape subgraphs collapse fully.
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void kiln::compiler::buildFusionPipeline(OpPassManager &pm) {
  pm.addNestedPass<func::FuncOp>(createFormFusionGroupsPass());
}

namespace {
/// The graph stages both devices share: a model is checked and cleaned
/// before anything groups it, and grouped before it is lowered.
void buildGraphStages(OpPassManager &pm,
                      const kiln::compiler::ModelPipelineOptions &options) {
  kiln::compiler::buildCleanupPipeline(pm);
  pm.addPass(kiln::compiler::createLowerUnsignedPass());
  if (options.fusion)
    kiln::compiler::buildFusionPipeline(pm);
}
} // namespace

void kiln::compiler::buildCpuPipeline(OpPassManager &pm,
                                      const ModelPipelineOptions &options) {
  buildGraphStages(pm, options);
  buildCpuCodegenPipeline(pm);
}

void kiln::compiler::buildCudaPipeline(OpPassManager &pm,
                                       const ModelPipelineOptions &options) {
  buildGraphStages(pm, options);
  cuda::buildCudaPreparationPipeline(pm);
}

void kiln::compiler::registerPipelines() {
  PassPipelineRegistration<>(
      "kiln-cleanup-pipeline",
      "Check the graph contract, fold constants and remove duplicates",
      [](OpPassManager &pm) { buildCleanupPipeline(pm); });
  PassPipelineRegistration<>(
      "kiln-fusion-pipeline",
      "Group graph ops into kiln.fusion ops, one kernel each",
      [](OpPassManager &pm) { buildFusionPipeline(pm); });
  PassPipelineRegistration<ModelPipelineOptions>(
      "kiln-cpu-pipeline",
      "A whole model for the CPU: clean-up, fusion, linalg, the memory plan, "
      "dispatches and their exec.program, LLVM",
      buildCpuPipeline);
  PassPipelineRegistration<ModelPipelineOptions>(
      "kiln-cuda-pipeline",
      "A whole model for CUDA up to the emitter's input: clean-up, fusion, "
      "linalg.generic on planned buffers",
      buildCudaPipeline);
}

const char *kiln::pipelinePointName(PipelinePoint point) {
  switch (point) {
  case PipelinePoint::kAfterImport:
    return "after-import";
  case PipelinePoint::kBeforeFusion:
    return "before-fusion";
  case PipelinePoint::kAfterFusion:
    return "after-fusion";
  case PipelinePoint::kBeforeCodegen:
    return "before-codegen";
  }
  return "unknown";
}
