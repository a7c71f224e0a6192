//===- CpuJit.h - Run a lowered model in-process ----------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// JIT-compiles a module in the LLVM dialect (the output of
// buildCpuCodegenPipeline) for the host CPU and runs its entry point on host
// tensors. No files are written.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_CODEGEN_CPU_CPUJIT_H
#define KILN_COMPILER_CODEGEN_CPU_CPUJIT_H

#include "compiler/Codegen/CPU/EntrySignature.h"
#include "kiln/runtime/Arena.h"
#include "kiln/runtime/HostTensor.h"
#include "kiln/runtime/Status.h"

#include <memory>

namespace mlir {
class ExecutionEngine;
} // namespace mlir

namespace kiln::compiler {

/// A JIT-compiled model. Thread-compatible: one run at a time.
class CpuJitExecutable {
public:
  /// Compiles `loweredModule` (LLVM dialect) to machine code for this host.
  static rt::StatusOr<std::unique_ptr<CpuJitExecutable>>
  create(mlir::ModuleOp loweredModule, EntrySignature signature);

  ~CpuJitExecutable();

  const EntrySignature &signature() const { return signature_; }

  /// Checks `inputs` against the signature (count, dtype, shape) and runs
  /// the model into `outputs`, which are (re)allocated to the right shapes.
  rt::Status run(const std::vector<rt::HostTensor> &inputs,
                 std::vector<rt::HostTensor> &outputs);

  /// Runs on caller-owned buffers, checked first. One run at a time.
  rt::Status run(const std::vector<rt::TensorRef> &inputs,
                 const std::vector<rt::TensorRef> &outputs);

private:
  CpuJitExecutable(std::unique_ptr<mlir::ExecutionEngine> engine,
                   EntrySignature signature, void (*entry)(void **));

  std::unique_ptr<mlir::ExecutionEngine> engine_;
  /// The packed entry, looked up once: a lookup per call costs microseconds.
  void (*entry_)(void **);
  /// Working memory of the kernels (see kiln-plan-memory).
  rt::Arena arena_;
  EntrySignature signature_;
};

} // namespace kiln::compiler

#endif // KILN_COMPILER_CODEGEN_CPU_CPUJIT_H
