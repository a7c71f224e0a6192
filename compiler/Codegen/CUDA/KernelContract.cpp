//===- KernelContract.cpp - What the CUDA printer accepts -----------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "compiler/Codegen/CUDA/KernelContract.h"

#include "compiler/Codegen/CUDA/ScalarCode.h"
#include "compiler/Fusion/KernelFormation.h"
#include "dialects/Exec/IR/ExecOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;

namespace kiln::compiler::cuda {

bool isBookkeeping(Operation &op) {
  return op.hasTrait<OpTrait::ConstantLike>() ||
         isa<memref::GetGlobalOp, func::ReturnOp, ViewLikeOpInterface>(op);
}

namespace {
struct Numbered {
  mutable linalg::GenericOp op;
  unsigned step;
};

/// Checks one kernel's ops (in order) and describes it.
FailureOr<PreparedKernel> readKernel(ArrayRef<Numbered> ops, int64_t number) {
  PreparedKernel kernel;
  auto shapeError = [&]() {
    InFlightDiagnostic error = ops.back().op.emitError()
                               << "CUDA code generation: kernel " << number
                               << " is not an optional fill, a loop nest and "
                                  "an optional epilogue of a contraction";
    for (const Numbered &op : ops.drop_back())
      error.attachNote(op.op.getLoc()) << "another op of kernel " << number;
    return error;
  };
  if (ops.size() > 3)
    return shapeError();
  size_t next = 0;
  if (ops.size() > 1)
    if (std::optional<FillInfo> fill = asConstantFill(ops[0].op)) {
      auto into = ops[1].op;
      if (into.getNumReductionLoops() == 0 || into.getNumDpsInits() != 1 ||
          into.getDpsInits()[0] != fill->target)
        return ops[1].op.emitError()
               << "CUDA code generation: kernel " << number
               << " starts with a fill, but this loop nest does not reduce "
                  "into the filled buffer alone";
      Attribute constant;
      (void)matchPattern(fill->value, m_Constant(&constant));
      std::string text = literal(constant, fill->value.getType());
      if (text.empty())
        return ops[0].op.emitError()
               << "CUDA code generation: the initial value of kernel " << number
               << " has no CUDA literal";
      kernel.initValue = std::move(text);
      kernel.initIsZero = matchPattern(fill->value, m_AnyZeroFloat()) ||
                          matchPattern(fill->value, m_Zero());
      next = 1;
    }
  kernel.body = ops[next].op;
  kernel.bodyStep = ops[next].step;
  if (++next == ops.size())
    return kernel;
  if (next + 1 != ops.size())
    return shapeError();
  kernel.epilogue = ops[next].op;
  kernel.epilogueStep = ops[next].step;
  if (!isMatmulLike(kernel.body))
    return kernel.epilogue.emitError()
           << "CUDA code generation: an epilogue in kernel " << number
           << " follows a loop nest that is not a contraction";
  if (kernel.epilogue.getNumReductionLoops() != 0)
    return kernel.epilogue.emitError()
           << "CUDA code generation: the epilogue of kernel " << number
           << " has reduction loops";
  return kernel;
}
} // namespace

FailureOr<SmallVector<PreparedKernel>> readPreparedKernels(func::FuncOp entry) {
  if (!entry.getBody().hasOneBlock())
    return entry.emitError("CUDA code generation needs an entry of one block");
  // Collect the numbered runs, reporting every violation before failing.
  SmallVector<SmallVector<Numbered>> runs;
  SmallVector<int64_t> numbers;
  // Runs that are a collective instead of a kernel (their run is empty).
  llvm::DenseMap<size_t, Operation *> collectives;
  constexpr int64_t kCollectiveRun = -1;
  llvm::DenseSet<int64_t> finished;
  bool ok = true;
  unsigned step = 0;
  for (Operation &op : entry.getBody().front()) {
    unsigned current = step++;
    if (isBookkeeping(op))
      continue;
    if (isa<exec::CommunicateOp>(op)) {
      if (!numbers.empty())
        finished.insert(numbers.back());
      collectives[runs.size()] = &op;
      numbers.push_back(kCollectiveRun);
      runs.emplace_back();
      continue;
    }
    auto generic = dyn_cast<linalg::GenericOp>(op);
    if (!generic) {
      op.emitError("CUDA code generation does not support '")
          << op.getName() << "' yet";
      ok = false;
      continue;
    }
    if (llvm::any_of(generic.getStaticLoopRanges(), ShapedType::isDynamic)) {
      generic.emitError("CUDA code generation needs static loop ranges");
      ok = false;
      continue;
    }
    std::optional<int64_t> number = kernelOf(generic);
    if (!number) {
      generic.emitError("CUDA code generation: this loop nest belongs to no "
                        "kernel (kiln.kernel; run kiln-form-kernels)");
      ok = false;
      continue;
    }
    if (!numbers.empty() && numbers.back() == *number) {
      runs.back().push_back({generic, current});
      continue;
    }
    if (!numbers.empty())
      finished.insert(numbers.back());
    if (finished.contains(*number)) {
      generic.emitError() << "CUDA code generation: kernel " << *number
                          << " continues after another kernel; the ops of a "
                             "kernel must be consecutive";
      ok = false;
      continue;
    }
    numbers.push_back(*number);
    runs.push_back({{generic, current}});
  }
  SmallVector<PreparedKernel> kernels;
  for (auto [index, run, number] : llvm::enumerate(runs, numbers)) {
    if (Operation *collective = collectives.lookup(index)) {
      PreparedKernel step;
      step.collective = collective;
      kernels.push_back(step);
      continue;
    }
    FailureOr<PreparedKernel> kernel = readKernel(run, number);
    if (failed(kernel))
      ok = false;
    else
      kernels.push_back(*kernel);
  }
  if (!ok)
    return failure();
  return kernels;
}

namespace {
struct VerifyCudaKernelsPass
    : PassWrapper<VerifyCudaKernelsPass, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(VerifyCudaKernelsPass)

  StringRef getArgument() const override { return "kiln-verify-cuda-kernels"; }
  StringRef getDescription() const override {
    return "Check that prepared IR is what the CUDA printer prints: "
           "linalg.generic ops on static buffers, numbered into kernels of "
           "an optional fill, a loop nest and an optional contraction "
           "epilogue";
  }
  void runOnOperation() override {
    if (getOperation().isExternal())
      return;
    if (failed(readPreparedKernels(getOperation())))
      signalPassFailure();
    markAllAnalysesPreserved();
  }
};
} // namespace

std::unique_ptr<Pass> createVerifyCudaKernelsPass() {
  return std::make_unique<VerifyCudaKernelsPass>();
}

void registerVerifyCudaKernelsPass() {
  PassRegistration<VerifyCudaKernelsPass>();
}

} // namespace kiln::compiler::cuda
