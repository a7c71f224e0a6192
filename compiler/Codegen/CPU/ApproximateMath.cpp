//===- ApproximateMath.cpp - Polynomial math instead of libm calls --------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// exp, expm1, tanh and erf on f32 (scalars and vectors) become MLIR's
// polynomial approximations: vectorised they run in registers, where a libm
// call per element would scalarise the loop (~10x slower, toolchain.md),
// and the kernel needs no libm symbol for them.
//
//===----------------------------------------------------------------------===//

#include "compiler/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace kiln::compiler {
#define GEN_PASS_DEF_APPROXIMATEMATHPASS
#include "compiler/Codegen/CPU/Passes.h.inc"
} // namespace kiln::compiler

using namespace mlir;

namespace {

struct ApproximateMathPass
    : kiln::compiler::impl::ApproximateMathPassBase<ApproximateMathPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    // Not log and its kin: their polynomials flush subnormal inputs
    // (log(1e-40) came out as -87.3, not -92.1).
    populateMathPolynomialApproximationPatterns(patterns, [](StringRef name) {
      return llvm::is_contained(
          {math::ExpOp::getOperationName(), math::ExpM1Op::getOperationName(),
           math::TanhOp::getOperationName(), math::ErfOp::getOperationName()},
          name);
    });
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
