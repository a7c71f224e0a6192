//===- HostTarget.h - This machine as LLVM's target, for tests --*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TEST_UNIT_COMPILER_CODEGEN_CPU_HOSTTARGET_H
#define KILN_TEST_UNIT_COMPILER_CODEGEN_CPU_HOSTTARGET_H

#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"

#include <gtest/gtest.h>
#include <memory>

namespace kiln::testing {

/// A target machine for this host, as artifacts are built, with `module`'s
/// data layout and triple set to it. Null, with a test failure, when LLVM
/// cannot describe the host.
inline std::unique_ptr<llvm::TargetMachine>
hostTargetMachineFor(llvm::Module &module) {
  llvm::InitializeNativeTarget();
  auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!builder) {
    ADD_FAILURE() << llvm::toString(builder.takeError());
    return nullptr;
  }
  auto machine = builder->createTargetMachine();
  if (!machine) {
    ADD_FAILURE() << llvm::toString(machine.takeError());
    return nullptr;
  }
  module.setDataLayout((*machine)->createDataLayout());
  module.setTargetTriple((*machine)->getTargetTriple());
  return std::move(*machine);
}

} // namespace kiln::testing

#endif // KILN_TEST_UNIT_COMPILER_CODEGEN_CPU_HOSTTARGET_H
