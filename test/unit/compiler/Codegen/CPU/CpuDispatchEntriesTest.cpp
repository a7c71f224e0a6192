//===- CpuDispatchEntriesTest.cpp - How the runtime calls CPU dispatches --===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Each dispatch gets an entry; a dispatch that computes stays a function of
// its own (not inlined), one that only calls a shared kernel folds into its
// entry.
//
//===----------------------------------------------------------------------===//

#include "compiler/Codegen/CPU/CpuDispatchEntries.h"
#include "HostTarget.h"
#include "compiler/Codegen/CPU/OptimizeLlvm.h"
#include "kiln/runtime/Artifact.h"
#include "kiln/runtime/CpuSchedule.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Target/TargetMachine.h"

#include <gtest/gtest.h>

namespace {

// Dispatches take their buffers, then the first and last workgroup.
// @shared_d0 only passes a window of its buffer to @kernel;
// @own_d1 computes (a loop of stores).
constexpr const char *kDispatches = R"(
define private void @kernel(ptr %buffer, i64 %first, i64 %last) noinline {
entry:
  store float 1.0, ptr %buffer
  ret void
}

define private void @shared_d0(ptr %buffer, i64 %first, i64 %last) {
entry:
  %window = getelementptr float, ptr %buffer, i64 32
  call void @kernel(ptr %window, i64 %first, i64 %last)
  ret void
}

define private void @own_d1(ptr %buffer, i64 %first, i64 %last) {
entry:
  br label %loop
loop:
  %i = phi i64 [ %first, %entry ], [ %next, %loop ]
  %to = getelementptr float, ptr %buffer, i64 %i
  store float 2.0, ptr %to
  %next = add i64 %i, 1
  %done = icmp sge i64 %next, %last
  br i1 %done, label %exit, label %loop
exit:
  ret void
}
)";

kiln::rt::DeviceProgram program(std::initializer_list<const char *> kernels) {
  kiln::rt::DeviceProgram result;
  for (const char *kernel : kernels) {
    kiln::rt::Step step;
    step.kind = kiln::rt::Step::Kind::kDispatch;
    step.kernel = kernel;
    result.steps.push_back(step);
  }
  return result;
}

/// The functions `name` calls.
std::vector<std::string> callees(llvm::Module &module, llvm::StringRef name) {
  std::vector<std::string> result;
  for (llvm::Instruction &instruction :
       llvm::instructions(*module.getFunction(name)))
    if (auto *call = llvm::dyn_cast<llvm::CallInst>(&instruction))
      if (llvm::Function *callee = call->getCalledFunction())
        result.push_back(callee->getName().str());
  return result;
}

TEST(CpuDispatchEntriesTest, KernelCallsFoldIntoTheirEntries) {
  llvm::LLVMContext context;
  llvm::SMDiagnostic error;
  std::unique_ptr<llvm::Module> module =
      llvm::parseAssemblyString(kDispatches, error, context);
  ASSERT_TRUE(module) << error.getMessage().str();
  std::unique_ptr<llvm::TargetMachine> machine =
      kiln::testing::hostTargetMachineFor(*module);
  ASSERT_TRUE(machine);

  ASSERT_TRUE(kiln::compiler::addCpuDispatchEntries(
                  *module, program({"shared_d0", "own_d1", "shared_d0"}))
                  .isOk());
  // The dispatch that only calls a kernel is folded into its entry before
  // LLVM's interprocedural passes see it; the other stays a function of
  // its own that is never inlined.
  EXPECT_EQ(module->getFunction("shared_d0"), nullptr);
  EXPECT_EQ(callees(*module, kiln::rt::cpuDispatchEntryName("shared_d0")),
            std::vector<std::string>{"kernel"});
  llvm::Function *own = module->getFunction("own_d1");
  ASSERT_NE(own, nullptr);
  EXPECT_TRUE(own->hasFnAttribute(llvm::Attribute::NoInline));
  EXPECT_TRUE(own->hasInternalLinkage());

  ASSERT_FALSE(
      static_cast<bool>(kiln::compiler::optimizeKernels(*module, *machine)));
  EXPECT_EQ(callees(*module, kiln::rt::cpuDispatchEntryName("shared_d0")),
            std::vector<std::string>{"kernel"});
  EXPECT_EQ(callees(*module, kiln::rt::cpuDispatchEntryName("own_d1")),
            std::vector<std::string>{"own_d1"});
}

TEST(CpuDispatchEntriesTest, AMissingDispatchIsAnError) {
  llvm::LLVMContext context;
  llvm::SMDiagnostic error;
  std::unique_ptr<llvm::Module> module =
      llvm::parseAssemblyString(kDispatches, error, context);
  ASSERT_TRUE(module) << error.getMessage().str();
  kiln::rt::Status status =
      kiln::compiler::addCpuDispatchEntries(*module, program({"gone_d2"}));
  EXPECT_FALSE(status.isOk());
  EXPECT_NE(status.message().find("gone_d2"), std::string::npos);
}

} // namespace
