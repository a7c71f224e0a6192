//===- GpuCheckCompareTest.cpp - The GPU check's comparison and inputs ----===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Compare.h"
#include "RandomInputs.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

using namespace kiln;
using namespace kiln::gpucheck;

namespace {

template <typename T>
rt::HostTensor tensor(rt::DType dtype, std::vector<int64_t> shape,
                      std::vector<T> values) {
  rt::HostTensor t{dtype, std::move(shape), {}};
  t.data.resize(values.size() * sizeof(T));
  std::memcpy(t.data.data(), values.data(), t.data.size());
  return t;
}

TEST(GpuCheckCompareTest, DecodesHalfAndBfloatByValue) {
  // f16: 1.0 = 0x3c00, -2.5 = 0xc100, smallest subnormal 0x0001 = 2^-24.
  auto half = tensor<uint16_t>(rt::DType::kF16, {3}, {0x3c00, 0xc100, 0x0001});
  EXPECT_EQ(elementAsDouble(half, 0), 1.0);
  EXPECT_EQ(elementAsDouble(half, 1), -2.5);
  EXPECT_EQ(elementAsDouble(half, 2), std::ldexp(1.0, -24));
  // bf16: the top half of an f32: 1.0 = 0x3f80, -0.5 = 0xbf00.
  auto bf = tensor<uint16_t>(rt::DType::kBF16, {2}, {0x3f80, 0xbf00});
  EXPECT_EQ(elementAsDouble(bf, 0), 1.0);
  EXPECT_EQ(elementAsDouble(bf, 1), -0.5);
  EXPECT_TRUE(std::isinf(
      elementAsDouble(tensor<uint16_t>(rt::DType::kF16, {1}, {0x7c00}), 0)));
  EXPECT_TRUE(std::isnan(
      elementAsDouble(tensor<uint16_t>(rt::DType::kF16, {1}, {0x7e00}), 0)));
}

TEST(GpuCheckCompareTest, ReadsIntegersAndBooleansAsNumbers) {
  EXPECT_EQ(elementAsDouble(tensor<int8_t>(rt::DType::kI8, {1}, {-3}), 0), -3);
  EXPECT_EQ(elementAsDouble(tensor<uint16_t>(rt::DType::kU16, {1}, {65535}), 0),
            65535);
  EXPECT_EQ(elementAsDouble(tensor<int64_t>(rt::DType::kI64, {1}, {-7}), 0),
            -7);
  EXPECT_EQ(elementAsDouble(tensor<uint8_t>(rt::DType::kI1, {1}, {5}), 0), 1);
}

TEST(GpuCheckCompareTest, HalfOutputsWithinToleranceCompareEqual) {
  // 1.0 vs 1.0009765625 (one f16 ulp): raw bytes differ, values are close.
  auto got = tensor<uint16_t>(rt::DType::kF16, {2}, {0x3c00, 0x3c01});
  auto want = tensor<uint16_t>(rt::DType::kF16, {2}, {0x3c00, 0x3c00});
  Comparison close = compareOutputs({got}, {want}, 1e-3, 0);
  EXPECT_TRUE(close.ok);
  EXPECT_NEAR(close.maxAbsError, 1.0 / 1024, 1e-12);
  EXPECT_FALSE(compareOutputs({got}, {want}, 1e-4, 0).ok);
}

TEST(GpuCheckCompareTest, ChecksDtypeShapeAndCountBeforeValues) {
  auto f32 = tensor<float>(rt::DType::kF32, {2, 3}, {1, 2, 3, 4, 5, 6});
  auto i32 = tensor<int32_t>(rt::DType::kI32, {2, 3}, {1, 2, 3, 4, 5, 6});
  auto transposed = tensor<float>(rt::DType::kF32, {3, 2}, {1, 2, 3, 4, 5, 6});
  EXPECT_EQ(compareOutputs({f32}, {i32}, 1, 1).mismatch,
            "output 0: dtype f32, expected i32");
  EXPECT_EQ(compareOutputs({f32}, {transposed}, 1, 1).mismatch,
            "output 0: shape [2,3], expected [3,2]");
  Comparison missing = compareOutputs({f32}, {f32, f32}, 1, 1);
  EXPECT_FALSE(missing.ok);
  EXPECT_EQ(missing.mismatch, "1 outputs, expected 2");
  EXPECT_TRUE(compareOutputs({f32}, {f32}, 0, 0).ok);
}

TEST(GpuCheckCompareTest, NanMatchesOnlyNanAndInfinitiesMustAgree) {
  float nan = std::nanf(""), inf = INFINITY;
  auto a = tensor<float>(rt::DType::kF32, {2}, {nan, inf});
  EXPECT_TRUE(compareOutputs({a}, {a}, 0, 0).ok);
  auto b = tensor<float>(rt::DType::kF32, {2}, {0, inf});
  Comparison nanOnGpu = compareOutputs({a}, {b}, 1, 1);
  EXPECT_FALSE(nanOnGpu.ok);
  EXPECT_EQ(nanOnGpu.mismatch, "output 0: element 0 is NaN on the GPU only");
  auto c = tensor<float>(rt::DType::kF32, {2}, {nan, -inf});
  EXPECT_EQ(compareOutputs({a}, {c}, 1, 1).mismatch,
            "output 0: element 1: infinities differ");
}

TEST(GpuCheckCompareTest, SameBytesComparesEverything) {
  auto a = tensor<float>(rt::DType::kF32, {2}, {1, 2});
  auto b = tensor<float>(rt::DType::kF32, {2}, {1, 2.5f});
  auto reshaped = tensor<float>(rt::DType::kF32, {1, 2}, {1, 2});
  EXPECT_TRUE(sameBytes({a}, {a}));
  EXPECT_FALSE(sameBytes({a}, {b}));
  EXPECT_FALSE(sameBytes({a}, {reshaped}));
  EXPECT_FALSE(sameBytes({a}, {}));
}

TEST(GpuCheckRandomInputsTest, SeededValuesAreExactInEveryFloatType) {
  std::vector<rt::TensorSpec> specs = {{"a", rt::DType::kF32, {64, 64}},
                                       {"h", rt::DType::kF16, {64, 64}},
                                       {"b", rt::DType::kBF16, {64, 64}}};
  auto tensors = randomTensors(specs, 7);
  ASSERT_EQ(tensors.size(), 3u);
  bool anyNonZero = false;
  for (const rt::HostTensor &t : tensors) {
    ASSERT_EQ(t.data.size(), 64u * 64 * rt::dtypeSize(t.dtype));
    for (int64_t i = 0; i < t.numElements(); ++i) {
      double v = elementAsDouble(t, i);
      ASSERT_LE(std::fabs(v), 1.0);
      ASSERT_EQ(v * 64, std::round(v * 64)) << "not on the 1/64 grid";
      anyNonZero |= v != 0;
    }
  }
  EXPECT_TRUE(anyNonZero);
  // Same seed, same values; another seed, others.
  EXPECT_TRUE(sameBytes(tensors, randomTensors(specs, 7)));
  EXPECT_FALSE(sameBytes(tensors, randomTensors(specs, 8)));
}

TEST(GpuCheckRandomInputsTest, IntegersStaySmallAndBooleansBinary) {
  auto tensors = randomTensors(
      {{"i", rt::DType::kI64, {1000}}, {"m", rt::DType::kI1, {1000}}}, 1);
  for (int64_t i = 0; i < 1000; ++i) {
    double index = elementAsDouble(tensors[0], i);
    EXPECT_TRUE(index >= 0 && index < 8);
    EXPECT_LE(tensors[1].data[size_t(i)], 1);
  }
}

} // namespace
