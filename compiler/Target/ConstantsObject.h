//===- ConstantsObject.h - Read-only data as an ELF object -----*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// A model's weights need no code generation, only their bytes in an object
// that the linker places beside the kernels. Written directly, they skip
// LLVM's constants (each one hashed and copied) and its object writer.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_TARGET_CONSTANTSOBJECT_H
#define KILN_COMPILER_TARGET_CONSTANTSOBJECT_H

#include "compiler/Codegen/CPU/LargeConstants.h"
#include "kiln/runtime/Status.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/TargetParser/Triple.h"

#include <cstdint>
#include <string>

namespace kiln::compiler {

/// Whether writeConstantsObject can write objects for `triple`: 64-bit
/// little-endian ELF for x86-64 or AArch64 (data needs no relocations, so
/// only the machine field differs).
bool canWriteConstantsObject(const llvm::Triple &triple);

/// Writes a relocatable ELF object at `path` with one read-only section
/// holding `constants`, each a hidden global data symbol of its size, so
/// that the shared object they are linked into binds its references to
/// them. Names must be unique (not checked here: they come from one module).
rt::Status writeConstantsObject(llvm::StringRef path,
                                const llvm::Triple &triple,
                                llvm::ArrayRef<RawConstant> constants);

} // namespace kiln::compiler

#endif // KILN_COMPILER_TARGET_CONSTANTSOBJECT_H
