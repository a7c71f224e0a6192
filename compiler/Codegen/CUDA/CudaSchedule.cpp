//===- CudaSchedule.cpp - The CUDA program as an exec schedule ------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The emitter decides the launches; this file states them at the exec level
// so that both backends reach the artifact through one serialiser
// (extractProgram) and one set of verifiers.
//
//===----------------------------------------------------------------------===//

#include "compiler/Codegen/CUDA/CudaSchedule.h"

#include "compiler/Scheduling/StepDependencies.h"
#include "dialects/Exec/IR/ExecOps.h"
#include "mlir/IR/Verifier.h"

using namespace mlir;
using namespace kiln::exec;

namespace kiln::compiler::cuda {

LogicalResult addCudaSchedule(ModuleOp module, func::FuncOp entry,
                              const CudaProgram &program, unsigned numInputs,
                              unsigned numOutputs, uint64_t arenaBytes) {
  MLIRContext *context = module.getContext();
  Location loc = entry.getLoc();
  OpBuilder b(entry);
  SmallVector<DispatchSpec> dispatches;
  auto binding = [&](const BufferRoot &root, Access access) {
    return BindingAttr::get(context, BufferBase(uint32_t(root.base)),
                            root.index, root.byteOffset, root.bytes, access);
  };
  // Collectives run between launches, in program order.
  size_t nextCollective = 0;
  auto addCollectivesBefore = [&](size_t kernel) {
    for (; nextCollective < program.collectives.size() &&
           program.collectives[nextCollective].afterKernels <= kernel;
         ++nextCollective) {
      const EmittedCollective &emitted = program.collectives[nextCollective];
      auto communicate = cast<CommunicateOp>(emitted.op);
      DispatchSpec spec{communicate.getLoc(), ""};
      spec.bindings = {binding(emitted.send, Access::read),
                       binding(emitted.recv, Access::write)};
      spec.collective =
          CollectiveSpec{communicate.getKind(), communicate.getReduction(),
                         int32_t(communicate.getRanks()), emitted.element};
      dispatches.push_back(std::move(spec));
    }
  };
  for (auto [index, kernel] : llvm::enumerate(program.kernels)) {
    addCollectivesBefore(index);
    KernelOp::create(b, loc, kernel.name, b.getStrArrayAttr({}));
    DispatchSpec spec{kernel.sourceLoc ? Location(kernel.sourceLoc) : loc,
                      kernel.name};
    spec.block = std::array<int32_t, 3>{};
    for (int d = 0; d < 3; ++d) {
      spec.grid[d] = int32_t(kernel.grid[d]);
      (*spec.block)[d] = int32_t(kernel.block[d]);
    }
    spec.sharedBytes = int32_t(kernel.sharedBytes);
    for (auto [root, writes] : llvm::zip(kernel.params, kernel.writes))
      spec.bindings.push_back(BindingAttr::get(
          context, BufferBase(uint32_t(root.base)), root.index, root.byteOffset,
          root.bytes, writes ? Access::read_write : Access::read));
    for (const auto &[root, element] : kernel.results) {
      spec.results.push_back(BindingAttr::get(
          context, BufferBase(uint32_t(root.base)), root.index, root.byteOffset,
          root.bytes, Access::write));
      spec.resultElements.push_back(element);
    }
    spec.flops = kernel.flops;
    dispatches.push_back(std::move(spec));
  }
  addCollectivesBefore(program.kernels.size());
  auto schedule =
      ProgramOp::create(b, loc, entry.getName(), Device::cuda,
                        int32_t(numInputs), int32_t(numOutputs),
                        int64_t(arenaBytes), int64_t(program.constants.size()));
  populateDispatches(schedule, dispatches);
  // The emitted function has served its purpose; the program has its name.
  // (Erased last: the builder inserted before it.)
  entry.erase();
  return verify(schedule);
}

} // namespace kiln::compiler::cuda
