//===- ConvertGraphToLinalg.cpp - The kiln -> linalg conversion pass ------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Runs the per-family patterns under the dialect-conversion driver with the
// whole kiln dialect illegal, so that an op without a lowering is reported
// at its location instead of silently surviving into code generation.
//
//===----------------------------------------------------------------------===//

#include "compiler/Conversion/GraphToLinalg/Passes.h"

#include "dialects/Exec/IR/ExecOps.h"
#include "dialects/Graph/IR/GraphDialect.h"
#include "dialects/Graph/IR/GraphOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Transforms/DialectConversion.h"

#define DEBUG_TYPE "kiln-convert-graph-to-linalg"

namespace kiln::compiler {
#define GEN_PASS_DEF_CONVERTGRAPHTOLINALGPASS
#include "compiler/Conversion/GraphToLinalg/Passes.h.inc"
} // namespace kiln::compiler

#include <limits>

using namespace mlir;

namespace {

struct ConvertGraphToLinalgPass
    : kiln::compiler::impl::ConvertGraphToLinalgPassBase<
          ConvertGraphToLinalgPass> {
  using ConvertGraphToLinalgPassBase::ConvertGraphToLinalgPassBase;

  void runOnOperation() override {
    MLIRContext *context = &getContext();
    // The mesh has served the graph-level passes; each program is one
    // rank's from here on.
    for (auto mesh :
         llvm::make_early_inc_range(getOperation().getOps<kiln::MeshOp>()))
      mesh.erase();
    ConversionTarget target(*context);
    target.addIllegalDialect<kiln::KilnDialect>();
    target.addLegalDialect<arith::ArithDialect, linalg::LinalgDialect,
                           math::MathDialect, tensor::TensorDialect,
                           func::FuncDialect>();
    target.addLegalOp<ModuleOp, kiln::exec::CommunicateOp>();
    // Fusion groups keep their bodies together through the conversion;
    // kiln-fuse-group-loops then fuses each group's loops and dissolves it.
    target.addLegalOp<kiln::FusionOp, kiln::YieldOp>();

    // Measured before conversion adds buffers the graph does not have.
    llvm::DenseMap<Operation *, int64_t> largestTensorBytes;
    // Without chunking, no col matrix is over budget.
    getOperation().walk([&](func::FuncOp function) {
      largestTensorBytes[function] =
          im2colChunks ? kiln::compiler::largestComputedTensorBytes(function)
                       : std::numeric_limits<int64_t>::max();
    });

    RewritePatternSet patterns(context);
    kiln::compiler::populateElementwiseToLinalgPatterns(patterns);
    kiln::compiler::populateContractionToLinalgPatterns(
        patterns, &largestTensorBytes, packWeightRows);
    kiln::compiler::populateNNToLinalgPatterns(patterns);
    kiln::compiler::populateReductionToLinalgPatterns(patterns);
    kiln::compiler::populateShapeToLinalgPatterns(patterns);
    kiln::compiler::populateCollectiveToLinalgPatterns(patterns);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
