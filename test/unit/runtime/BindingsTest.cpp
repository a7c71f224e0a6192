//===- BindingsTest.cpp - A call's tensors against a signature ------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/Bindings.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace kiln::rt;

namespace {

TensorRef refTo(float *data, int64_t n) {
  return {DType::kF32, {n}, data, size_t(n) * sizeof(float)};
}

TEST(BindingsTest, OutputsMayNotShareMemoryWithInputsOrOutputs) {
  std::vector<TensorSpec> in = {{"x", DType::kF32, {4}}};
  std::vector<TensorSpec> out = {{"y", DType::kF32, {4}},
                                 {"z", DType::kF32, {4}}};
  float a[4], b[4], c[4], big[8];
  EXPECT_TRUE(checkBindings({refTo(a, 4)}, in, {refTo(b, 4), refTo(c, 4)},
                            out)
                  .isOk());
  // Outputs are written while inputs are still read.
  Status same = checkBindings({refTo(a, 4)}, in, {refTo(a, 4), refTo(c, 4)},
                              out);
  EXPECT_FALSE(same.isOk());
  EXPECT_NE(same.message().find("output 'y' shares memory with input 'x'"),
            std::string::npos);
  Status partial = checkBindings({refTo(big, 4)}, in,
                                 {refTo(b, 4), refTo(big + 3, 4)}, out);
  EXPECT_NE(partial.message().find("output 'z' shares memory with input"),
            std::string::npos);
  Status outputs = checkBindings({refTo(a, 4)}, in,
                                 {refTo(big, 4), refTo(big + 2, 4)}, out);
  EXPECT_NE(outputs.message().find("output 'z' shares memory with output 'y'"),
            std::string::npos);
  // Adjacent buffers do not overlap.
  EXPECT_TRUE(checkBindings({refTo(big, 4)}, in,
                            {refTo(big + 4, 4), refTo(c, 4)}, out)
                  .isOk());
}

HostTensor lengthTensor(int64_t length) {
  HostTensor tensor{DType::kI64, {}, std::vector<uint8_t>(sizeof(length))};
  std::memcpy(tensor.data.data(), &length, sizeof(length));
  return tensor;
}

/// A [2, 4] i32 output with 0..7 and a length along `axis`.
std::vector<HostTensor> boundedOutputs(int64_t length) {
  HostTensor bounded{DType::kI32, {2, 4}, std::vector<uint8_t>(32)};
  for (int32_t i = 0; i < 8; ++i)
    std::memcpy(bounded.data.data() + 4 * i, &i, 4);
  return {bounded, lengthTensor(length)};
}

std::vector<TensorSpec> boundedSpecs(int32_t axis) {
  TensorSpec bounded{"y", DType::kI32, {2, 4}};
  bounded.lengthAxis = axis;
  bounded.lengthOutput = 1;
  return {bounded, {"y:length", DType::kI64, {}}};
}

std::vector<int32_t> valuesOf(const HostTensor &tensor) {
  std::vector<int32_t> values(tensor.data.size() / 4);
  std::memcpy(values.data(), tensor.data.data(), tensor.data.size());
  return values;
}

TEST(BindingsTest, CutsOutputsToTheirRunTimeLength) {
  // Along the inner axis every row keeps its first entries.
  std::vector<HostTensor> outputs = boundedOutputs(3);
  ASSERT_TRUE(applyRuntimeLengths(boundedSpecs(1), outputs).isOk());
  EXPECT_EQ(outputs[0].shape, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(valuesOf(outputs[0]), (std::vector<int32_t>{0, 1, 2, 4, 5, 6}));
  // Along the outer axis the first rows stay whole.
  outputs = boundedOutputs(1);
  ASSERT_TRUE(applyRuntimeLengths(boundedSpecs(0), outputs).isOk());
  EXPECT_EQ(outputs[0].shape, (std::vector<int64_t>{1, 4}));
  EXPECT_EQ(valuesOf(outputs[0]), (std::vector<int32_t>{0, 1, 2, 3}));
  // Nothing kept, and everything kept.
  outputs = boundedOutputs(0);
  ASSERT_TRUE(applyRuntimeLengths(boundedSpecs(1), outputs).isOk());
  EXPECT_EQ(outputs[0].shape, (std::vector<int64_t>{2, 0}));
  EXPECT_TRUE(outputs[0].data.empty());
  outputs = boundedOutputs(4);
  ASSERT_TRUE(applyRuntimeLengths(boundedSpecs(1), outputs).isOk());
  EXPECT_EQ(valuesOf(outputs[0]).size(), 8u);
}

TEST(BindingsTest, CutsAMiddleAxis) {
  // [2, 3, 2] i32 0..11 cut to 2 along axis 1: each of the 2 outer blocks
  // keeps its first 2 rows of 2.
  HostTensor bounded{DType::kI32, {2, 3, 2}, std::vector<uint8_t>(48)};
  for (int32_t i = 0; i < 12; ++i)
    std::memcpy(bounded.data.data() + 4 * i, &i, 4);
  std::vector<HostTensor> outputs = {bounded, lengthTensor(2)};
  TensorSpec spec{"y", DType::kI32, {2, 3, 2}};
  spec.lengthAxis = 1;
  spec.lengthOutput = 1;
  ASSERT_TRUE(
      applyRuntimeLengths({spec, {"y:length", DType::kI64, {}}}, outputs)
          .isOk());
  EXPECT_EQ(outputs[0].shape, (std::vector<int64_t>{2, 2, 2}));
  EXPECT_EQ(valuesOf(outputs[0]),
            (std::vector<int32_t>{0, 1, 2, 3, 6, 7, 8, 9}));
}

TEST(BindingsTest, RefusesALengthOutsideTheBound) {
  for (int64_t length : {int64_t(-1), int64_t(5)}) {
    std::vector<HostTensor> outputs = boundedOutputs(length);
    Status status = applyRuntimeLengths(boundedSpecs(1), outputs);
    EXPECT_EQ(status.code(), StatusCode::kInternal);
    EXPECT_NE(status.message().find("output 'y': run-time length " +
                                    std::to_string(length) + " outside [0, 4]"),
              std::string::npos)
        << status.message();
  }
}

} // namespace
