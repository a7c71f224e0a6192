//===- Pipelines.cpp - Kiln's named pass pipelines ------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "compiler/Pipelines/Pipelines.h"

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
