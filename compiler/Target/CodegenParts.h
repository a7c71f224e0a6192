//===- CodegenParts.h - An LLVM module cut for parallel codegen -*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// LLVM's -O3 pipeline and machine code generation are most of a CPU
// compile, and a model's functions are optimised and generated
// independently. So the module is cut, before optimisation, into parts
// that are optimised and generated on threads of their own (each in its
// own LLVMContext) and linked back into one shared object.
//
// Unlike llvm::SplitModule, which externalises local symbols, the cut
// keeps everything the optimiser uses within a part: each non-local
// definition (a dispatch, a shared kernel, an entry, a table) lives in
// exactly one part, and each local function or global (the kernel
// library's functions, a dispatch's small constant weights) is copied
// into every part that reaches it, where it stays inlinable or foldable.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_TARGET_CODEGENPARTS_H
#define KILN_COMPILER_TARGET_CODEGENPARTS_H

#include "llvm/ADT/SmallVector.h"

#include <vector>

namespace llvm {
class Module;
} // namespace llvm

namespace kiln::compiler {

/// The parts of `module` (at most `parts`; none is empty), each as bitcode
/// that a thread reads into its own context. Functions are balanced by
/// instruction count, largest first, so the assignment depends on the
/// module alone. Empty when the module holds something the cut does not
/// handle (aliases, ifuncs, comdats, linkonce, weak or
/// available_externally definitions): compile it whole then.
std::vector<llvm::SmallVector<char, 0>> cutForCodegen(llvm::Module &module,
                                                      unsigned parts);

} // namespace kiln::compiler

#endif // KILN_COMPILER_TARGET_CODEGENPARTS_H
