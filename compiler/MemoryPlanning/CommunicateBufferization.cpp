//===- CommunicateBufferization.cpp - exec.communicate on buffers ---------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "compiler/MemoryPlanning/CommunicateBufferization.h"

#include "dialects/Exec/IR/ExecOps.h"
#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/DstBufferizableOpInterfaceImpl.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::bufferization;

namespace kiln::compiler {

namespace {

struct CommunicateOpModel
    : DstBufferizableOpInterfaceExternalModel<CommunicateOpModel,
                                              exec::CommunicateOp> {
  // The collective overwrites all of its destination: its old contents
  // need no copy.
  bool bufferizesToMemoryRead(Operation *op, OpOperand &operand,
                              const AnalysisState &) const {
    return !cast<DestinationStyleOpInterface>(op).isDpsInit(&operand);
  }

  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto communicate = cast<exec::CommunicateOp>(op);
    FailureOr<Value> input =
        getBuffer(rewriter, communicate.getInput(), options, state);
    if (failed(input))
      return failure();
    FailureOr<Value> init =
        getBuffer(rewriter, communicate.getInit(), options, state);
    if (failed(init))
      return failure();
    rewriter.setInsertionPoint(op);
    exec::CommunicateOp::create(
        rewriter, op->getLoc(), TypeRange(), communicate.getKind(),
        communicate.getReduction(), communicate.getRanks(), *input, *init);
    replaceOpWithBufferizedValues(rewriter, op, *init);
    return success();
  }
};

} // namespace

void registerCommunicateBufferization(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, exec::KilnExecDialect *) {
    exec::CommunicateOp::attachInterface<CommunicateOpModel>(*context);
  });
}

} // namespace kiln::compiler
