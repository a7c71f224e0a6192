//===- CudaSchedule.h - The CUDA program as an exec schedule ----*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_CODEGEN_CUDA_CUDASCHEDULE_H
#define KILN_COMPILER_CODEGEN_CUDA_CUDASCHEDULE_H

#include "compiler/Codegen/CUDA/CudaCodegen.h"
#include "mlir/IR/BuiltinOps.h"

namespace kiln::compiler::cuda {

/// Replaces the emitted entry function `entry` of `module` by the CUDA
/// schedule of `program`: an `exec.kernel` per kernel and an
/// `exec.program @<entry> device(cuda)` with one dispatch per launch (grid,
/// block, shared memory, the kernel's pointer parameters as bindings;
/// inputs and constants read, the rest read and written), dependencies from
/// overlapping bindings as on the CPU. The program is verified; errors are
/// emitted on it.
mlir::LogicalResult addCudaSchedule(mlir::ModuleOp module,
                                    mlir::func::FuncOp entry,
                                    const CudaProgram &program,
                                    unsigned numInputs, unsigned numOutputs,
                                    uint64_t arenaBytes);

} // namespace kiln::compiler::cuda

#endif // KILN_COMPILER_CODEGEN_CUDA_CUDASCHEDULE_H
