//===- WeightOnlyGemmLayout.h - How weight-only GEMM weights are packed ---===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The layout the weight-only GEMM kernel (WeightOnlyGemm.cpp) reads a
// quantized constant right-hand side in: Q (K x N, int8 or int4 values)
// with group-wise scales S (ceil(K / G) x N, f32), W[k][n] = Q[k][n] *
// S[k / G][n]. The compiler packs at compile time (WeightOnlyGemmCalls.cpp);
// this header is shared by both sides and by the tests, so it is plain C++.
//
// Columns are cut into tiles of 32 (two AVX-512 vectors of f32; the CPU
// schedule's workgroups slice columns 32 at a time), the last padded with
// zero columns. A tile's K rows are contiguous, so a GEMV streams each tile
// front to back (no 4 KiB-strided rows for the prefetcher to lose). A row
// is 32 bytes of int8, or 16 bytes of int4: byte j holds column j in its
// low nibble and column j + 16 in its high one (two's complement), so one
// 16-byte load feeds both vectors. After every tile's weights (64-byte
// aligned) come the scales, f32 [tile][group][32].
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_CODEGEN_CPU_KERNELS_WEIGHTONLYGEMMLAYOUT_H
#define KILN_COMPILER_CODEGEN_CPU_KERNELS_WEIGHTONLYGEMMLAYOUT_H

#include <stdint.h>
#include <string.h>

namespace kiln::cpu_kernels {

inline constexpr int64_t kWeightOnlyTileColumns = 32;

inline constexpr int64_t weightOnlyTiles(int64_t n) {
  return (n + kWeightOnlyTileColumns - 1) / kWeightOnlyTileColumns;
}

inline constexpr int64_t weightOnlyGroups(int64_t k, int64_t group) {
  return (k + group - 1) / group;
}

/// Bytes of one packed row of one tile.
inline constexpr int64_t weightOnlyRowBytes(int64_t bits) {
  return bits == 4 ? kWeightOnlyTileColumns / 2 : kWeightOnlyTileColumns;
}

/// Bytes of one tile's weights.
inline constexpr int64_t weightOnlyTileBytes(int64_t k, int64_t bits) {
  return k * weightOnlyRowBytes(bits);
}

/// Byte offset of the scales: after the weights, 64-byte aligned.
inline constexpr int64_t weightOnlyScalesOffset(int64_t k, int64_t n,
                                                int64_t bits) {
  return (weightOnlyTiles(n) * weightOnlyTileBytes(k, bits) + 63) / 64 * 64;
}

/// Bytes of the whole packed buffer.
inline constexpr int64_t weightOnlyPackedBytes(int64_t k, int64_t n,
                                               int64_t group, int64_t bits) {
  return weightOnlyScalesOffset(k, n, bits) + 4 * weightOnlyTiles(n) *
                                                  weightOnlyGroups(k, group) *
                                                  kWeightOnlyTileColumns;
}

/// Q[k][n] read back from the packed buffer (tests, portable kernel).
inline int32_t weightOnlyPackedValue(const uint8_t *packed, int64_t k,
                                     int64_t n, int64_t depth, int64_t bits) {
  const uint8_t *row =
      packed + (n / kWeightOnlyTileColumns) * weightOnlyTileBytes(depth, bits) +
      k * weightOnlyRowBytes(bits);
  int64_t lane = n % kWeightOnlyTileColumns;
  if (bits == 8)
    return int8_t(row[lane]);
  uint8_t byte = row[lane % 16];
  int32_t nibble = lane < 16 ? byte & 15 : byte >> 4;
  return nibble < 8 ? nibble : nibble - 16;
}

/// The packed scales of tile `tile`, group `g`: 32 floats.
inline const float *weightOnlyPackedScales(const uint8_t *packed, int64_t tile,
                                           int64_t g, int64_t k, int64_t n,
                                           int64_t group, int64_t bits) {
  return reinterpret_cast<const float *>(packed +
                                         weightOnlyScalesOffset(k, n, bits)) +
         (tile * weightOnlyGroups(k, group) + g) * kWeightOnlyTileColumns;
}

/// Packs Q (row-major K x N; int4 values in -8..7) and S (row-major
/// ceil(K / group) x N) into `packed`, which holds weightOnlyPackedBytes.
inline void packWeightOnly(const int8_t *q, const float *s, int64_t k,
                           int64_t n, int64_t group, int64_t bits,
                           uint8_t *packed) {
  memset(packed, 0, weightOnlyPackedBytes(k, n, group, bits));
  int64_t rowBytes = weightOnlyRowBytes(bits);
  for (int64_t row = 0; row < k; ++row)
    for (int64_t column = 0; column < n; ++column) {
      int64_t tile = column / kWeightOnlyTileColumns,
              lane = column % kWeightOnlyTileColumns;
      uint8_t *bytes =
          packed + tile * weightOnlyTileBytes(k, bits) + row * rowBytes;
      uint8_t value = uint8_t(q[row * n + column]);
      if (bits == 8)
        bytes[lane] = value;
      else
        bytes[lane % 16] |= (value & 15) << (lane < 16 ? 0 : 4);
    }
  float *scales =
      reinterpret_cast<float *>(packed + weightOnlyScalesOffset(k, n, bits));
  int64_t groups = weightOnlyGroups(k, group);
  for (int64_t g = 0; g < groups; ++g)
    for (int64_t column = 0; column < n; ++column)
      scales[((column / kWeightOnlyTileColumns) * groups + g) *
                 kWeightOnlyTileColumns +
             column % kWeightOnlyTileColumns] = s[g * n + column];
}

} // namespace kiln::cpu_kernels

#endif // KILN_COMPILER_CODEGEN_CPU_KERNELS_WEIGHTONLYGEMMLAYOUT_H
