//===- CpuCodegen.cpp - Lowering kiln graphs to native CPU code -----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "compiler/Codegen/CPU/CpuCodegen.h"
#include "compiler/Codegen/CPU/RegisterTile.h"
#include "compiler/MemoryPlanning/CommunicateBufferization.h"

#include "compiler/Codegen/CPU/Passes.h"
#include "compiler/MemoryPlanning/Passes.h"
#include "compiler/Conversion/GraphToLinalg/Passes.h"
#include "compiler/Fusion/Passes.h"
#include "compiler/Scheduling/Passes.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVM.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/FuncBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Linalg/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void kiln::compiler::registerCpuCodegenDialects(DialectRegistry &registry) {
  registry.insert<affine::AffineDialect, arith::ArithDialect,
                  bufferization::BufferizationDialect, cf::ControlFlowDialect,
                  func::FuncDialect, index::IndexDialect, LLVM::LLVMDialect,
                  linalg::LinalgDialect, math::MathDialect,
                  memref::MemRefDialect, scf::SCFDialect, tensor::TensorDialect,
                  ub::UBDialect, vector::VectorDialect>();
  // One-shot bufferisation of the ops our lowering produces.
  arith::registerBufferizableOpInterfaceExternalModels(registry);
  linalg::registerBufferizableOpInterfaceExternalModels(registry);
  tensor::registerBufferizableOpInterfaceExternalModels(registry);
  bufferization::func_ext::registerBufferizableOpInterfaceExternalModels(
      registry);
  registerCommunicateBufferization(registry);
  // convert-to-llvm and the translation to LLVM IR.
  registerConvertFuncToLLVMInterface(registry);
  arith::registerConvertArithToLLVMInterface(registry);
  cf::registerConvertControlFlowToLLVMInterface(registry);
  registerConvertMemRefToLLVMInterface(registry);
  registerConvertMathToLLVMInterface(registry);
  index::registerConvertIndexToLLVMInterface(registry);
  ub::registerConvertUBToLLVMInterface(registry);
  vector::registerConvertVectorToLLVMInterface(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
}

void kiln::compiler::registerCpuCodegenPasses() {
  bufferization::registerBufferizationPasses();
  registerLinalgPasses();
  memref::registerMemRefPasses();
  bufferization::registerBufferizationPipelines();
  registerConversionPasses();
  registerCpuLoweringPasses();
  registerMemoryPlanningPassesAndPipeline();
  PassPipelineRegistration<>(
      "kiln-cpu-codegen-pipeline",
      "Lower kiln graph ops to the LLVM dialect for the CPU: linalg, the "
      "memory plan, dispatches and their exec.program, then LLVM",
      [](OpPassManager &pm) { buildCpuCodegenPipeline(pm); });
  PassPipelineRegistration<>(
      "kiln-cpu-lower-to-llvm-pipeline",
      "Tile, vectorise and lower CPU dispatch functions (linalg on planned "
      "buffers) to the LLVM dialect",
      [](OpPassManager &pm) { buildCpuLowerToLLVMPipeline(pm); });
}

void kiln::compiler::buildCpuCodegenPipeline(OpPassManager &pm,
                                             bool stepPerKernel,
                                             uint64_t rawConstantBytes) {
  // Counted on the graph: lowering removes tensors (docs/memory-planning.md).
  pm.addPass(createRecordGraphTensorBytesPass());
  // Which parameters are inputs and which outputs, before bufferisation
  // makes every result a parameter.
  pm.addPass(createRecordEntryInterfacePass());
  // Convolution weights packed for the register tile kiln-vectorize-linalg
  // will choose (RegisterTile.h).
  ConvertGraphToLinalgPassOptions toLinalg;
  toLinalg.packWeightRows = CpuRegisterTile::forHost().rows;
  pm.addPass(createConvertGraphToLinalgPass(toLinalg));
  pm.addPass(createFuseGroupLoopsPass());
  buildBufferizeAndPlanPipeline(pm);
  // Which loop nests share a kernel (and so a dispatch): the same decision
  // the CUDA printer reads.
  pm.addNestedPass<func::FuncOp>(createFormKernelsPass());
  // A contraction's zero fill becomes its register tiles' starting value
  // (kiln-vectorize-linalg): the output is not written twice.
  pm.addNestedPass<func::FuncOp>(createFoldAccumulatorFillsPass());
  // The schedule: dispatch functions over workgroups and the exec.program
  // that runs them. After planning (bindings are arena offsets), before
  // tiling (each workgroup's slice is tiled as the whole op was).
  FormCpuDispatchesPassOptions dispatches;
  // No work is too small for a dispatch of its own.
  if (stepPerKernel)
    dispatches.minWorkPerWorkgroup = 0;
  pm.addPass(createFormCpuDispatchesPass(dispatches));
  buildCpuLowerToLLVMPipeline(pm, rawConstantBytes);
}

void kiln::compiler::buildCpuLowerToLLVMPipeline(OpPassManager &pm,
                                                 uint64_t rawConstantBytes) {
  // int8 and weight-only GEMMs with constant weights call the kernel
  // library (before tiling, which would cut them into register tiles).
  pm.addPass(createInt8GemmCallsPass());
  pm.addPass(createWeightOnlyGemmCallsPass());
  // Dispatches that differ only in their buffers' places share one kernel.
  pm.addPass(createShareIdenticalKernelsPass());
  // Register tiles and vectors (on buffers: no allocation), lowered to
  // 1-D vector ops and FMAs; what does not vectorise becomes scalar loops.
  pm.addNestedPass<func::FuncOp>(createVectorizeLinalgPass());
  pm.addNestedPass<func::FuncOp>(createLowerVectorOpsPass());
  // Function-local passes run nested, one function per thread: a model
  // has hundreds of functions, and these passes are much of a compile.
  OpPassManager &functions = pm.nest<func::FuncOp>();
  functions.addPass(createConvertLinalgToLoopsPass());
  functions.addPass(createCanonicalizerPass());
  functions.addPass(createCSEPass());
  // Full unrolling: a loop over n-D transfers would need a stack buffer.
  VectorTransferToSCFOptions transfers;
  transfers.enableFullUnroll();
  functions.addPass(createConvertVectorToSCFPass(transfers));

  // Everything to the LLVM dialect. f32 transcendentals become polynomials;
  // math ops with LLVM intrinsics become intrinsics; the rest become libm
  // calls (declared in the module, so not nested).
  functions.addPass(createApproximateMathPass());
  functions.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  OpPassManager &lowering = pm.nest<func::FuncOp>();
  lowering.addPass(memref::createExpandStridedMetadataPass());
  lowering.addPass(createLowerAffinePass());
  lowering.addPass(createSCFToControlFlowPass());
  // Horizontal reductions may reassociate: they sum a vector tile whose
  // order the tiling already chose.
  ConvertVectorToLLVMPassOptions vectorToLLVM;
  vectorToLLVM.reassociateFPReductions = true;
  lowering.addPass(createConvertVectorToLLVMPass(vectorToLLVM));
  lowering.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  FlattenConstantGlobalsPassOptions flatten;
  flatten.leaveFromBytes = rawConstantBytes;
  pm.addPass(createFlattenConstantGlobalsPass(flatten));
}
