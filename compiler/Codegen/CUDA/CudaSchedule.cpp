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
  std::string name = entry.getName().str();
  OpBuilder b(entry);
  SmallVector<SmallVector<BindingAttr>> bindings;
  for (const EmittedKernel &kernel : program.kernels) {
    KernelOp::create(b, loc, kernel.name, b.getStrArrayAttr({}));
    SmallVector<BindingAttr> bound;
    for (const BufferRoot &root : kernel.params) {
      bool readOnly = root.base == rt::KernelArg::Base::kInput ||
                      root.base == rt::KernelArg::Base::kConstants;
      bound.push_back(BindingAttr::get(
          context, BufferBase(uint32_t(root.base)), root.index, root.byteOffset,
          root.bytes, readOnly ? Access::read : Access::read_write));
    }
    bindings.push_back(std::move(bound));
  }
  SmallVector<SmallVector<unsigned>> after = computeStepDependencies(bindings);
  auto schedule = ProgramOp::create(
      b, loc, name, Device::cuda, int32_t(numInputs), int32_t(numOutputs),
      int64_t(arenaBytes), int64_t(program.constants.size()));
  schedule.getBody().emplaceBlock();
  OpBuilder steps = OpBuilder::atBlockBegin(&schedule.getBody().front());
  SmallVector<Value> tokens;
  for (auto [index, kernel] : llvm::enumerate(program.kernels)) {
    SmallVector<Value> waits;
    for (unsigned dependency : after[index])
      waits.push_back(tokens[dependency]);
    SmallVector<Attribute> bound(bindings[index].begin(),
                                 bindings[index].end());
    auto dispatch = DispatchOp::create(
        steps, loc, TokenType::get(context), kernel.name,
        steps.getDenseI32ArrayAttr({int32_t(kernel.grid[0]),
                                    int32_t(kernel.grid[1]),
                                    int32_t(kernel.grid[2])}),
        steps.getDenseI32ArrayAttr({int32_t(kernel.block[0]),
                                    int32_t(kernel.block[1]),
                                    int32_t(kernel.block[2])}),
        int32_t(kernel.sharedBytes), steps.getArrayAttr(bound), waits);
    tokens.push_back(dispatch.getDone());
  }
  // The emitted function has served its purpose; the program has its name.
  // (Erased last: the builder inserted before it.)
  entry.erase();
  return verify(schedule);
}

} // namespace kiln::compiler::cuda
