//===- OptimizeLlvmTest.cpp - LLVM's middle end for generated kernels -----===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Loops that only move data stay rolled; loops that compute are unrolled
// as LLVM sees fit.
//
//===----------------------------------------------------------------------===//

#include "compiler/Codegen/CPU/OptimizeLlvm.h"
#include "HostTarget.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Target/TargetMachine.h"

#include <gtest/gtest.h>

namespace {

// Four iterations each: a gather (every other row; a plain copy would
// become a memcpy), a scaled copy, and a copy that calls out.
constexpr const char *kKernels = R"(
define void @copy(ptr noalias %dst, ptr noalias %src) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %every_other = shl i64 %i, 1
  %from = getelementptr <16 x float>, ptr %src, i64 %every_other
  %to = getelementptr <16 x float>, ptr %dst, i64 %i
  %v = load <16 x float>, ptr %from
  store <16 x float> %v, ptr %to
  %next = add i64 %i, 1
  %done = icmp eq i64 %next, 4
  br i1 %done, label %exit, label %loop, !llvm.loop !0
exit:
  ret void
}

define void @scale(ptr noalias %dst, ptr noalias %src) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %from = getelementptr <16 x float>, ptr %src, i64 %i
  %to = getelementptr <16 x float>, ptr %dst, i64 %i
  %v = load <16 x float>, ptr %from
  %w = fmul <16 x float> %v, splat (float 2.0)
  store <16 x float> %w, ptr %to
  %next = add i64 %i, 1
  %done = icmp eq i64 %next, 4
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

declare void @observe(ptr)

define void @copy_and_call(ptr noalias %dst, ptr noalias %src) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %from = getelementptr <16 x float>, ptr %src, i64 %i
  %to = getelementptr <16 x float>, ptr %dst, i64 %i
  %v = load <16 x float>, ptr %from
  store <16 x float> %v, ptr %to
  call void @observe(ptr %to)
  %next = add i64 %i, 1
  %done = icmp eq i64 %next, 4
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

!0 = distinct !{!0, !1}
!1 = !{!"llvm.loop.mustprogress"}
)";

std::unique_ptr<llvm::Module> parse(llvm::LLVMContext &context) {
  llvm::SMDiagnostic error;
  std::unique_ptr<llvm::Module> module =
      llvm::parseAssemblyString(kKernels, error, context);
  EXPECT_TRUE(module) << error.getMessage().str();
  return module;
}

/// The loop properties (`llvm.loop` strings) on the branches of `name`.
std::vector<std::string> loopProperties(llvm::Module &module,
                                        llvm::StringRef name) {
  std::vector<std::string> properties;
  for (llvm::Instruction &instruction :
       llvm::instructions(*module.getFunction(name)))
    if (llvm::MDNode *loop = instruction.getMetadata("llvm.loop"))
      for (const llvm::MDOperand &operand : llvm::drop_begin(loop->operands()))
        if (auto *node = llvm::dyn_cast<llvm::MDNode>(operand.get()))
          if (auto *string =
                  llvm::dyn_cast<llvm::MDString>(node->getOperand(0).get()))
            properties.push_back(string->getString().str());
  return properties;
}

unsigned stores(llvm::Module &module, llvm::StringRef name) {
  unsigned count = 0;
  for (llvm::Instruction &instruction :
       llvm::instructions(*module.getFunction(name)))
    count += llvm::isa<llvm::StoreInst>(instruction);
  return count;
}

TEST(OptimizeLlvmTest, MarksOnlyLoopsThatMoveData) {
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> module = parse(context);
  kiln::compiler::keepDataMovementLoopsRolled(*module);
  // What the loop said before stays.
  EXPECT_EQ(loopProperties(*module, "copy"),
            (std::vector<std::string>{"llvm.loop.mustprogress",
                                      "llvm.loop.unroll.disable"}));
  EXPECT_TRUE(loopProperties(*module, "scale").empty());
  EXPECT_TRUE(loopProperties(*module, "copy_and_call").empty());
}

TEST(OptimizeLlvmTest, CopiesStayRolledAndArithmeticUnrolls) {
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> module = parse(context);
  std::unique_ptr<llvm::TargetMachine> machine =
      kiln::testing::hostTargetMachineFor(*module);
  ASSERT_TRUE(machine);
  kiln::compiler::keepDataMovementLoopsRolled(*module);
  ASSERT_FALSE(
      static_cast<bool>(kiln::compiler::optimizeKernels(*module, *machine)));
  EXPECT_EQ(stores(*module, "copy"), 1u);
  EXPECT_EQ(stores(*module, "scale"), 4u);
}

} // namespace
