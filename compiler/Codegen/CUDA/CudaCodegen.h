//===- CudaCodegen.h - Kiln graphs as CUDA C++ kernels ------------*- C++
//-*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The CUDA backend's code generation: the same linalg lowering, fusion
// groups, memory plan and kernels (kiln-form-kernels) as the CPU backend,
// then every kernel of the entry function printed as CUDA C++
// (KernelEmitter) with the launch that runs it.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_CODEGEN_CUDA_CUDACODEGEN_H
#define KILN_COMPILER_CODEGEN_CUDA_CUDACODEGEN_H

#include "compiler/Codegen/CUDA/KernelEmitter.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

#include <string>
#include <vector>

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace kiln::compiler::cuda {

/// Every kernel of a model, the constants they read and the launches.
/// A collective step between launches (a rank of a sharded model): the
/// runtime's communicator (NCCL) exchanges `send` into `recv`.
struct EmittedCollective {
  mlir::Operation *op = nullptr; ///< The exec.communicate, until scheduled.
  BufferRoot send, recv;         ///< Exactly the bytes exchanged.
  mlir::Type element;
  size_t afterKernels = 0; ///< Runs after kernels [0, afterKernels).
};

struct CudaProgram {
  std::vector<EmittedKernel> kernels;
  /// In program order (ascending afterKernels).
  std::vector<EmittedCollective> collectives;
  std::vector<uint8_t> constants;
  bool usesHalf = false;
  /// The launches as the artifact stores them: the exec.program that
  /// addCudaSchedule builds, serialised (see extractProgram).
  rt::DeviceProgram schedule;

  /// One translation unit holding `kernels` (all of them by default).
  std::string source(llvm::ArrayRef<EmittedKernel> kernels) const;
  std::string source() const { return source(kernels); }
  /// The schedule step that launches kernel `kernel` (collectives before
  /// it shift it).
  size_t stepOfKernel(size_t kernel) const;
  /// One comment line per kernel with its launch, e.g.
  /// `// launch kiln_k0 grid 1 1 1 block 256 1 1 shared 0 args arena:0+64:128
  /// input:0+0:32` (base:index+byte offset:bytes): what --emit=cuda appends so
  /// that people and test harnesses can run the kernels.
  std::string launchSummary() const;
};

/// Appends kiln (tensors) -> linalg.generic on planned buffers: what
/// emitCudaProgram reads. Registered as `kiln-cuda-prepare-pipeline`.
void buildCudaPreparationPipeline(mlir::OpPassManager &pm);

/// Prints the kernels of `entry` (prepared; arguments: inputs, outputs,
/// arena), one per `kiln.kernel` (KernelContract.h). Errors are emitted on
/// the offending op. `oldestSm` is the oldest GPU the kernels must run on
/// (major * 10 + minor): below 80 contractions use no tensor cores.
mlir::FailureOr<CudaProgram> emitCudaProgram(mlir::func::FuncOp entry,
                                             unsigned numInputs,
                                             unsigned numOutputs,
                                             unsigned oldestSm = 80);

/// The same for the one function of `module` with an `exec.interface`
/// (what kiln-cuda-pipeline leaves): the replay of emission from a
/// prepared .mlir file.
mlir::FailureOr<CudaProgram> emitCudaProgram(mlir::ModuleOp module);

/// mma.sync with tf32, f16 and bf16 operands (what the tensor-core
/// contractions use) needs Ampere.
constexpr unsigned kOldestTensorCoreSm = 80;

void registerCudaCodegenPasses();

} // namespace kiln::compiler::cuda

#endif // KILN_COMPILER_CODEGEN_CUDA_CUDACODEGEN_H
