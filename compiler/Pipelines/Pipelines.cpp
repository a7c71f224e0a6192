//===- Pipelines.cpp - Kiln's named pass pipelines ------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "compiler/Pipelines/Pipelines.h"
#include "kiln/PassPlugin.h"

#include "compiler/Contracts/Passes.h"
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

void kiln::compiler::registerPipelines() {
  PassPipelineRegistration<>(
      "kiln-cleanup-pipeline",
      "Check the graph contract, fold constants and remove duplicates",
      [](OpPassManager &pm) { buildCleanupPipeline(pm); });
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
