//===- CpuKernelLibrary.h - Hand-written kernels linked into models -*- C++
//-*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Most CPU kernels are generated; a few need what generated loops cannot
// do, such as choosing AMX or AVX-512 VNNI at run time (Kernels/). Those
// are C++ compiled to LLVM bitcode when Kiln is built, carried inside the
// compiler, and linked into the LLVM module of each model that calls them
// (JIT and artifacts alike), so artifacts stay self-contained.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_CODEGEN_CPU_CPUKERNELLIBRARY_H
#define KILN_COMPILER_CODEGEN_CPU_CPUKERNELLIBRARY_H

#include "kiln/runtime/Status.h"

namespace llvm {
class Module;
} // namespace llvm

namespace kiln::compiler {

/// Links the library functions `module` declares into it, as internal
/// definitions; does nothing when it declares none.
rt::Status linkCpuKernelLibrary(llvm::Module &module);

} // namespace kiln::compiler

#endif // KILN_COMPILER_CODEGEN_CPU_CPUKERNELLIBRARY_H
