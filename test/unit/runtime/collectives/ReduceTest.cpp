//===- ReduceTest.cpp - Reduction kernels and f16/bf16 rounding -----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Reduce.h"
#include "HalfFloat.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace kiln::rt;

namespace {

TEST(HalfFloat, F16RoundsToNearestEven) {
  EXPECT_EQ(floatToF16(1.0f), 0x3C00);
  EXPECT_EQ(floatToF16(-2.0f), 0xC000);
  EXPECT_EQ(floatToF16(65504.0f), 0x7BFF);
  EXPECT_EQ(floatToF16(65519.0f), 0x7BFF);
  EXPECT_EQ(floatToF16(65520.0f), 0x7C00); // Ties to even: infinity.
  EXPECT_EQ(floatToF16(std::ldexp(1.0f, -24)), 0x0001);
  EXPECT_EQ(floatToF16(std::ldexp(1.0f, -25)), 0x0000); // Tie to even 0.
  EXPECT_EQ(floatToF16(std::ldexp(3.0f, -25)), 0x0002); // Tie to even 2.
  EXPECT_EQ(floatToF16(std::ldexp(1.0f, -14)), 0x0400); // Smallest normal.
  // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: even is 1.
  EXPECT_EQ(floatToF16(1.0f + std::ldexp(1.0f, -11)), 0x3C00);
  EXPECT_EQ(floatToF16(1.0f + std::ldexp(3.0f, -11)), 0x3C02);
  EXPECT_EQ(floatToF16(std::numeric_limits<float>::infinity()), 0x7C00);
  EXPECT_EQ(floatToF16(std::nanf("")) & 0x7E00, 0x7E00);
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    if ((bits & 0x7C00) == 0x7C00 && (bits & 0x3FF))
      continue; // NaN payloads are not kept exactly.
    ASSERT_EQ(floatToF16(f16ToFloat(uint16_t(bits))), bits) << bits;
  }
}

TEST(HalfFloat, BF16RoundsToNearestEven) {
  EXPECT_EQ(floatToBf16(1.0f), 0x3F80);
  EXPECT_EQ(bf16ToFloat(0x3F80), 1.0f);
  // 1 + 2^-8 is halfway between 1 and 1 + 2^-7: even is 1.
  EXPECT_EQ(floatToBf16(1.0f + std::ldexp(1.0f, -8)), 0x3F80);
  EXPECT_EQ(floatToBf16(1.0f + std::ldexp(3.0f, -8)), 0x3F82);
  EXPECT_EQ(floatToBf16(std::nanf("")) & 0x7FC0, 0x7FC0);
  EXPECT_EQ(floatToBf16(-std::numeric_limits<float>::infinity()), 0xFF80);
}

TEST(Reduce, AccumulatesHalvesInF32AndRoundsOnce) {
  // 2048 + 1 + 1 in f16 step by step is 2048 (2049 rounds to even); in f32
  // and rounded once it is 2050.
  uint16_t a = floatToF16(2048.0f), b = floatToF16(1.0f), out = 0;
  const void *inputs[] = {&a, &b, &b};
  reduceElements(DType::kF16, ReduceOp::kSum, inputs, 3, 1, &out);
  EXPECT_EQ(f16ToFloat(out), 2050.0f);
}

TEST(Reduce, IntegersWrapAndOutMayAliasAnInput) {
  std::vector<int8_t> x(1000, 100), y(1000, 100);
  const void *inputs[] = {x.data(), y.data()};
  reduceElements(DType::kI8, ReduceOp::kSum, inputs, 2, x.size(), x.data());
  EXPECT_EQ(x[0], int8_t(-56));
  EXPECT_EQ(x[999], int8_t(-56));
  uint16_t big = 60000, out = 0;
  const void *products[] = {&big, &big};
  reduceElements(DType::kU16, ReduceOp::kProd, products, 2, 1, &out);
  EXPECT_EQ(out, uint16_t(uint32_t(60000) * 60000));
}

TEST(Reduce, MaxAndMinPropagateNaN) {
  float nan = std::nanf(""), one = 1.0f, out = 0;
  const void *nanFirst[] = {&nan, &one}, *nanLast[] = {&one, &nan};
  reduceElements(DType::kF32, ReduceOp::kMax, nanFirst, 2, 1, &out);
  EXPECT_TRUE(std::isnan(out));
  reduceElements(DType::kF32, ReduceOp::kMin, nanLast, 2, 1, &out);
  EXPECT_TRUE(std::isnan(out));
  EXPECT_FALSE(canReduce(DType::kI1));
  EXPECT_TRUE(canReduce(DType::kBF16));
}

} // namespace
