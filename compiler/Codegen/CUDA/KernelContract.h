//===- KernelContract.h - What the CUDA printer accepts ----------*- C++
//-*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The CUDA emitter prints prepared IR and decides nothing: every loop nest
// of the entry is a linalg.generic on planned buffers, numbered into
// kernels by kiln-form-kernels. This reads those kernels and reports, at
// the offending op, anything the printer could not print as it stands.
// The kiln-verify-cuda-kernels pass runs it at the end of the preparation;
// the printer runs it again on what it is given (a replayed .mlir file may
// come from anywhere).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_CODEGEN_CUDA_KERNELCONTRACT_H
#define KILN_COMPILER_CODEGEN_CUDA_KERNELCONTRACT_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <optional>
#include <string>

namespace mlir {
class Pass;
} // namespace mlir

namespace kiln::compiler::cuda {

/// One kernel: an optional fill that becomes the initial value, the loop
/// nest, and an optional epilogue applied as the nest stores. Or, between
/// kernels, a collective (exec.communicate on planned buffers: a rank of a
/// sharded model), which the runtime runs and nothing prints.
struct PreparedKernel {
  mlir::Operation *collective = nullptr;
  /// The fill's constant as CUDA source, when the kernel starts with one.
  std::optional<std::string> initValue;
  bool initIsZero = false;
  mlir::linalg::GenericOp body;
  mlir::linalg::GenericOp epilogue;
  /// Positions of `body` and `epilogue` in the entry (for provenance).
  unsigned bodyStep = 0;
  unsigned epilogueStep = 0;
};

/// The kernels of `entry` in order, or failure after reporting each
/// violation of the contract.
mlir::FailureOr<llvm::SmallVector<PreparedKernel>>
readPreparedKernels(mlir::func::FuncOp entry);

/// Ops the printer skips: constants, globals, views, the return.
bool isBookkeeping(mlir::Operation &op);

/// `kiln-verify-cuda-kernels`.
std::unique_ptr<mlir::Pass> createVerifyCudaKernelsPass();
void registerVerifyCudaKernelsPass();

} // namespace kiln::compiler::cuda

#endif // KILN_COMPILER_CODEGEN_CUDA_KERNELCONTRACT_H
