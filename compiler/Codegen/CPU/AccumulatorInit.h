//===- AccumulatorInit.h - Reductions starting from a value ----*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// kiln-fold-accumulator-fills moves the fill that initialises a
// reduction's output (a contraction's zeros, a max pool's -inf) onto the
// op as `kiln.accumulator_init`: the op then
// means "the output starts as this value", not "accumulate into what the
// buffer holds". kiln-vectorize-linalg honours it by filling each register
// tile just before its reduction loop (so the output is written to memory
// once, not filled by a pass of its own and then read back), or by putting
// the fill back in front of the op where it does not tile it so. No other
// pass may see the attribute: the two run back to back in the CPU pipeline.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_CODEGEN_CPU_ACCUMULATORINIT_H
#define KILN_COMPILER_CODEGEN_CPU_ACCUMULATORINIT_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

namespace kiln::compiler {

inline constexpr char kAccumulatorInitAttr[] = "kiln.accumulator_init";

/// The value `op`'s output starts as, if it carries one.
inline mlir::TypedAttr accumulatorInit(mlir::Operation *op) {
  return op->getAttrOfType<mlir::TypedAttr>(kAccumulatorInitAttr);
}

/// Puts the fill back: `linalg.fill` of the initial value into `op`'s
/// output just before it, and the attribute off `op`. Returns the fill.
mlir::linalg::FillOp materializeAccumulatorInit(mlir::RewriterBase &rewriter,
                                                mlir::linalg::LinalgOp op);

} // namespace kiln::compiler

#endif // KILN_COMPILER_CODEGEN_CPU_ACCUMULATORINIT_H
