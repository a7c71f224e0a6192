//===- CodegenPartsTest.cpp - A module cut for parallel codegen -----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Each part is read back into a context of its own, as a codegen thread
// reads it; together the parts must define each non-local symbol once.
//
//===----------------------------------------------------------------------===//

#include "compiler/Target/CodegenParts.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/SourceMgr.h"

#include <gtest/gtest.h>
#include <map>

using kiln::compiler::cutForCodegen;

namespace {

/// Four dispatches of different sizes sharing a local helper and a
/// private table; a kernel the dispatches call; a counter (local state).
constexpr const char *kModule = R"(
@table = private constant [4 x float] [float 1.0, float 2.0, float 3.0, float 4.0]
@counter = internal global i64 0
@entries = constant [2 x ptr] [ptr @d0, ptr @d1]

define internal float @helper(i64 %i) {
  %p = getelementptr [4 x float], ptr @table, i64 0, i64 %i
  %v = load float, ptr %p
  ret float %v
}
define void @kernel(ptr %out) {
  %n = load i64, ptr @counter
  %m = add i64 %n, 1
  store i64 %m, ptr @counter
  ret void
}
define float @d0(i64 %i) {
  %a = call float @helper(i64 %i)
  %b = fadd float %a, %a
  %c = fadd float %b, %a
  %d = fadd float %c, %a
  ret float %d
}
define float @d1(i64 %i) {
  %a = call float @helper(i64 %i)
  %b = fadd float %a, %a
  %c = fadd float %b, %a
  ret float %c
}
define void @d2(ptr %out) {
  call void @kernel(ptr %out)
  store float 0.0, ptr %out
  ret void
}
define void @d3(ptr %out) {
  call void @kernel(ptr %out)
  ret void
}
)";

struct ReadPart {
  std::unique_ptr<llvm::LLVMContext> context =
      std::make_unique<llvm::LLVMContext>();
  std::unique_ptr<llvm::Module> module;
};

class CodegenPartsTest : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SMDiagnostic error;
    module_ = llvm::parseAssemblyString(kModule, error, context_);
    ASSERT_TRUE(module_) << error.getMessage().str();
  }

  std::vector<ReadPart> cut(unsigned parts) {
    std::vector<ReadPart> read;
    for (const llvm::SmallVector<char, 0> &bitcode :
         cutForCodegen(*module_, parts)) {
      ReadPart part;
      auto module = llvm::parseBitcodeFile(
          llvm::MemoryBufferRef(llvm::StringRef(bitcode.data(), bitcode.size()),
                                "part"),
          *part.context);
      EXPECT_TRUE(static_cast<bool>(module));
      if (!module)
        continue;
      part.module = std::move(*module);
      EXPECT_FALSE(llvm::verifyModule(*part.module, &llvm::errs()));
      read.push_back(std::move(part));
    }
    return read;
  }

  /// How many parts define each symbol.
  static std::map<std::string, int>
  definitions(const std::vector<ReadPart> &parts) {
    std::map<std::string, int> count;
    for (const ReadPart &part : parts)
      for (const llvm::GlobalValue &global : part.module->global_values())
        if (!global.isDeclaration())
          ++count[global.getName().str()];
    return count;
  }

  llvm::LLVMContext context_;
  std::unique_ptr<llvm::Module> module_;
};

TEST_F(CodegenPartsTest, EachNonLocalDefinitionLivesInExactlyOnePart) {
  std::vector<ReadPart> parts = cut(4);
  ASSERT_EQ(parts.size(), 4u);
  std::map<std::string, int> count = definitions(parts);
  for (const char *name : {"kernel", "d0", "d1", "d2", "d3", "entries"})
    EXPECT_EQ(count[name], 1) << name;
}

TEST_F(CodegenPartsTest, LocalsAreCopiedIntoEachPartThatReachesThem) {
  std::vector<ReadPart> parts = cut(4);
  for (const ReadPart &part : parts) {
    bool callsHelper = false;
    for (const char *caller : {"d0", "d1"})
      if (llvm::Function *function = part.module->getFunction(caller))
        callsHelper |= !function->isDeclaration();
    llvm::Function *helper = part.module->getFunction("helper");
    EXPECT_EQ(helper && !helper->isDeclaration(), callsHelper);
    // The helper's table comes along with it, still local and constant.
    llvm::GlobalVariable *table =
        part.module->getGlobalVariable("table", /*AllowInternal=*/true);
    EXPECT_EQ(table != nullptr, callsHelper);
    if (table) {
      EXPECT_TRUE(table->hasLocalLinkage());
      EXPECT_TRUE(table->hasInitializer());
    }
  }
  EXPECT_EQ(definitions(parts)["helper"], 2);
}

TEST_F(CodegenPartsTest, LocalStateIsDefinedOnceAndSharedByName) {
  std::vector<ReadPart> parts = cut(4);
  EXPECT_EQ(definitions(parts)["counter"], 1);
  for (const ReadPart &part : parts)
    if (llvm::GlobalVariable *counter =
            part.module->getGlobalVariable("counter", true)) {
      EXPECT_FALSE(counter->hasLocalLinkage());
      EXPECT_EQ(counter->getVisibility(), llvm::GlobalValue::HiddenVisibility);
    }
}

TEST_F(CodegenPartsTest, LargestFunctionsAreSpreadFirst) {
  // Two parts: d0 (largest) and d1 go to different parts.
  std::vector<ReadPart> parts = cut(2);
  ASSERT_EQ(parts.size(), 2u);
  auto defines = [](const ReadPart &part, const char *name) {
    llvm::Function *function = part.module->getFunction(name);
    return function && !function->isDeclaration();
  };
  EXPECT_NE(defines(parts[0], "d0"), defines(parts[0], "d1"));
}

TEST_F(CodegenPartsTest, FewerFunctionsThanPartsGiveNoEmptyPart) {
  std::vector<ReadPart> parts = cut(16);
  EXPECT_EQ(parts.size(), 5u); // kernel, d0..d3
}

TEST_F(CodegenPartsTest, OnePartOrAnAliasMeansNoCut) {
  EXPECT_TRUE(cutForCodegen(*module_, 1).empty());
  llvm::GlobalAlias::create("alias", module_->getFunction("d0"));
  EXPECT_TRUE(cutForCodegen(*module_, 4).empty());
}

TEST_F(CodegenPartsTest, ADiscardableDefinitionMeansNoCut) {
  // Its part's -O3 could drop it while another part calls it.
  module_->getFunction("kernel")->setLinkage(
      llvm::GlobalValue::LinkOnceODRLinkage);
  EXPECT_TRUE(cutForCodegen(*module_, 4).empty());
}

} // namespace
