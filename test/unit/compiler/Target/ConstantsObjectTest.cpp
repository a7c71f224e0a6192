//===- ConstantsObjectTest.cpp - Weights written as an ELF object ---------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The object is read back with LLVM's ELF reader, as the linker reads it.
//
//===----------------------------------------------------------------------===//

#include "compiler/Target/ConstantsObject.h"

#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <gtest/gtest.h>
#include <map>

using kiln::compiler::canWriteConstantsObject;
using kiln::compiler::RawConstant;
using kiln::compiler::writeConstantsObject;

namespace {

/// One symbol as the reader sees it.
struct ReadSymbol {
  uint64_t address = 0;
  uint64_t size = 0;
  uint8_t binding = 0, type = 0, visibility = 0;
  std::string bytes;
};

class ConstantsObjectTest : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> folder;
    ASSERT_FALSE(
        llvm::sys::fs::createUniqueDirectory("kiln-constants", folder));
    folder_ = folder.str().str();
    llvm::SmallString<128> path(folder_);
    llvm::sys::path::append(path, "constants.o");
    path_ = path.str().str();
  }
  void TearDown() override { llvm::sys::fs::remove_directories(folder_); }

  /// The symbols of the object at path_, by name; fails the test when it
  /// is not an x86-64 relocatable ELF object whose symbols lie in an
  /// allocated, read-only data section.
  std::map<std::string, ReadSymbol> readBack() {
    std::map<std::string, ReadSymbol> symbols;
    auto buffer = llvm::MemoryBuffer::getFile(path_);
    EXPECT_TRUE(bool(buffer));
    if (!buffer)
      return symbols;
    auto object = llvm::object::ObjectFile::createObjectFile(**buffer);
    if (!object) {
      ADD_FAILURE() << llvm::toString(object.takeError());
      return symbols;
    }
    auto *elf = llvm::dyn_cast<llvm::object::ELF64LEObjectFile>(object->get());
    EXPECT_NE(elf, nullptr);
    if (!elf)
      return symbols;
    EXPECT_EQ(elf->getELFFile().getHeader().e_machine, llvm::ELF::EM_X86_64);
    EXPECT_TRUE(elf->isRelocatableObject());
    for (const llvm::object::ELFSymbolRef &symbol : elf->symbols()) {
      ReadSymbol read;
      read.address = llvm::cantFail(symbol.getAddress());
      read.size = symbol.getSize();
      read.binding = symbol.getBinding();
      read.type = symbol.getELFType();
      read.visibility = symbol.getOther();
      llvm::object::section_iterator section =
          llvm::cantFail(symbol.getSection());
      EXPECT_NE(section, elf->section_end());
      if (section == elf->section_end())
        continue;
      EXPECT_TRUE(section->isData());
      EXPECT_EQ(llvm::object::ELFSectionRef(*section).getFlags(),
                uint64_t(llvm::ELF::SHF_ALLOC));
      llvm::StringRef contents = llvm::cantFail(section->getContents());
      EXPECT_LE(read.address + read.size, contents.size());
      read.bytes = contents.substr(read.address, read.size).str();
      symbols[llvm::cantFail(symbol.getName()).str()] = read;
    }
    return symbols;
  }

  std::string folder_, path_;
  llvm::Triple x86_{"x86_64-unknown-linux-gnu"};
};

llvm::ArrayRef<char> bytesOf(const std::string &text) {
  return llvm::ArrayRef<char>(text.data(), text.size());
}

TEST_F(ConstantsObjectTest, EachConstantIsAHiddenAlignedSymbolOfItsBytes) {
  std::string first(100, '\0'), second = "seven b", third(4096, 'w');
  for (size_t i = 0; i < first.size(); ++i)
    first[i] = static_cast<char>(i * 7);
  std::vector<RawConstant> constants = {{"__constant_a", 64, bytesOf(first)},
                                        {"__constant_b", 16, bytesOf(second)},
                                        {"__constant_c", 4096, bytesOf(third)}};
  ASSERT_TRUE(writeConstantsObject(path_, x86_, constants).isOk());
  std::map<std::string, ReadSymbol> symbols = readBack();
  ASSERT_EQ(symbols.size(), 3u);
  for (const RawConstant &constant : constants) {
    SCOPED_TRACE(constant.name);
    ASSERT_TRUE(symbols.count(constant.name));
    const ReadSymbol &symbol = symbols[constant.name];
    EXPECT_EQ(symbol.address % constant.alignment, 0u);
    EXPECT_EQ(symbol.size, constant.bytes.size());
    EXPECT_EQ(symbol.binding, llvm::ELF::STB_GLOBAL);
    EXPECT_EQ(symbol.type, llvm::ELF::STT_OBJECT);
    EXPECT_EQ(symbol.visibility, llvm::ELF::STV_HIDDEN);
    EXPECT_EQ(symbol.bytes,
              std::string(constant.bytes.data(), constant.bytes.size()));
  }
  // One after another, not overlapping.
  EXPECT_GE(symbols["__constant_b"].address, 100u);
  EXPECT_GE(symbols["__constant_c"].address,
            symbols["__constant_b"].address + 7);
}

TEST_F(ConstantsObjectTest, NoConstantsIsAValidObject) {
  ASSERT_TRUE(writeConstantsObject(path_, x86_, {}).isOk());
  EXPECT_TRUE(readBack().empty());
}

TEST_F(ConstantsObjectTest, RejectsAnAlignmentThatIsNotAPowerOfTwo) {
  std::string byte = "x";
  kiln::rt::Status status =
      writeConstantsObject(path_, x86_, {{"__odd", 24, bytesOf(byte)}});
  ASSERT_FALSE(status.isOk());
  EXPECT_NE(status.message().find("'__odd' has alignment 24"),
            std::string::npos)
      << status.message();
}

TEST_F(ConstantsObjectTest, WritesOnlyElfForX86AndAArch64) {
  EXPECT_TRUE(canWriteConstantsObject(x86_));
  EXPECT_TRUE(
      canWriteConstantsObject(llvm::Triple("aarch64-unknown-linux-gnu")));
  EXPECT_FALSE(canWriteConstantsObject(llvm::Triple("x86_64-apple-macosx")));
  EXPECT_FALSE(canWriteConstantsObject(llvm::Triple("i386-unknown-linux")));
  EXPECT_FALSE(
      writeConstantsObject(path_, llvm::Triple("i386-unknown-linux"), {})
          .isOk());
}

} // namespace
