//===- Passes.cpp - Memory planning: bufferise and plan one arena ---------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "compiler/MemoryPlanning/Passes.h"

#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void kiln::compiler::buildBufferizeAndPlanPipeline(OpPassManager &pm) {
  // Destinations become allocations before CSE can merge identical
  // tensor.empty ops (and the fills of them): merged, one buffer would be
  // shared by unrelated tensors, live from the first to the last of them,
  // and the memory planner could not reuse it in between.
  // A padded tensor's producer writes the padded buffer's interior: no
  // buffer of its own, no copy.
  pm.addNestedPass<func::FuncOp>(createWriteIntoPaddedBuffersPass());
  pm.addPass(bufferization::createEmptyTensorEliminationPass());
  pm.addPass(bufferization::createEmptyTensorToAllocTensorPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  // Bufferise whole functions with plain (identity) layouts at their
  // boundaries, so that entry points take ordinary strided buffers.
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  // Without canonicalize + cse here each call keeps a hidden allocation and
  // copy of its results.
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // Results become trailing out-parameters: the caller owns all memory.
  bufferization::BufferResultsToOutParamsPassOptions outParams;
  outParams.hoistStaticAllocs = true;
  outParams.modifyPublicFunctions = true;
  pm.addPass(bufferization::createBufferResultsToOutParamsPass(outParams));
  // The last kernel of each result writes the caller's buffer, not a copy.
  pm.addPass(createElideResultCopiesPass());
  // Intermediates live in one caller-owned, planned arena: kernels never
  // allocate. Here because the execution order and every buffer are final
  // (after out-params), and before deallocation: views of an argument need
  // no dealloc.
  pm.addPass(createPlanMemoryPass());
  bufferization::buildBufferDeallocationPipeline(pm);
  // Strided copies would otherwise call MLIR's runner library.
  pm.addPass(createLowerMemRefCopyPass());
}

void kiln::compiler::registerMemoryPlanningPassesAndPipeline() {
  registerMemoryPlanningPasses();
  PassPipelineRegistration<>(
      "kiln-bufferize-and-plan-pipeline",
      "Bufferise linalg on tensors and place every intermediate buffer in "
      "one planned arena (shared by the CPU and CUDA backends)",
      [](OpPassManager &pm) { buildBufferizeAndPlanPipeline(pm); });
}
