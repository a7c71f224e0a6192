//===- Int8GemmTest.cpp - The int8 GEMM kernels against a reference -------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Every instruction set this CPU has (portable always; AVX-512 VNNI and AMX
// where present) against a plain int32 product, on shapes that leave every
// kind of edge: partial row blocks, partial panels, depths that are not a
// multiple of 4 or 64, column slices starting inside the weights.
//
//===----------------------------------------------------------------------===//

#include "compiler/Codegen/CPU/Kernels/Int8Gemm.h"
#include "compiler/Codegen/CPU/Kernels/Int8GemmLayout.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <random>
#include <vector>

using namespace kiln::cpu_kernels;

namespace {

struct Shape {
  int64_t m, n, k, n0;
};

/// 64-byte aligned storage for a packed matrix.
struct Packed {
  std::vector<int8_t> storage;
  int8_t *data;
  Packed(const std::vector<int8_t> &b, int64_t k, int64_t n)
      : storage(int8PackedBytes(k, n) + 64) {
    data = reinterpret_cast<int8_t *>(
        (reinterpret_cast<uintptr_t>(storage.data()) + 63) & ~uintptr_t(63));
    packInt8Weights(b.data(), k, n, data);
  }
};

std::vector<int8_t> randomBytes(size_t count, std::mt19937 &rng) {
  std::uniform_int_distribution<int> byte(-128, 127);
  std::vector<int8_t> values(count);
  for (int8_t &value : values)
    value = int8_t(byte(rng));
  return values;
}

/// C += A x B[:, n0 : n0 + n], B row-major k x columns.
std::vector<int32_t> reference(const Shape &s, const std::vector<int8_t> &a,
                               int64_t lda, const std::vector<int8_t> &b,
                               int64_t columns, std::vector<int32_t> c,
                               int64_t ldc) {
  for (int64_t i = 0; i < s.m; ++i)
    for (int64_t j = 0; j < s.n; ++j)
      for (int64_t l = 0; l < s.k; ++l)
        c[i * ldc + j] += int32_t(a[i * lda + l]) * b[l * columns + s.n0 + j];
  return c;
}

std::vector<int> availableIsas() {
  std::vector<int> isas;
  for (int isa = KILN_INT8_ISA_PORTABLE; isa <= kiln_int8_gemm_isa(); ++isa)
    isas.push_back(isa);
  return isas;
}

TEST(Int8GemmLayoutTest, PanelsHoldFourDepthsPerColumnAndColumnSums) {
  // B[k][n] = k * 16 + n (small values) for k < 5, n < 18.
  int64_t k = 5, n = 18;
  std::vector<int8_t> b(k * n);
  for (int64_t row = 0; row < k; ++row)
    for (int64_t column = 0; column < n; ++column)
      b[row * n + column] = int8_t(row * 16 + column % 16);
  EXPECT_EQ(int8PackedDepth(5), 64);
  EXPECT_EQ(int8PackedColumns(18), 32);
  EXPECT_EQ(int8PackedBytes(5, 18), 32 * 64 + 4 * 32);
  Packed packed(b, k, n);
  // Column 1, depths 0-3 sit together after column 0's four.
  EXPECT_EQ(packed.data[4], b[0 * n + 1]);
  EXPECT_EQ(packed.data[7], b[3 * n + 1]);
  // Depth 4 starts the second group of 64 bytes.
  EXPECT_EQ(packed.data[64], b[4 * n + 0]);
  // Padding is zero: depth 5 of column 0, and column 18 (second panel).
  EXPECT_EQ(packed.data[65], 0);
  EXPECT_EQ(packed.data[int8PackedOffset(0, 18, 64)], 0);
  EXPECT_EQ(packed.data[int8PackedOffset(2, 17, 64)], b[2 * n + 17]);
  auto *sums = reinterpret_cast<const int32_t *>(packed.data +
                                                 int8PackedSumsOffset(k, n));
  EXPECT_EQ(sums[3],
            0 * 16 + 3 + 1 * 16 + 3 + 2 * 16 + 3 + 3 * 16 + 3 + 4 * 16 + 3);
  EXPECT_EQ(sums[20], 0);
}

TEST(Int8GemmTest, EveryInstructionSetMatchesTheReference) {
  std::mt19937 rng(7);
  const Shape shapes[] = {
      {1, 1, 1, 0},      {3, 5, 7, 0},     {8, 16, 4, 0},
      {17, 33, 65, 0},   {32, 32, 64, 0},  {33, 47, 130, 16},
      {40, 100, 63, 32}, {9, 20, 256, 48}, {64, 96, 200, 0},
      // Many row blocks, depth beyond 1024, a partial last row block and
      // a partial last group of depth.
      {130, 40, 2501, 16}, {70, 33, 1030, 0}};
  for (const Shape &s : shapes) {
    int64_t columns = s.n0 + s.n + 5; // The slice ends inside the weights.
    int64_t lda = s.k + 3, ldc = s.n + 2;
    std::vector<int8_t> a = randomBytes(s.m * lda, rng);
    std::vector<int8_t> b = randomBytes(s.k * columns, rng);
    Packed packed(b, s.k, columns);
    std::vector<int32_t> start(s.m * ldc);
    for (int32_t &value : start)
      value = int32_t(rng() % 1000) - 500; // The kernels accumulate.
    std::vector<int32_t> expected =
        reference(s, a, lda, b, columns, start, ldc);
    for (int isa : availableIsas()) {
      std::vector<int32_t> c = start;
      kiln_int8_gemm_with(isa, s.m, s.n, s.k, a.data(), lda, packed.data,
                          columns, s.n0, c.data(), ldc);
      EXPECT_EQ(c, expected) << "isa " << isa << ", m " << s.m << " n " << s.n
                             << " k " << s.k << " n0 " << s.n0;
    }
  }
}

TEST(Int8GemmTest, ExtremeValuesDoNotOverflow) {
  // -128 x -128 summed over a long depth: the VNNI path's +128 bias and its
  // column-sum correction must cancel exactly.
  Shape s{20, 40, 1000, 0};
  std::vector<int8_t> a(s.m * s.k, -128), b(s.k * s.n, -128);
  for (size_t i = 0; i < b.size(); i += 3)
    b[i] = 127;
  Packed packed(b, s.k, s.n);
  std::vector<int32_t> expected =
      reference(s, a, s.k, b, s.n, std::vector<int32_t>(s.m * s.n), s.n);
  for (int isa : availableIsas()) {
    std::vector<int32_t> c(s.m * s.n, 0);
    kiln_int8_gemm_with(isa, s.m, s.n, s.k, a.data(), s.k, packed.data, s.n, 0,
                        c.data(), s.n);
    EXPECT_EQ(c, expected) << "isa " << isa;
  }
}

TEST(Int8GemmTest, UnalignedSliceFallsBackToPortable) {
  // A slice starting inside a panel is computed, correctly, by the portable
  // path whatever the instruction set asked for.
  std::mt19937 rng(3);
  Shape s{5, 9, 70, 3};
  int64_t columns = 20;
  std::vector<int8_t> a = randomBytes(s.m * s.k, rng);
  std::vector<int8_t> b = randomBytes(s.k * columns, rng);
  Packed packed(b, s.k, columns);
  std::vector<int32_t> expected =
      reference(s, a, s.k, b, columns, std::vector<int32_t>(s.m * s.n), s.n);
  for (int isa : availableIsas()) {
    std::vector<int32_t> c(s.m * s.n, 0);
    kiln_int8_gemm_with(isa, s.m, s.n, s.k, a.data(), s.k, packed.data, columns,
                        s.n0, c.data(), s.n);
    EXPECT_EQ(c, expected) << "isa " << isa;
  }
}

TEST(Int8GemmBatchedTest, EveryInstructionSetMatchesTheReference) {
  // Shared A times each item's B, B packed block by block: blocks of 64
  // columns and 1024 of depth, so these shapes cross both block edges.
  std::mt19937 rng(11);
  struct BatchedShape {
    int64_t batch, m, n, k;
  };
  const BatchedShape shapes[] = {{1, 1, 1, 1},    {2, 5, 7, 3},
                                 {3, 17, 100, 70}, {2, 64, 196, 9},
                                 {1, 33, 130, 1100}, {2, 8, 64, 2048}};
  for (const BatchedShape &s : shapes) {
    int64_t lda = s.k + 1, ldb = s.n + 3, ldc = s.n + 2;
    int64_t batchB = s.k * ldb + 5, batchC = s.m * ldc + 7;
    std::vector<int8_t> a = randomBytes(s.m * lda, rng);
    std::vector<int8_t> b = randomBytes(s.batch * batchB, rng);
    std::vector<int32_t> start(s.batch * batchC);
    for (int32_t &value : start)
      value = int32_t(rng() % 1000) - 500;
    std::vector<int32_t> expected = start;
    for (int64_t t = 0; t < s.batch; ++t)
      for (int64_t i = 0; i < s.m; ++i)
        for (int64_t j = 0; j < s.n; ++j)
          for (int64_t l = 0; l < s.k; ++l)
            expected[t * batchC + i * ldc + j] +=
                int32_t(a[i * lda + l]) * b[t * batchB + l * ldb + j];
    for (int isa : availableIsas()) {
      std::vector<int32_t> c = start;
      kiln_int8_gemm_batched_with(isa, s.batch, s.m, s.n, s.k, a.data(), lda,
                                  b.data(), ldb, batchB, c.data(), ldc,
                                  batchC);
      EXPECT_EQ(c, expected) << "isa " << isa << ", batch " << s.batch
                             << " m " << s.m << " n " << s.n << " k " << s.k;
    }
  }
}

TEST(Int8GemmTest, ReportsTheInstructionSetItUses) {
  int isa = kiln_int8_gemm_isa();
  EXPECT_GE(isa, KILN_INT8_ISA_PORTABLE);
  EXPECT_LE(isa, KILN_INT8_ISA_AMX);
  // What the AMX path needs and this machine lacks is printed, so a run's
  // log says which paths were checked.
#ifdef KILN_INT8_GEMM_EMULATE_AMX
  std::printf("int8 GEMM: AMX on software tiles (AmxEmulation.h)\n");
  return;
#endif
  std::printf("int8 GEMM instruction set here: %s\n",
              isa == KILN_INT8_ISA_AMX    ? "AMX (all three paths checked)"
              : isa == KILN_INT8_ISA_VNNI ? "AVX-512 VNNI (AMX not checked)"
                                          : "portable only");
}

} // namespace
