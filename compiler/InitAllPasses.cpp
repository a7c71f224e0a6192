//===- InitAllPasses.cpp - Register every Kiln pass and pipeline ----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "compiler/InitAllPasses.h"

#include "compiler/Codegen/CPU/CpuCodegen.h"
#include "compiler/Codegen/CUDA/CudaCodegen.h"
#include "compiler/Contracts/Passes.h"
#include "compiler/Fusion/Passes.h"
#include "compiler/GraphTransforms/Passes.h"
#include "compiler/Sharding/Passes.h"
#include "compiler/Conversion/GraphToLinalg/Passes.h"
#include "compiler/Pipelines/Pipelines.h"
#include "compiler/Scheduling/Passes.h"
#include "mlir/Transforms/Passes.h"

void kiln::registerAllPasses() {
  // Upstream: canonicalize, cse, inline, symbol-dce, ... (used by pipelines).
  mlir::registerTransformsPasses();
  kiln::compiler::registerContractsPasses();
  kiln::compiler::registerFusionPasses();
  kiln::compiler::registerGraphTransformsPasses();
  kiln::compiler::registerShardingPasses();
  kiln::compiler::registerGraphToLinalgPasses();
  kiln::compiler::registerPipelines();
  kiln::compiler::registerSchedulingPasses();
  kiln::compiler::registerCpuCodegenPasses();
  kiln::compiler::cuda::registerCudaCodegenPasses();
}
