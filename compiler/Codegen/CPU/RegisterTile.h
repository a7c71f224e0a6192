//===- RegisterTile.h - Register and cache tiles for this CPU ---*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The contraction tile kiln-vectorize-linalg uses, chosen by vector width
// and register count: accumulators plus the right-hand side's vectors and
// one broadcast must fit the register file, or LLVM spills them.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_CODEGEN_CPU_REGISTERTILE_H
#define KILN_COMPILER_CODEGEN_CPU_REGISTERTILE_H

#include <cstdint>

namespace kiln::compiler {

struct CpuRegisterTile {
  /// Rows x columns of accumulators (columns contiguous, in f32 lanes).
  int64_t rows = 8;
  int64_t columns = 32;
  /// f32 lanes of one vector register: a row of accumulators is whole
  /// vectors or one partial vector (LLVM scalarises a 17-lane vector).
  int64_t lanes = 16;
  /// Reduction block: a depth x columns panel of the right-hand side
  /// should sit in L1.
  int64_t depth = 256;
  /// Independent FMA chains that hide the FMA latency (4 cycles on two
  /// pipes): a reduction loop carrying fewer accumulator vectors is
  /// unrolled onto partial accumulators (SplitAccumulatorChains.h).
  int64_t chains = 8;
  /// L2 bytes per core (1 MiB on Zen 5, 2 MiB on Sapphire Rapids): an
  /// operand larger than half of it is re-read from further out.
  int64_t l2Bytes = 1 << 20;
  /// Bytes ahead of a tile's dense operand streams that its reduction loop
  /// prefetches: at 32 bytes a step, 256 steps (a few microseconds, well
  /// past DRAM latency) yet inside L1 and L2 (PrefetchWeightStreams.h).
  int64_t prefetchBytes = 8192;

  /// AVX-512 (32 x 512-bit registers): 8 x 32, 16 accumulators
  /// (toolchain.md: 131-144 GFLOP/s on 512^3). AVX2 (16 x 256-bit): 4 x 16,
  /// 8 accumulators. 6 x 16 (12 accumulators, 2 right-hand vectors and a
  /// broadcast: 15 registers) would fit, but LLVM 22 then rotates the
  /// accumulators through moves and spills on every step: 50 instructions
  /// for 12 FMAs, against 19 for 8 at 4 x 16.
  static CpuRegisterTile forVectorBits(unsigned bits);
  /// For the CPU this process runs on.
  static CpuRegisterTile forHost();
};

} // namespace kiln::compiler

#endif // KILN_COMPILER_CODEGEN_CPU_REGISTERTILE_H
