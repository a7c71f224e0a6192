//===- MemoryPlanAttr.h - The memory plan recorded on a module --*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// kiln-plan-memory records each function's plan as a module attribute, so
// that it survives lowering to the LLVM dialect; the driver reads it back
// into the artifact's memory-plan section. Shape of the attribute:
//
//   kiln.memory_plan = [{function = "f", peak_bytes = P, lower_bound_bytes
//     = L, unplanned_bytes = U (only when known), unplanned_kernel_buffers_
//     bytes = K, steps = S, kernels = K, buffers = [{offset, size, first,
//     last, op = "linalg.generic", loc = "node", in_place_of = I (only when
//     in place)}, ...]}, ...]
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_MEMORYPLANNING_MEMORYPLANATTR_H
#define KILN_COMPILER_MEMORYPLANNING_MEMORYPLANATTR_H

#include "compiler/MemoryPlanning/BufferLiveness.h"
#include "compiler/MemoryPlanning/MemoryPlanner.h"
#include "kiln/runtime/Artifact.h"
#include "mlir/IR/BuiltinOps.h"

namespace kiln::compiler {

/// Module attribute: an array with one dictionary per planned function.
inline constexpr llvm::StringLiteral kMemoryPlanAttr = "kiln.memory_plan";

/// The record of `function`'s plan (`plan` places `buffers.buffers`);
/// `graphTensorBytes` is the graph's naive allocation, when known.
mlir::DictionaryAttr
buildMemoryPlanAttr(mlir::func::FuncOp function, const FunctionBuffers &buffers,
                    const plan::MemoryPlan &plan,
                    std::optional<uint64_t> graphTensorBytes);

/// Reads the plan of `function` back; fails if it is missing or malformed.
mlir::FailureOr<rt::MemoryPlan> readMemoryPlan(mlir::ModuleOp module,
                                               llvm::StringRef function);

} // namespace kiln::compiler

#endif // KILN_COMPILER_MEMORYPLANNING_MEMORYPLANATTR_H
