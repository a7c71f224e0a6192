//===- NumericsCheckTest.cpp - NaN and Inf found in step results ---------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/NumericsCheck.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <thread>

using namespace kiln::rt;

namespace {

template <typename T> std::vector<uint8_t> bytesOf(std::vector<T> values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(T));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

TEST(NumericsCheckTest, FindsTheFirstNonFiniteValueOfEveryFloatType) {
  float inf = std::numeric_limits<float>::infinity();
  auto f32 = bytesOf<float>({1.f, -0.f, 3e38f, -inf, NAN});
  EXPECT_EQ(firstNonFinite(f32.data(), f32.size(), DType::kF32), 3u);
  auto f64 = bytesOf<double>({1e308, std::nan("")});
  EXPECT_EQ(firstNonFinite(f64.data(), f64.size(), DType::kF64), 1u);
  // f16: 65504 (largest finite), +inf; bf16: 1.0, NaN.
  auto f16 = bytesOf<uint16_t>({0x7BFF, 0x7C00});
  EXPECT_EQ(firstNonFinite(f16.data(), f16.size(), DType::kF16), 1u);
  auto bf16 = bytesOf<uint16_t>({0x3F80, 0x7FC0});
  EXPECT_EQ(firstNonFinite(bf16.data(), bf16.size(), DType::kBF16), 1u);
  auto finite = bytesOf<float>({0.f, 1.f, -2.f, 1e-45f});
  EXPECT_EQ(firstNonFinite(finite.data(), finite.size(), DType::kF32),
            std::nullopt);
  // Integers have no NaN: an all-ones pattern is -1.
  auto ints = bytesOf<int32_t>({-1, 0x7F800000});
  EXPECT_EQ(firstNonFinite(ints.data(), ints.size(), DType::kI32),
            std::nullopt);
}

/// A step that writes `bytes` to arena[0 : size] as `element`.
struct FakeStep {
  Step step;
  std::vector<uint8_t> arena;
  RunBuffers buffers;

  FakeStep(std::vector<uint8_t> bytes, DType element)
      : arena(std::move(bytes)) {
    step.kernel = "main_d1";
    step.source = "fusion#1 (elementwise): Log_3+Add_4";
    KernelArg range{KernelArg::Base::kArena, 0, 0, arena.size(),
                    KernelArg::Access::kWrite};
    step.args = {range};
    step.results = {{range, element}};
    buffers.arena = arena.data();
  }
  StepEvent event(uint32_t index) const { return {index, &step, &buffers}; }
};

TEST(NumericsCheckTest, DescribesTheStepItsBufferAndItsSource) {
  FakeStep nan(bytesOf<float>({1.f, -NAN}), DType::kF32);
  NumericsCheck check;
  check.afterStep(nan.event(4));
  std::optional<NumericsFinding> finding = check.first();
  ASSERT_TRUE(finding);
  EXPECT_TRUE(finding->nan);
  EXPECT_EQ(finding->element, 1u);
  EXPECT_EQ(finding->describe(),
            "step #4 (dispatch main_d1) produced NaN at element 1 of "
            "arena[0 : 8] (f32); source: fusion#1 (elementwise): Log_3+Add_4");

  FakeStep inf(bytesOf<uint16_t>({0xFC00}), DType::kF16);
  inf.step.source.clear();
  NumericsCheck second;
  second.afterStep(inf.event(0));
  ASSERT_TRUE(second.first());
  EXPECT_NE(second.first()->describe().find(
                "produced -inf at element 0 of arena[0 : 2] (f16); source: "
                "unknown"),
            std::string::npos)
      << second.first()->describe();
}

TEST(NumericsCheckTest, KeepsTheEarliestStepWhateverOrderStepsFinishIn) {
  FakeStep early(bytesOf<float>({INFINITY}), DType::kF32);
  FakeStep late(bytesOf<float>({NAN}), DType::kF32);
  FakeStep clean(bytesOf<float>({2.f}), DType::kF32);
  NumericsCheck check;
  // Steps 7 and 2 finish on two threads, 7 first; 3 is finite.
  std::thread first([&] { check.afterStep(late.event(7)); });
  first.join();
  std::thread second([&] {
    check.afterStep(clean.event(3));
    check.afterStep(early.event(2));
  });
  second.join();
  ASSERT_TRUE(check.first());
  EXPECT_EQ(check.first()->step, 2u);
  EXPECT_FALSE(check.first()->nan);
  EXPECT_EQ(check.checkedSteps(), 3u);
  check.reset();
  EXPECT_FALSE(check.first());
  EXPECT_EQ(check.checkedSteps(), 0u);
}

TEST(NumericsCheckTest, StepsWithoutResultsAreNotCounted) {
  Step bare;
  RunBuffers buffers;
  NumericsCheck check;
  check.afterStep({0, &bare, &buffers});
  EXPECT_EQ(check.checkedSteps(), 0u);
  EXPECT_FALSE(check.first());
}

} // namespace
