//===- KernelEmitter.h - One linalg.generic as one CUDA kernel ---*- C++
//-*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Prints a CUDA kernel for a linalg.generic on planned buffers. The shape
// of the kernel follows the op:
//   - all loops parallel: one thread per point, grid-stride, 128-bit
//     (float4) loads and stores when every dense operand allows them;
//   - a contraction (matmul, batch matmul, im2col convolution): 64x64
//     output tiles staged through shared memory, on tensor cores (WMMA)
//     for f32/f16/bf16 multiply-accumulate bodies, else 4x4 per thread with
//     the generic's own body (ContractionKernel.cpp);
//   - a reduction with a recognised combiner: a warp (or a block) per
//     output point, shuffles to combine;
//   - anything else: one thread per output point looping over the
//     reduction dimensions.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_CODEGEN_CUDA_KERNELEMITTER_H
#define KILN_COMPILER_CODEGEN_CUDA_KERNELEMITTER_H

#include "compiler/Codegen/CUDA/BufferAccess.h"
#include "kiln/runtime/GemmCall.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <optional>
#include <string>

namespace kiln::compiler::cuda {

/// How the emitter laid out a kernel (also shown in its header comment).
enum class KernelKind {
  kElementwise,
  kContraction,
  kTensorCoreContraction,
  kWarpReduction,
  kBlockReduction,
  kSerialReduction
};
const char *kernelKindName(KernelKind kind);

/// A kernel ready for NVRTC and the launch that runs it.
struct EmittedKernel {
  std::string name;
  KernelKind kind = KernelKind::kElementwise;
  std::string source;
  uint32_t grid[3] = {1, 1, 1};
  uint32_t block[3] = {1, 1, 1};
  uint32_t sharedBytes = 0;
  /// One device pointer parameter per root, in order.
  std::vector<BufferRoot> params;
  /// Whether the kernel writes through each parameter (an output of its
  /// loop nest or epilogue); the others it only reads.
  std::vector<bool> writes;
  bool usesHalf = false;
  /// The request's epilogue was fused in (it needs no kernel of its own).
  bool fusedEpilogue = false;
  /// Needs <mma.h> and the program's tensor-core helpers.
  bool usesTensorCores = false;
  /// The kernel as a GEMM a BLAS library may run instead (its `step` is
  /// set when the schedule is built; `arg`s index `params`).
  std::optional<rt::GemmCall> gemm;

  // Debug information for the launch (see StepDebugInfo.h), filled in by
  // emitCudaProgram: its ops' location, arithmetic, and the whole buffers
  // it computes with their element types.
  mlir::LocationAttr sourceLoc;
  int64_t flops = 0;
  std::vector<std::pair<BufferRoot, mlir::Type>> results;
};

/// What surrounds the generic: its name, a comment line naming its source
/// ops, and the constant its output starts from when a linalg.fill before
/// it was folded in.
struct KernelRequest {
  std::string name;
  std::string provenance;
  std::optional<std::string> initValue;
  /// initValue is zero (the contraction overwrites its output).
  bool initIsZero = false;
  /// The elementwise generic that comes next, if any: a contraction
  /// applies it as it stores its tiles when that is legal (see
  /// ContractionKernel.cpp), instead of writing a buffer it then re-reads.
  mlir::linalg::GenericOp epilogue;
  /// The source comment of the epilogue, when fused.
  std::string epilogueProvenance;
  /// Whether contractions may use tensor cores (mma.sync needs sm_80): off
  /// when the target names an older GPU, which then gets the SIMT kernels.
  bool tensorCores = true;
};

/// Emits `op`; errors are reported on `op`.
mlir::FailureOr<EmittedKernel> emitKernel(mlir::linalg::GenericOp op,
                                          const KernelRequest &request,
                                          BufferResolver &buffers);

} // namespace kiln::compiler::cuda

#endif // KILN_COMPILER_CODEGEN_CUDA_KERNELEMITTER_H
