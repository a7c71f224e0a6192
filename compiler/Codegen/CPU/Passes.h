//===- Passes.h - CPU code generation passes --------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_CODEGEN_CPU_PASSES_H
#define KILN_COMPILER_CODEGEN_CPU_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir::linalg {
class LinalgDialect;
} // namespace mlir::linalg
namespace mlir::arith {
class ArithDialect;
} // namespace mlir::arith
namespace mlir::memref {
class MemRefDialect;
} // namespace mlir::memref
namespace mlir::affine {
class AffineDialect;
} // namespace mlir::affine
namespace mlir::func {
class FuncDialect;
class FuncOp;
} // namespace mlir::func
namespace mlir::LLVM {
class LLVMDialect;
} // namespace mlir::LLVM
namespace mlir::math {
class MathDialect;
} // namespace mlir::math
namespace mlir::scf {
class SCFDialect;
} // namespace mlir::scf
namespace mlir::vector {
class VectorDialect;
} // namespace mlir::vector

namespace kiln::compiler {

#define GEN_PASS_DECL
#include "compiler/Codegen/CPU/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "compiler/Codegen/CPU/Passes.h.inc"

} // namespace kiln::compiler

#endif // KILN_COMPILER_CODEGEN_CPU_PASSES_H
