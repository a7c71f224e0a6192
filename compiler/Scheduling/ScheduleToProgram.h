//===- ScheduleToProgram.h - exec programs in the runtime's form -*- C++
//-*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_SCHEDULING_SCHEDULETOPROGRAM_H
#define KILN_COMPILER_SCHEDULING_SCHEDULETOPROGRAM_H

#include "kiln/runtime/Artifact.h"
#include "mlir/IR/BuiltinOps.h"

namespace kiln::compiler {

/// Reads `exec.program @entry` of `module` into the runtime's form (the
/// artifact's steps) and erases it and every other exec.program: LLVM
/// translation knows no exec ops, and an executable runs one entry.
/// A barrier without `after` waits for every earlier step that no other
/// earlier step waits for (which implies the rest).
mlir::FailureOr<rt::DeviceProgram> extractProgram(mlir::ModuleOp module,
                                                  llvm::StringRef entry);

} // namespace kiln::compiler

#endif // KILN_COMPILER_SCHEDULING_SCHEDULETOPROGRAM_H
