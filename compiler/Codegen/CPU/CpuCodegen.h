//===- CpuCodegen.h - Lowering kiln graphs to native CPU code ---*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The CPU backend's pipeline: kiln -> linalg on tensors -> bufferised loops
// -> LLVM dialect, ready for the JIT or for object emission. Everything is
// upstream MLIR after kiln-convert-graph-to-linalg.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_CODEGEN_CPU_CPUCODEGEN_H
#define KILN_COMPILER_CODEGEN_CPU_CPUCODEGEN_H

#include <cstdint>

namespace mlir {
class DialectRegistry;
class OpPassManager;
} // namespace mlir

namespace kiln::compiler {

/// Registers the dialects and external interface models the CPU pipeline
/// creates (linalg, tensor, bufferization, scf, memref, LLVM, ...) and their
/// LLVM IR translations.
void registerCpuCodegenDialects(mlir::DialectRegistry &registry);

/// Registers the upstream passes the CPU pipeline is made of, so that each
/// step can be replayed from kiln-opt.
void registerCpuCodegenPasses();

/// Appends kiln (tensors) -> LLVM dialect to `pm` (a module pass manager):
/// linalg, the memory plan, CPU dispatches with their exec.program, then
/// buildCpuLowerToLLVMPipeline. Registered as `kiln-cpu-codegen-pipeline`.
/// With `stepPerKernel`, small kernels are not merged into one dispatch,
/// so that every step's results can be checked on their own (what
/// --check-numerics uses to narrow a finding down; slower to run).
/// Constant globals of at least `rawConstantBytes` (0: none) keep their
/// nested types, for a translation that takes their raw bytes itself (see
/// kiln-flatten-constant-globals).
void buildCpuCodegenPipeline(mlir::OpPassManager &pm,
                             bool stepPerKernel = false,
                             uint64_t rawConstantBytes = 0);

/// Appends dispatch functions on planned buffers -> LLVM dialect: register
/// tiles and vectors, loops, polynomial math, LLVM. Registered as
/// `kiln-cpu-lower-to-llvm-pipeline`. `rawConstantBytes` as above.
void buildCpuLowerToLLVMPipeline(mlir::OpPassManager &pm,
                                 uint64_t rawConstantBytes = 0);

} // namespace kiln::compiler

#endif // KILN_COMPILER_CODEGEN_CPU_CPUCODEGEN_H
