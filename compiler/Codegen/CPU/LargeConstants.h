//===- LargeConstants.h - Weights kept out of LLVM -------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// A model's weights need no code generation, only their bytes where the
// kernels can reach them. Translated to LLVM IR they would be copied and
// hashed as LLVM constants, and LLVM would try to fold loads from them (a
// 344 MB model took a minute in the JIT); the artifact writer and the JIT
// both take them out of the module first and place the bytes themselves.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_CODEGEN_CPU_LARGECONSTANTS_H
#define KILN_COMPILER_CODEGEN_CPU_LARGECONSTANTS_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kiln::compiler {

/// Constant globals this large (weights) are taken out of the module.
constexpr uint64_t kLargeConstantBytes = 64 * 1024;

/// Bytes to be defined under `name`, at an address aligned to `alignment`
/// (a power of two). The bytes are not copied: they must outlive their use.
struct RawConstant {
  std::string name;
  uint64_t alignment = 1;
  llvm::ArrayRef<char> bytes;
};

/// How a taken constant's declaration is bound.
enum class ConstantBinding {
  /// Linked into the same shared object: hidden and dso_local, reached
  /// PC-relative.
  kSameObject,
  /// Defined at an address outside the code (the JIT): default
  /// visibility, reached through the GOT, anywhere in the address space.
  kExternal,
};

/// Moves the constant globals of the lowered `module` (LLVM dialect) of at
/// least `minBytes` out of it: each becomes an external declaration, bound
/// as `binding` says, and its bytes (still owned by the MLIR context) are
/// returned. Globals whose initialiser is not one dense array of the
/// global's scalar type (splats, structs) stay.
std::vector<RawConstant> takeLargeConstants(mlir::ModuleOp module,
                                            uint64_t minBytes,
                                            ConstantBinding binding);

} // namespace kiln::compiler

#endif // KILN_COMPILER_CODEGEN_CPU_LARGECONSTANTS_H
