//===- SplitAccumulatorChains.h - Partial accumulators ----------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// A reduction loop whose carried accumulators are too few vectors to keep
// the FMA pipes busy waits on each FMA's latency: the one-column tail of a
// 49-pixel convolution is one 8-lane FMA chain, as slow per step as a
// 16-column tile of 8 FMAs. Unrolling the loop with independent partial
// accumulators, summed once after it, hides that latency.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_CODEGEN_CPU_SPLITACCUMULATORCHAINS_H
#define KILN_COMPILER_CODEGEN_CPU_SPLITACCUMULATORCHAINS_H

#include "compiler/Codegen/CPU/RegisterTile.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/PatternMatch.h"

namespace kiln::compiler {

/// Rewrites every innermost scf.for of `func` with a static trip count whose
/// loop-carried vectors each accumulate one contraction (a vector.contract's
/// acc) or one associative combine (addf, addi, max/min), when they hold
/// fewer than `tile.chains` dependency chains: the loop is unrolled by the
/// power of two that reaches that many (at most 4), each copy accumulating
/// into its own partial value (the first from the original initial value,
/// the others from the neutral element), combined pairwise after the loop;
/// a remainder of the trip count runs in the original loop. The loop must
/// not write memory. Floating-point sums are reassociated.
void splitAccumulatorChains(mlir::RewriterBase &rewriter,
                            mlir::func::FuncOp func,
                            const CpuRegisterTile &tile);

} // namespace kiln::compiler

#endif // KILN_COMPILER_CODEGEN_CPU_SPLITACCUMULATORCHAINS_H
