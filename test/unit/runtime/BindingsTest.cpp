//===- BindingsTest.cpp - A call's tensors against a signature ------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/Bindings.h"

#include <gtest/gtest.h>

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

} // namespace
