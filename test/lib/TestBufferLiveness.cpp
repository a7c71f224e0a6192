//===- TestBufferLiveness.cpp - Print liveness and the memory plan --------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// `kiln-test-print-buffer-liveness` runs the analysis kiln-plan-memory uses
// (BufferLiveness) and the packer (MemoryPlanner) on each function of a
// bufferised module and reports, without changing the IR:
//
//   on each planned allocation: "buffer #I: N bytes, steps F..L[, escapes]
//     [, in place of #J | , in-place candidate #J refused], offset O"
//   on the function: "plan: S steps, K kernels, B buffers, peak P, lower
//     bound LB, unplanned kernel buffers U"
//
// so that lit tests can check liveness, in-place reuse and packing with
// expected-remark, one buffer at a time.
//
//===----------------------------------------------------------------------===//

#include "test/lib/TestPasses.h"

#include "compiler/MemoryPlanning/BufferLiveness.h"
#include "compiler/MemoryPlanning/Passes.h"
#include "compiler/MemoryPlanning/MemoryPlanner.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace kiln::compiler;

namespace {

struct TestBufferLivenessPass
    : PassWrapper<TestBufferLivenessPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestBufferLivenessPass)

  StringRef getArgument() const final {
    return "kiln-test-print-buffer-liveness";
  }
  StringRef getDescription() const final {
    return "Print each buffer's lifetime, in-place reuse and arena offset as "
           "remarks (test only)";
  }

  void runOnOperation() override {
    for (auto function : getOperation().getOps<func::FuncOp>()) {
      if (function.isExternal())
        continue;
      FailureOr<FunctionBuffers> buffers = analyzeBuffers(function);
      if (failed(buffers))
        return signalPassFailure();
      report(function, *buffers);
    }
  }

  /// Plans exactly as kiln-plan-memory does, then prints.
  static void report(func::FuncOp function, const FunctionBuffers &buffers) {
    std::vector<kiln::plan::BufferRequest> requests;
    for (const BufferLifetime &b : buffers.buffers)
      requests.push_back({b.bytes, b.firstUse, b.lastUse, b.reuses});
    kiln::plan::MemoryPlan plan =
        kiln::plan::planMemory(requests, kArenaAlignment);
    for (auto [index, b] : llvm::enumerate(buffers.buffers)) {
      memref::AllocOp alloc = b.alloc;
      InFlightDiagnostic remark = alloc.emitRemark()
                                  << "buffer #" << index << ": " << b.bytes
                                  << " bytes, steps " << b.firstUse << ".."
                                  << b.lastUse;
      if (b.escapes)
        remark << ", escapes";
      if (b.reuses >= 0)
        remark << (plan.inPlace[index] ? ", in place of #"
                                       : ", in-place candidate #")
               << b.reuses << (plan.inPlace[index] ? "" : " refused");
      remark << ", offset " << plan.offsets[index];
    }
    function.emitRemark() << "plan: " << buffers.steps.size() << " steps, "
                          << buffers.kernels << " kernels, "
                          << buffers.buffers.size() << " buffers, peak "
                          << plan.peakBytes << ", lower bound "
                          << plan.lowerBoundBytes
                          << ", unplanned kernel buffers "
                          << plan.unplannedBytes;
  }
};

} // namespace

void kiln::test::registerTestBufferLivenessPass() {
  PassRegistration<TestBufferLivenessPass>();
}
