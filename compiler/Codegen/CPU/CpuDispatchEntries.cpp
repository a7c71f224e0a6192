//===- CpuDispatchEntries.cpp - How the runtime calls CPU dispatches ------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "compiler/Codegen/CPU/CpuDispatchEntries.h"

#include "kiln/runtime/CpuSchedule.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <set>

namespace kiln::compiler {
namespace {

/// Whether `function` is one block that computes addresses and calls one
/// function: no loads, stores or loops of its own.
bool onlyCallsAKernel(const llvm::Function &function) {
  if (function.size() != 1)
    return false;
  unsigned calls = 0;
  for (const llvm::Instruction &instruction : function.front()) {
    if (llvm::isa<llvm::CallBase>(instruction)) {
      if (!llvm::isa<llvm::IntrinsicInst>(instruction))
        ++calls;
      continue;
    }
    if (instruction.mayReadOrWriteMemory())
      return false;
  }
  return calls == 1;
}

} // namespace

rt::Status addCpuDispatchEntries(llvm::Module &module,
                                 const rt::DeviceProgram &program) {
  llvm::LLVMContext &context = module.getContext();
  llvm::PointerType *pointer = llvm::PointerType::getUnqual(context);
  llvm::Type *i64 = llvm::Type::getInt64Ty(context);
  auto *type = llvm::FunctionType::get(llvm::Type::getVoidTy(context),
                                       {pointer, i64, i64},
                                       /*isVarArg=*/false);
  std::set<std::string> done;
  for (const rt::Step &step : program.steps) {
    if (step.kind != rt::Step::Kind::kDispatch ||
        !done.insert(step.kernel).second)
      continue;
    llvm::Function *function = module.getFunction(step.kernel);
    if (!function || function->arg_size() < 2)
      return rt::internalError("dispatch function '" + step.kernel +
                               "' vanished during lowering");
    auto *entry =
        llvm::Function::Create(type, llvm::Function::ExternalLinkage,
                               rt::cpuDispatchEntryName(step.kernel), module);
    llvm::IRBuilder<> b(llvm::BasicBlock::Create(context, "entry", entry));
    llvm::Value *args = entry->getArg(0);
    llvm::SmallVector<llvm::Value *> values;
    unsigned buffers = function->arg_size() - 2;
    for (unsigned i = 0; i < buffers; ++i) {
      llvm::Value *slot = b.CreateConstGEP1_64(pointer, args, i);
      llvm::Value *address = b.CreateLoad(pointer, slot);
      values.push_back(b.CreateLoad(function->getArg(i)->getType(), address));
    }
    values.push_back(entry->getArg(1));
    values.push_back(entry->getArg(2));
    llvm::CallInst *call = b.CreateCall(function, values);
    b.CreateRetVoid();
    function->setLinkage(llvm::GlobalValue::InternalLinkage);
    // A dispatch that only builds its buffers and calls a shared kernel
    // (kiln-share-identical-kernels) is folded into its entry now: one
    // function fewer to generate code for, per dispatch, and none left
    // with a parameter per field of every model buffer for LLVM's
    // interprocedural passes to walk (a model with 75 outputs gives each
    // dispatch 700).
    if (onlyCallsAKernel(*function)) {
      llvm::InlineFunctionInfo inlining;
      if (!llvm::InlineFunction(*call, inlining).isSuccess())
        return rt::internalError("cannot fold dispatch '" + step.kernel +
                                 "' into its entry");
      if (function->use_empty())
        function->eraseFromParent();
      continue;
    }
    // Only its entry calls the kernel. Internal, it is compiled once (it
    // was compiled again inlined into its entry); not inlined, the entry
    // stays a call (one per workgroup) and code generation does not
    // schedule the kernel's blocks a second time in the entry's context:
    // a 3x3 convolution on 56x56 maps compiled in 13.3 s, now 5.2 s.
    function->addFnAttr(llvm::Attribute::NoInline);
  }
  return rt::Status::ok();
}

} // namespace kiln::compiler
