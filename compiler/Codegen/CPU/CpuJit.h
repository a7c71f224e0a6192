//===- CpuJit.h - Run a lowered model in-process ----------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// JIT-compiles a module in the LLVM dialect (the output of
// buildCpuCodegenPipeline, its exec.program extracted) for the host CPU
// and runs its schedule with the runtime's CPU executor, exactly as an
// artifact runs. No files are written.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_CODEGEN_CPU_CPUJIT_H
#define KILN_COMPILER_CODEGEN_CPU_CPUJIT_H

#include "compiler/MemoryPlanning/EntrySignature.h"
#include "kiln/runtime/CpuExecutable.h"
#include "kiln/runtime/HostTensor.h"
#include "kiln/runtime/Status.h"

#include <memory>

namespace kiln::compiler {

/// A JIT-compiled model. Thread-safe, like rt::CpuExecutable.
class CpuJitExecutable {
public:
  /// Compiles `loweredModule` (LLVM dialect) to machine code for this host;
  /// `program` is its schedule (see extractProgram).
  static rt::StatusOr<std::unique_ptr<CpuJitExecutable>>
  create(mlir::ModuleOp loweredModule, EntrySignature signature,
         rt::DeviceProgram program, const rt::ExecutableOptions &options = {});

  const EntrySignature &signature() const { return signature_; }
  rt::CpuExecutable &executable() { return *executable_; }
  const rt::CpuExecutable &executable() const { return *executable_; }

  /// Checks `inputs` against the signature (count, dtype, shape) and runs
  /// the model into `outputs`, which are (re)allocated to the right shapes.
  rt::Status run(const std::vector<rt::HostTensor> &inputs,
                 std::vector<rt::HostTensor> &outputs,
                 const rt::RunOptions &options = {}) {
    return executable_->run(inputs, outputs, options);
  }

  /// Runs on caller-owned buffers, checked first.
  rt::Status run(const std::vector<rt::TensorRef> &inputs,
                 const std::vector<rt::TensorRef> &outputs,
                 const rt::RunOptions &options = {}) {
    return executable_->run(inputs, outputs, options);
  }

private:
  CpuJitExecutable(std::unique_ptr<rt::CpuExecutable> executable,
                   EntrySignature signature)
      : executable_(std::move(executable)), signature_(std::move(signature)) {}

  /// Owns the ExecutionEngine that holds the machine code.
  std::unique_ptr<rt::CpuExecutable> executable_;
  EntrySignature signature_;
};

} // namespace kiln::compiler

#endif // KILN_COMPILER_CODEGEN_CPU_CPUJIT_H
