//===- OpCost.h - What a graph op costs, for balancing stages ---*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// A roofline-style estimate of one kiln op's time on one CPU core: its
// arithmetic at a nominal rate plus the bytes it reads and writes at a
// nominal memory bandwidth. Only ratios matter for balancing pipeline
// stages; the benchmarks calibrate the rate from a measured run.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_SHARDING_OPCOST_H
#define KILN_COMPILER_SHARDING_OPCOST_H

#include "mlir/IR/Operation.h"

#include <cstdint>

namespace kiln::compiler::sharding {

struct CostRates {
  double flopsPerSecond = 50e9; ///< One core's sustained contraction rate.
  double memoryBytesPerSecond = 20e9;
  double linkBytesPerSecond = 10e9; ///< Between two ranks (a stage boundary).
};

/// Arithmetic operations of `op`: 2·M·N·K for contractions, one per
/// result element for elementwise ops, one per input element for
/// reductions.
int64_t graphOpFlops(mlir::Operation *op);

/// Bytes `op` reads (every tensor operand) and writes (every result).
int64_t graphOpBytes(mlir::Operation *op);

/// Bytes of a tensor value; 0 for other types.
int64_t tensorBytes(mlir::Value value);

/// Estimated seconds of `op` on one core.
double graphOpSeconds(mlir::Operation *op, const CostRates &rates);

} // namespace kiln::compiler::sharding

#endif // KILN_COMPILER_SHARDING_OPCOST_H
