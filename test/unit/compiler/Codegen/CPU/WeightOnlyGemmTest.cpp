//===- WeightOnlyGemmTest.cpp - The weight-only GEMM kernel ---------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The packed layout read back value by value, and every instruction set
// this CPU has (portable always, AVX-512 where present) against a float64
// product of the dequantized weights, on shapes that leave every kind of
// edge: one row (GEMV), partial row blocks, partial and several tiles of
// 64 columns, slices starting inside a tile, groups that do not divide K,
// and padded row strides.
//
//===----------------------------------------------------------------------===//

#include "compiler/Codegen/CPU/Kernels/WeightOnlyGemm.h"
#include "compiler/Codegen/CPU/Kernels/WeightOnlyGemmLayout.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

using namespace kiln::cpu_kernels;

namespace {

/// Q (K x N, in range for `bits`) and S (groups x N) with their packing.
struct Weights {
  int64_t k, n, group, bits;
  std::vector<int8_t> q;
  std::vector<float> s;
  std::vector<uint8_t> storage;
  uint8_t *packed;

  Weights(int64_t k, int64_t n, int64_t group, int64_t bits, std::mt19937 &rng)
      : k(k), n(n), group(group), bits(bits), q(k * n),
        s(weightOnlyGroups(k, group) * n),
        storage(weightOnlyPackedBytes(k, n, group, bits) + 64) {
    int limit = bits == 4 ? 8 : 128;
    std::uniform_int_distribution<int> value(-limit, limit - 1);
    std::uniform_real_distribution<float> scale(0.01f, 0.1f);
    for (int8_t &v : q)
      v = int8_t(value(rng));
    for (float &v : s)
      v = scale(rng);
    packed = reinterpret_cast<uint8_t *>(
        (reinterpret_cast<uintptr_t>(storage.data()) + 63) & ~uintptr_t(63));
    packWeightOnly(q.data(), s.data(), k, n, group, bits, packed);
  }

  double weight(int64_t row, int64_t column) const {
    return double(q[row * n + column]) * s[(row / group) * n + column];
  }
};

std::vector<int> availableIsas() {
  std::vector<int> isas;
  for (int isa = KILN_WEIGHT_ONLY_ISA_PORTABLE;
       isa <= kiln_weight_only_gemm_isa(); ++isa)
    isas.push_back(isa);
  return isas;
}

TEST(WeightOnlyGemmLayoutTest, TilesRowsNibblesAndScales) {
  std::mt19937 rng(3);
  for (int64_t bits : {4, 8}) {
    Weights w(5, 70, 2, bits, rng);
    EXPECT_EQ(weightOnlyTiles(70), 3);
    EXPECT_EQ(weightOnlyGroups(5, 2), 3);
    // Three tiles of 5 rows; the scales start 64-byte aligned.
    int64_t weightBytes = 3 * 5 * (bits == 4 ? 16 : 32);
    EXPECT_EQ(weightOnlyScalesOffset(5, 70, bits),
              (weightBytes + 63) / 64 * 64);
    EXPECT_EQ(weightOnlyPackedBytes(5, 70, 2, bits),
              weightOnlyScalesOffset(5, 70, bits) + 4 * 3 * 3 * 32);
    for (int64_t row = 0; row < 5; ++row)
      for (int64_t column = 0; column < 70; ++column)
        ASSERT_EQ(weightOnlyPackedValue(w.packed, row, column, 5, bits),
                  w.q[row * 70 + column])
            << "bits " << bits << " at " << row << ", " << column;
    for (int64_t g = 0; g < 3; ++g)
      for (int64_t column = 0; column < 70; ++column)
        ASSERT_EQ(weightOnlyPackedScales(w.packed, column / 32, g, 5, 70, 2,
                                         bits)[column % 32],
                  w.s[g * 70 + column]);
    // Padding columns of the last tile are zero weights with zero scales.
    EXPECT_EQ(weightOnlyPackedValue(w.packed, 4, 95, 5, bits), 0);
    EXPECT_EQ(weightOnlyPackedScales(w.packed, 2, 2, 5, 70, 2, bits)[31], 0.0f);
  }
  // int4: byte j of a row holds column j low, column j + 16 high.
  int8_t q[32] = {};
  float s[32] = {};
  q[3] = -1;
  q[19] = 5;
  std::vector<uint8_t> packed(weightOnlyPackedBytes(1, 32, 1, 4));
  packWeightOnly(q, s, 1, 32, 1, 4, packed.data());
  EXPECT_EQ(packed[3], 0x5f);
}

struct Case {
  int64_t m, n, k, n0, group, bits;
};

TEST(WeightOnlyGemmTest, EveryIsaMatchesTheDequantizedProduct) {
  const Case cases[] = {
      {1, 96, 300, 0, 64, 4}, // GEMV, a part tile
      {1, 64, 64, 0, 32, 8},    {1, 1, 1, 0, 1, 4},     {3, 70, 7, 0, 7, 8},
      {4, 128, 130, 0, 128, 4}, {5, 65, 129, 0, 32, 4}, {9, 130, 300, 0, 7, 8},
      {2, 40, 96, 5, 32, 4},  // a slice starting inside a tile
      {6, 70, 33, 64, 16, 8}, // a slice starting at tile 2
      {1, 9, 50, 61, 50, 4},  // a slice across a tile boundary
  };
  std::mt19937 rng(17);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  for (const Case &c : cases) {
    int64_t columns = c.n0 + c.n + 3; // The weights are wider than the slice.
    Weights w(c.k, columns, c.group, c.bits, rng);
    int64_t lda = c.k + 5, ldc = c.n + 2;
    std::vector<float> a(c.m * lda), start(c.m * ldc);
    for (float &v : a)
      v = uniform(rng);
    for (float &v : start)
      v = uniform(rng);
    for (int isa : availableIsas()) {
      std::vector<float> out = start;
      kiln_weight_only_gemm_with(isa, c.m, c.n, c.k, a.data(), lda, w.packed,
                                 columns, c.n0, c.group, c.bits, out.data(),
                                 ldc);
      for (int64_t i = 0; i < c.m; ++i)
        for (int64_t j = 0; j < ldc; ++j) {
          double expected = start[i * ldc + j];
          if (j < c.n)
            for (int64_t l = 0; l < c.k; ++l)
              expected += double(a[i * lda + l]) * w.weight(l, c.n0 + j);
          // Padding between rows of C is never written.
          double tolerance = j < c.n ? 1e-5 * (1 + std::fabs(expected)) *
                                           std::sqrt(double(c.k))
                                     : 0;
          ASSERT_NEAR(out[i * ldc + j], expected, tolerance)
              << "isa " << isa << ", m " << c.m << " n " << c.n << " k " << c.k
              << " n0 " << c.n0 << " group " << c.group << " bits " << c.bits
              << " at " << i << ", " << j;
        }
    }
  }
}

TEST(WeightOnlyGemmTest, EmptyProblemsWriteNothing) {
  std::mt19937 rng(5);
  Weights w(8, 16, 4, 4, rng);
  float a[8] = {1, 1, 1, 1, 1, 1, 1, 1}, c[16] = {};
  for (int isa : availableIsas()) {
    kiln_weight_only_gemm_with(isa, 0, 16, 8, a, 8, w.packed, 16, 0, 4, 4, c,
                               16);
    kiln_weight_only_gemm_with(isa, 1, 0, 8, a, 8, w.packed, 16, 0, 4, 4, c,
                               16);
    for (float v : c)
      EXPECT_EQ(v, 0.0f);
  }
}

} // namespace
