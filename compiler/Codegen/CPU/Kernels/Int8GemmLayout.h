//===- Int8GemmLayout.h - How int8 GEMM weights are packed -------*- C++
//-*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The layout the int8 GEMM kernels (Int8Gemm.cpp) read a constant
// right-hand side B (K x N, signed 8-bit) in. The compiler packs weights
// into it at compile time (PackInt8Weights.h); this header is shared by
// both sides and by the tests, so it is plain C++ without dependencies.
//
// Columns are cut into panels of 16 and the depth is padded with zeros to
// a multiple of 64. Inside a panel, the four consecutive k of one column
// sit together ("VNNI order"): the 64 bytes of one k-group are 16 columns
// x 4 k. One AMX B tile (16 k-groups x 64 bytes) and one AVX-512 VNNI
// operand (one k-group) are then contiguous. After the panels, one int32
// per (padded) column holds the column's sum, which the VNNI kernel needs
// to undo its unsigned bias (vpdpbusd multiplies u8 by s8).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_CODEGEN_CPU_KERNELS_INT8GEMMLAYOUT_H
#define KILN_COMPILER_CODEGEN_CPU_KERNELS_INT8GEMMLAYOUT_H

#include <stdint.h>

namespace kiln::cpu_kernels {

inline constexpr int64_t kInt8PanelColumns = 16;
inline constexpr int64_t kInt8DepthStep = 64;
inline constexpr int64_t kInt8GroupDepth = 4;

/// K rounded up to whole depth steps.
inline constexpr int64_t int8PackedDepth(int64_t k) {
  return (k + kInt8DepthStep - 1) / kInt8DepthStep * kInt8DepthStep;
}

/// N rounded up to whole panels.
inline constexpr int64_t int8PackedColumns(int64_t n) {
  return (n + kInt8PanelColumns - 1) / kInt8PanelColumns * kInt8PanelColumns;
}

/// Byte offset of B[k][n] in the packed buffer of a K x N matrix.
inline constexpr int64_t int8PackedOffset(int64_t k, int64_t n,
                                          int64_t packedDepth) {
  return ((n / kInt8PanelColumns) * (packedDepth / kInt8GroupDepth) +
          k / kInt8GroupDepth) *
             (kInt8PanelColumns * kInt8GroupDepth) +
         (n % kInt8PanelColumns) * kInt8GroupDepth + k % kInt8GroupDepth;
}

/// Byte offset of the column sums (int32, one per padded column).
inline constexpr int64_t int8PackedSumsOffset(int64_t k, int64_t n) {
  return int8PackedColumns(n) * int8PackedDepth(k);
}

/// Bytes of the whole packed buffer.
inline constexpr int64_t int8PackedBytes(int64_t k, int64_t n) {
  return int8PackedSumsOffset(k, n) + 4 * int8PackedColumns(n);
}

/// Packs row-major B (K x N, int8) into `packed`, which holds
/// int8PackedBytes(k, n) bytes: the panels, zero-padded, then the sums.
inline void packInt8Weights(const int8_t *b, int64_t k, int64_t n,
                            int8_t *packed) {
  int64_t depth = int8PackedDepth(k), columns = int8PackedColumns(n);
  for (int64_t i = 0; i < int8PackedBytes(k, n); ++i)
    packed[i] = 0;
  int32_t *sums =
      reinterpret_cast<int32_t *>(packed + int8PackedSumsOffset(k, n));
  for (int64_t column = 0; column < columns; ++column)
    sums[column] = 0;
  for (int64_t row = 0; row < k; ++row)
    for (int64_t column = 0; column < n; ++column) {
      int8_t value = b[row * n + column];
      packed[int8PackedOffset(row, column, depth)] = value;
      sums[column] += value;
    }
}

} // namespace kiln::cpu_kernels

#endif // KILN_COMPILER_CODEGEN_CPU_KERNELS_INT8GEMMLAYOUT_H
