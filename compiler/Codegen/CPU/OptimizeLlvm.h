//===- OptimizeLlvm.h - LLVM's middle end for kernels -----------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_CODEGEN_CPU_OPTIMIZELLVM_H
#define KILN_COMPILER_CODEGEN_CPU_OPTIMIZELLVM_H

#include "llvm/Support/Error.h"

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace kiln::compiler {

/// Marks every loop of the functions of `module` that only move data
/// (gathers, copies, padding, im2col strips: no floating-point arithmetic,
/// no calls) `llvm.loop.unroll.disable`. Kiln's vectorisation already
/// emits their rows as straight-line vector moves; unrolled again by LLVM
/// they became basic blocks of thousands of loads and stores, which LLVM's
/// instruction schedulers handle in quadratic time, for no speed
/// (docs/cpu-kernels.md, "Compile time"). Call it on the generated code,
/// before the kernel library is linked in (that is optimised already).
void keepDataMovementLoopsRolled(llvm::Module &module);

/// Runs LLVM's -O3 pipeline on `module` for `machine`: the same for the JIT
/// and for artifacts.
llvm::Error optimizeKernels(llvm::Module &module, llvm::TargetMachine &machine);

} // namespace kiln::compiler

#endif // KILN_COMPILER_CODEGEN_CPU_OPTIMIZELLVM_H
