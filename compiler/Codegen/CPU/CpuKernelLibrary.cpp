//===- CpuKernelLibrary.cpp - Hand-written kernels linked into models -----===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "compiler/Codegen/CPU/CpuKernelLibrary.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstddef>

// CpuKernelBitcode.cpp, generated at build time (CMakeLists.txt).
extern const unsigned char kiln_cpu_kernel_bitcode[];
extern const size_t kiln_cpu_kernel_bitcode_size;

namespace kiln::compiler {

namespace {
/// The library's entry points all start so.
constexpr llvm::StringLiteral kPrefix = "kiln_";

bool declaresLibraryFunction(const llvm::Module &module) {
  for (const llvm::Function &function : module)
    if (function.isDeclaration() && function.getName().starts_with(kPrefix))
      return true;
  return false;
}
} // namespace

rt::Status linkCpuKernelLibrary(llvm::Module &module) {
  if (!declaresLibraryFunction(module))
    return rt::Status::ok();
  llvm::MemoryBufferRef bytes(
      llvm::StringRef(reinterpret_cast<const char *>(kiln_cpu_kernel_bitcode),
                      kiln_cpu_kernel_bitcode_size),
      "kiln-cpu-kernels");
  auto library = llvm::parseBitcodeFile(bytes, module.getContext());
  if (!library)
    return rt::internalError("cannot read the CPU kernel library: " +
                             llvm::toString(library.takeError()));
  (*library)->setTargetTriple(module.getTargetTriple());
  (*library)->setDataLayout(module.getDataLayout());
  llvm::SmallVector<std::string> linked;
  for (const llvm::Function &function : **library)
    if (!function.isDeclaration() && function.getName().starts_with(kPrefix))
      linked.push_back(function.getName().str());
  if (llvm::Linker::linkModules(module, std::move(*library),
                                llvm::Linker::LinkOnlyNeeded))
    return rt::internalError("cannot link the CPU kernel library");
  // Internal: the model's kernels are the only callers, and two models in
  // one process must not share (or export) the library's state.
  for (const std::string &name : linked)
    if (llvm::Function *function = module.getFunction(name))
      if (!function->isDeclaration())
        function->setLinkage(llvm::GlobalValue::InternalLinkage);
  return rt::Status::ok();
}

} // namespace kiln::compiler
