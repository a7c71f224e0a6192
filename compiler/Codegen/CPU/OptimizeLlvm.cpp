//===- OptimizeLlvm.cpp - LLVM's middle end for generated CPU kernels -----===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "compiler/Codegen/CPU/OptimizeLlvm.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Target/TargetMachine.h"

namespace kiln::compiler {
namespace {

/// Whether `function` computes nothing in floating point: a gather, a copy,
/// a pad, an im2col strip.
bool movesDataOnly(llvm::Function &function) {
  for (llvm::Instruction &instruction : llvm::instructions(function)) {
    if (instruction.getType()->isFPOrFPVectorTy() &&
        (llvm::isa<llvm::BinaryOperator>(instruction) ||
         llvm::isa<llvm::UnaryOperator>(instruction)))
      return false;
    if (llvm::isa<llvm::FCmpInst>(instruction))
      return false;
    if (auto *call = llvm::dyn_cast<llvm::CallBase>(&instruction)) {
      auto *intrinsic = llvm::dyn_cast<llvm::IntrinsicInst>(call);
      if (!intrinsic)
        return false;
      switch (intrinsic->getIntrinsicID()) {
      case llvm::Intrinsic::memcpy:
      case llvm::Intrinsic::memmove:
      case llvm::Intrinsic::memset:
      case llvm::Intrinsic::masked_load:
      case llvm::Intrinsic::masked_store:
      case llvm::Intrinsic::masked_gather:
      case llvm::Intrinsic::masked_scatter:
      case llvm::Intrinsic::vector_insert:
      case llvm::Intrinsic::vector_extract:
      case llvm::Intrinsic::lifetime_start:
      case llvm::Intrinsic::lifetime_end:
      case llvm::Intrinsic::assume:
        continue;
      default:
        return false;
      }
    }
  }
  return true;
}

/// Asks LLVM not to unroll any loop of `function`, keeping what the loop's
/// metadata said before.
void disableUnrolling(llvm::Function &function) {
  llvm::DominatorTree dominators(function);
  llvm::LoopInfo loops(dominators);
  llvm::LLVMContext &context = function.getContext();
  llvm::MDNode *disable = llvm::MDNode::get(
      context, llvm::MDString::get(context, "llvm.loop.unroll.disable"));
  for (llvm::Loop *loop : loops.getLoopsInPreorder()) {
    llvm::SmallVector<llvm::Metadata *> properties = {nullptr};
    if (llvm::MDNode *existing = loop->getLoopID())
      properties.append(existing->op_begin() + 1, existing->op_end());
    properties.push_back(disable);
    llvm::MDNode *id = llvm::MDNode::getDistinct(context, properties);
    id->replaceOperandWith(0, id);
    loop->setLoopID(id);
  }
}

} // namespace

void keepDataMovementLoopsRolled(llvm::Module &module) {
  for (llvm::Function &function : module)
    if (!function.isDeclaration() && movesDataOnly(function))
      disableUnrolling(function);
}

llvm::Error optimizeKernels(llvm::Module &module,
                            llvm::TargetMachine &machine) {
  llvm::PipelineTuningOptions tuning;
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager sccs;
  llvm::ModuleAnalysisManager modules;
  llvm::PassBuilder builder(&machine, tuning);
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(sccs);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, sccs, modules);
  llvm::ModulePassManager pipeline =
      builder.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
  pipeline.run(module, modules);
  return llvm::Error::success();
}

} // namespace kiln::compiler
