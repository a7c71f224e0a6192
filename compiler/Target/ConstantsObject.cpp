//===- ConstantsObject.cpp - Read-only data as an ELF object --------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Layout: the ELF header, the data section (each constant at its
// alignment), the symbol table, its names, the section names and the
// section headers. Nothing is relocated, so no relocation sections.
//
//===----------------------------------------------------------------------===//

#include "compiler/Target/ConstantsObject.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Support/Alignment.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/SwapByteOrder.h"
#include "llvm/Support/raw_ostream.h"

#include <vector>

namespace kiln::compiler {

namespace {

namespace elf = llvm::ELF;

/// Section header indices, in the order of the headers.
enum Section : uint16_t {
  kNull,
  kData,
  kSymbols,
  kSymbolNames,
  kSectionNames,
  kSectionCount
};

/// The section names, as they lie in .shstrtab, and each one's offset.
constexpr char kSectionNameTable[] =
    "\0.rodata.kiln.constants\0.symtab\0.strtab\0.shstrtab";
constexpr uint32_t kSectionNameOffsets[kSectionCount] = {0, 1, 24, 32, 40};

/// Pads `out` with zeros from `position` to `offset`.
void padTo(llvm::raw_ostream &out, uint64_t &position, uint64_t offset) {
  out.write_zeros(offset - position);
  position = offset;
}

template <typename T>
void writeRecord(llvm::raw_ostream &out, uint64_t &position, const T &value) {
  out.write(reinterpret_cast<const char *>(&value), sizeof(T));
  position += sizeof(T);
}

} // namespace

bool canWriteConstantsObject(const llvm::Triple &triple) {
  // The records are written as this host lays them out.
  return llvm::sys::IsLittleEndianHost && triple.isOSBinFormatELF() &&
         (triple.getArch() == llvm::Triple::x86_64 ||
          triple.getArch() == llvm::Triple::aarch64);
}

rt::Status writeConstantsObject(llvm::StringRef path,
                                const llvm::Triple &triple,
                                llvm::ArrayRef<RawConstant> constants) {
  if (!canWriteConstantsObject(triple))
    return rt::internalError("cannot write a constants object for " +
                             triple.str());
  // Where each constant starts in the data section, and the section's size.
  std::vector<uint64_t> starts;
  uint64_t dataSize = 0, dataAlignment = 1;
  for (const RawConstant &constant : constants) {
    if (!llvm::isPowerOf2_64(constant.alignment))
      return rt::internalError(
          "constant '" + constant.name + "' has alignment " +
          std::to_string(constant.alignment) + ", not a power of two");
    dataSize = llvm::alignTo(dataSize, constant.alignment);
    starts.push_back(dataSize);
    dataSize += constant.bytes.size();
    dataAlignment = std::max(dataAlignment, constant.alignment);
  }
  std::string symbolNames(1, '\0');
  std::vector<elf::Elf64_Sym> symbols(1, elf::Elf64_Sym{});
  for (auto [constant, start] : llvm::zip_equal(constants, starts)) {
    elf::Elf64_Sym symbol{};
    symbol.st_name = symbolNames.size();
    symbol.setBindingAndType(elf::STB_GLOBAL, elf::STT_OBJECT);
    symbol.st_other = elf::STV_HIDDEN;
    symbol.st_shndx = kData;
    symbol.st_value = start;
    symbol.st_size = constant.bytes.size();
    symbols.push_back(symbol);
    symbolNames += constant.name;
    symbolNames.push_back('\0');
  }

  uint64_t dataOffset = llvm::alignTo(sizeof(elf::Elf64_Ehdr), dataAlignment);
  uint64_t symbolsOffset = llvm::alignTo(dataOffset + dataSize, 8);
  uint64_t symbolsSize = symbols.size() * sizeof(elf::Elf64_Sym);
  uint64_t symbolNamesOffset = symbolsOffset + symbolsSize;
  uint64_t sectionNamesOffset = symbolNamesOffset + symbolNames.size();
  uint64_t headersOffset =
      llvm::alignTo(sectionNamesOffset + sizeof(kSectionNameTable), 8);

  elf::Elf64_Ehdr header{};
  llvm::copy(llvm::StringRef(elf::ElfMagic), header.e_ident);
  header.e_ident[elf::EI_CLASS] = elf::ELFCLASS64;
  header.e_ident[elf::EI_DATA] = elf::ELFDATA2LSB;
  header.e_ident[elf::EI_VERSION] = elf::EV_CURRENT;
  header.e_ident[elf::EI_OSABI] = elf::ELFOSABI_NONE;
  header.e_type = elf::ET_REL;
  header.e_machine = triple.getArch() == llvm::Triple::x86_64 ? elf::EM_X86_64
                                                              : elf::EM_AARCH64;
  header.e_version = elf::EV_CURRENT;
  header.e_shoff = headersOffset;
  header.e_ehsize = sizeof(elf::Elf64_Ehdr);
  header.e_shentsize = sizeof(elf::Elf64_Shdr);
  header.e_shnum = kSectionCount;
  header.e_shstrndx = kSectionNames;

  elf::Elf64_Shdr sections[kSectionCount] = {};
  auto describe = [&](Section index, uint32_t type, uint64_t offset,
                      uint64_t size, uint64_t alignment) {
    elf::Elf64_Shdr &section = sections[index];
    section.sh_name = kSectionNameOffsets[index];
    section.sh_type = type;
    section.sh_offset = offset;
    section.sh_size = size;
    section.sh_addralign = alignment;
  };
  describe(kData, elf::SHT_PROGBITS, dataOffset, dataSize, dataAlignment);
  sections[kData].sh_flags = elf::SHF_ALLOC;
  describe(kSymbols, elf::SHT_SYMTAB, symbolsOffset, symbolsSize, 8);
  sections[kSymbols].sh_link = kSymbolNames;
  // One past the last local symbol: only the null symbol is local.
  sections[kSymbols].sh_info = 1;
  sections[kSymbols].sh_entsize = sizeof(elf::Elf64_Sym);
  describe(kSymbolNames, elf::SHT_STRTAB, symbolNamesOffset, symbolNames.size(),
           1);
  describe(kSectionNames, elf::SHT_STRTAB, sectionNamesOffset,
           sizeof(kSectionNameTable), 1);

  std::error_code ec;
  llvm::raw_fd_ostream out(path, ec);
  if (ec)
    return rt::internalError("cannot write " + path.str() + ": " +
                             ec.message());
  uint64_t position = 0;
  writeRecord(out, position, header);
  padTo(out, position, dataOffset);
  for (auto [constant, start] : llvm::zip_equal(constants, starts)) {
    padTo(out, position, dataOffset + start);
    out.write(constant.bytes.data(), constant.bytes.size());
    position += constant.bytes.size();
  }
  padTo(out, position, symbolsOffset);
  for (const elf::Elf64_Sym &symbol : symbols)
    writeRecord(out, position, symbol);
  out << symbolNames;
  out.write(kSectionNameTable, sizeof(kSectionNameTable));
  position += symbolNames.size() + sizeof(kSectionNameTable);
  padTo(out, position, headersOffset);
  for (const elf::Elf64_Shdr &section : sections)
    writeRecord(out, position, section);
  out.close();
  if (out.has_error())
    return rt::internalError("cannot write " + path.str() + ": " +
                             out.error().message());
  return rt::Status::ok();
}

} // namespace kiln::compiler
