//===- CpuDispatchEntries.h - How the runtime calls CPU dispatches -*- C++ -*-//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_CODEGEN_CPU_CPUDISPATCHENTRIES_H
#define KILN_COMPILER_CODEGEN_CPU_CPUDISPATCHENTRIES_H

#include "kiln/runtime/Artifact.h"
#include "kiln/runtime/Status.h"

namespace llvm {
class Module;
} // namespace llvm

namespace kiln::compiler {

/// Adds, for each dispatch of `program`, the entry the runtime calls
/// (kiln/runtime/CpuSchedule.h): `void <entry>(void **args, i64 begin,
/// i64 end)`, which loads the dispatch function's buffer parameters through
/// `args` (kiln/runtime/CpuCallingConvention.h) and passes the workgroup
/// range on. The same for the JIT and for artifacts.
rt::Status addCpuDispatchEntries(llvm::Module &module,
                                 const rt::DeviceProgram &program);

} // namespace kiln::compiler

#endif // KILN_COMPILER_CODEGEN_CPU_CPUDISPATCHENTRIES_H
