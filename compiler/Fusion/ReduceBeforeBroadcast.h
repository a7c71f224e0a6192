//===- ReduceBeforeBroadcast.h - Reduce once, then broadcast ----*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_FUSION_REDUCEBEFOREBROADCAST_H
#define KILN_COMPILER_FUSION_REDUCEBEFOREBROADCAST_H

#include "mlir/IR/PatternMatch.h"

namespace kiln::compiler {

/// A reduction whose result does not depend on some of its parallel loops
/// (no input reads them: a contraction with a splat operand folded into its
/// body, e.g. x . W with W all 0.001) recomputed the same value for every
/// index of those loops. This rewrites it as the reduction over the loops
/// that matter, then a broadcast: the same values, in the same order of
/// accumulation, for a fraction of the work. Only when the accumulator
/// starts from a fill, so it too is the same along the broadcast loops.
void populateReduceBeforeBroadcastPatterns(mlir::RewritePatternSet &patterns);

} // namespace kiln::compiler

#endif // KILN_COMPILER_FUSION_REDUCEBEFOREBROADCAST_H
