//===- Passes.h - kiln -> linalg conversion ---------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_CONVERSION_GRAPHTOLINALG_PASSES_H
#define KILN_COMPILER_CONVERSION_GRAPHTOLINALG_PASSES_H

#include "dialects/Exec/IR/ExecDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
class RewritePatternSet;
} // namespace mlir

namespace kiln::compiler {

#define GEN_PASS_DECL
#include "compiler/Conversion/GraphToLinalg/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "compiler/Conversion/GraphToLinalg/Passes.h.inc"

/// Patterns lowering each op family; together they cover the dialect.
void populateElementwiseToLinalgPatterns(mlir::RewritePatternSet &patterns);
/// `largestTensorBytes` (per function, optional) bounds im2col chunks; see
/// largestComputedTensorBytes. `packWeightRows` > 1 packs constant
/// convolution weights for the CPU register tile (see im2colConvolution).
void populateContractionToLinalgPatterns(
    mlir::RewritePatternSet &patterns,
    const llvm::DenseMap<mlir::Operation *, int64_t> *largestTensorBytes =
        nullptr,
    int64_t packWeightRows = 0);
void populateNNToLinalgPatterns(mlir::RewritePatternSet &patterns);
void populateReductionToLinalgPatterns(mlir::RewritePatternSet &patterns);
void populateShapeToLinalgPatterns(mlir::RewritePatternSet &patterns);
/// all_reduce and all_gather as exec.communicate (CollectiveToLinalg.cpp).
void populateCollectiveToLinalgPatterns(mlir::RewritePatternSet &patterns);

/// The largest statically shaped tensor an op of `function` computes
/// (constants excluded): every memory plan holds it at some step.
int64_t largestComputedTensorBytes(mlir::Operation *function);

} // namespace kiln::compiler

#endif // KILN_COMPILER_CONVERSION_GRAPHTOLINALG_PASSES_H
