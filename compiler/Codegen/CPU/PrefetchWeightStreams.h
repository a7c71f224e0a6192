//===- PrefetchWeightStreams.h - Prefetch ahead of tiles --------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// A register tile's reduction loop reads its operands as streams: packed
// weights step 32 or 128 bytes per iteration through memory that, inside
// a network, last sat in cache one inference ago. The hardware prefetchers
// restart at every page and every jump between panels, so the tile waits
// on DRAM; a prefetch a few KiB ahead of each dense stream hides that
// (ResNet's 3x3 256 -> 256 convolution on 14 x 14 with cold weights:
// 1.46 -> 1.09 ms in a C model of the kernel).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_CODEGEN_CPU_PREFETCHWEIGHTSTREAMS_H
#define KILN_COMPILER_CODEGEN_CPU_PREFETCHWEIGHTSTREAMS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/PatternMatch.h"

#include <cstdint>

namespace kiln::compiler {

/// In every innermost scf.for of `func` that holds a vector.contract, each
/// vector.transfer_read of a view the loop advances by at most 32 bytes per
/// iteration (a dense stream the hardware loses at every jump between
/// panels) gets a memref.prefetch of the line `distance` bytes ahead,
/// clamped to the buffer it views: a function argument, a global or an
/// arena view, with a static shape and the identity layout, of at least
/// `minBufferBytes` (a smaller one stays in cache between its passes).
/// Reads of anything else are left alone. A `distance` of 0 adds nothing.
void prefetchWeightStreams(mlir::RewriterBase &rewriter,
                           mlir::func::FuncOp func, int64_t distance,
                           int64_t minBufferBytes);

} // namespace kiln::compiler

#endif // KILN_COMPILER_CODEGEN_CPU_PREFETCHWEIGHTSTREAMS_H
