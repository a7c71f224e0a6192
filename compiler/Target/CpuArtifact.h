//===- CpuArtifact.h - Ahead-of-time CPU artifacts --------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Turns a module lowered to the LLVM dialect into a .kiln artifact: LLVM IR
// with an entry per dispatch (CpuDispatchEntries), optimised and compiled to an object file for
// the host CPU, linked into a shared object with lld, and wrapped with the
// program that tells the runtime how to call it.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_TARGET_CPUARTIFACT_H
#define KILN_COMPILER_TARGET_CPUARTIFACT_H

#include "compiler/MemoryPlanning/EntrySignature.h"
#include "kiln/runtime/Artifact.h"
#include "kiln/runtime/Status.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/Timing.h"

namespace kiln::compiler {

/// Constant globals of at least this many bytes (weights) are written to
/// the artifact as raw bytes, not through LLVM: the lowering need not
/// flatten them (PipelineOptions::rawConstantBytes). 0 where this host
/// cannot write such objects.
uint64_t rawConstantBytes();

/// Builds the artifact of `loweredModule` (LLVM dialect, its schedule
/// `program` already extracted) whose interface is described by
/// `signature`. `cpu` selects the instruction set: "native"
/// (this machine's CPU and features, e.g. AVX-512), or an LLVM CPU name such
/// as "x86-64" (portable baseline), "x86-64-v3" (AVX2) or "x86-64-v4".
/// With `timing`, its phases (translation, optimisation, machine code,
/// linking) are timed under it. The module's large constants move out of it
/// (see rawConstantBytes): it is spent.
rt::StatusOr<rt::Artifact>
buildCpuArtifact(mlir::ModuleOp loweredModule, const EntrySignature &signature,
                 rt::DeviceProgram program, llvm::StringRef cpu = "native",
                 mlir::TimingScope *timing = nullptr);

} // namespace kiln::compiler

#endif // KILN_COMPILER_TARGET_CPUARTIFACT_H
