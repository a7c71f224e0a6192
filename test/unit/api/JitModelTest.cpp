//===- JitModelTest.cpp - kiln::JitModel ----------------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "OnnxBytes.h"
#include "TestTensors.h"

#include "kiln/JitModel.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace kiln;
using kiln::test::floatsOf;
using kiln::test::floatTensor;
namespace ox = kiln::test::onnx;

namespace {

Tensor int64Tensor(const std::vector<int64_t> &values) {
  Tensor t;
  t.dtype = DType::kI64;
  t.shape = {int64_t(values.size())};
  t.data.resize(values.size() * sizeof(int64_t));
  std::memcpy(t.data.data(), values.data(), t.data.size());
  return t;
}

/// y = relu(reshape(x, shape)); x is [N, 6] with N symbolic.
std::string reshapeModel() {
  return ox::model({ox::node("Reshape", {"x", "shape"}, {"r"}, "the_reshape"),
                    ox::node("Relu", {"r"}, {"y"}, "the_relu")},
                   {ox::valueInfo("x", ox::kFloat, {{0, "N"}, {6, ""}}),
                    ox::valueInfo("shape", ox::kInt64, {{2, ""}})},
                   {ox::Message().bytes(1, "y")});
}

/// y = relu(x) on a fixed [2, 3]: nothing to specialise.
std::string reluModel() {
  return ox::model({ox::node("Relu", {"x"}, {"y"}, "the_relu")},
                   {ox::valueInfo("x", ox::kFloat, {{2, ""}, {3, ""}})},
                   {ox::Message().bytes(1, "y")});
}

std::unique_ptr<JitModel>
makeJit(const std::string &bytes,
        size_t maxVariants = JitModel::kDefaultMaxVariants) {
  auto compiler = Compiler::create();
  EXPECT_TRUE(compiler.isOk()) << compiler.status().toString();
  auto jit =
      JitModel::create(std::move(*compiler),
                       ModelSource::onnxBytes(bytes, "m.onnx"), maxVariants);
  EXPECT_TRUE(jit.isOk()) << jit.status().toString();
  return jit.isOk() ? std::move(*jit) : nullptr;
}

std::vector<float> iota(size_t count, float scale = 1.0f) {
  std::vector<float> values(count);
  for (size_t i = 0; i < count; ++i)
    values[i] = (float(i) - float(count) / 2) * scale;
  return values;
}

std::vector<float> relu(std::vector<float> values) {
  for (float &v : values)
    v = v > 0 ? v : 0;
  return values;
}

TEST(JitModelTest, CompilesShapeInputsInAndCachesByValue) {
  auto jit = makeJit(reshapeModel());
  ASSERT_TRUE(jit);
  EXPECT_EQ(jit->inputNames(), (std::vector<std::string>{"x", "shape"}));
  Tensor x = floatTensor({2, 6}, iota(12));

  auto outputs = jit->run({x, int64Tensor({3, 4})});
  ASSERT_TRUE(outputs.isOk()) << outputs.status().toString();
  ASSERT_EQ(outputs->size(), 1u);
  EXPECT_EQ((*outputs)[0].shape, (std::vector<int64_t>{3, 4}));
  EXPECT_EQ(floatsOf((*outputs)[0]), relu(iota(12)));
  EXPECT_EQ(jit->compileTimeInputs(), (std::vector<std::string>{"shape"}));
  EXPECT_EQ(jit->shapeInputs(), (std::vector<std::string>{"x"}));
  size_t compiles = jit->compilations();

  // The same shape value and x shape, other x values: the cached variant.
  Tensor other = floatTensor({2, 6}, iota(12, -2.0f));
  outputs = jit->run({other, int64Tensor({3, 4})});
  ASSERT_TRUE(outputs.isOk()) << outputs.status().toString();
  EXPECT_EQ(floatsOf((*outputs)[0]), relu(iota(12, -2.0f)));
  EXPECT_EQ(jit->compilations(), compiles);

  // Another value: another variant; a new x shape: another.
  outputs = jit->run({x, int64Tensor({4, 3})});
  ASSERT_TRUE(outputs.isOk()) << outputs.status().toString();
  EXPECT_EQ((*outputs)[0].shape, (std::vector<int64_t>{4, 3}));
  outputs = jit->run({floatTensor({4, 6}, iota(24)), int64Tensor({6, 4})});
  ASSERT_TRUE(outputs.isOk()) << outputs.status().toString();
  EXPECT_EQ((*outputs)[0].shape, (std::vector<int64_t>{6, 4}));
  EXPECT_EQ(floatsOf((*outputs)[0]), relu(iota(24)));
  EXPECT_EQ(jit->compilations(), compiles + 2);
  EXPECT_EQ(jit->cachedVariants(), 3u);
}

TEST(JitModelTest, EvictsTheLeastRecentlyUsedVariant) {
  auto jit = makeJit(reshapeModel(), /*maxVariants=*/2);
  ASSERT_TRUE(jit);
  Tensor x = floatTensor({2, 6}, iota(12));
  auto run = [&](std::vector<int64_t> shape) {
    auto outputs = jit->run({x, int64Tensor(shape)});
    EXPECT_TRUE(outputs.isOk()) << outputs.status().toString();
  };
  run({3, 4});
  run({4, 3});
  size_t compiles = jit->compilations();
  run({3, 4}); // Cached; now the most recent.
  run({2, 6}); // Evicts {4, 3}.
  EXPECT_EQ(jit->compilations(), compiles + 1);
  run({3, 4});
  EXPECT_EQ(jit->compilations(), compiles + 1);
  run({4, 3});
  EXPECT_EQ(jit->compilations(), compiles + 2);
  EXPECT_EQ(jit->cachedVariants(), 2u);
}

TEST(JitModelTest, SpecialisedExecutableTakesTheRunTimeInputs) {
  auto jit = makeJit(reshapeModel());
  ASSERT_TRUE(jit);
  std::vector<Tensor> inputs = {floatTensor({2, 6}, iota(12)),
                                int64Tensor({12, 1})};
  auto executable = jit->specialize(inputs);
  ASSERT_TRUE(executable.isOk()) << executable.status().toString();
  ASSERT_EQ((*executable)->inputs().size(), 1u);
  EXPECT_EQ((*executable)->inputs()[0].name, "x");
  auto runtime = jit->runtimeInputs(**executable, inputs);
  ASSERT_TRUE(runtime.isOk());
  ASSERT_EQ(runtime->size(), 1u);
  auto outputs = (*executable)->run(*runtime);
  ASSERT_TRUE(outputs.isOk()) << outputs.status().toString();
  EXPECT_EQ((*outputs)[0].shape, (std::vector<int64_t>{12, 1}));
}

TEST(JitModelTest, ModelWithoutShapeInputsCompilesAtCreate) {
  auto jit = makeJit(reluModel());
  ASSERT_TRUE(jit);
  EXPECT_EQ(jit->compilations(), 1u);
  EXPECT_EQ(jit->cachedVariants(), 1u);
  EXPECT_TRUE(jit->compileTimeInputs().empty());
  EXPECT_TRUE(jit->shapeInputs().empty());
  auto outputs = jit->run({floatTensor({2, 3}, iota(6))});
  ASSERT_TRUE(outputs.isOk()) << outputs.status().toString();
  EXPECT_EQ(floatsOf((*outputs)[0]), relu(iota(6)));
  EXPECT_EQ(jit->compilations(), 1u);
}

TEST(JitModelTest, CutsOutputsToTheirRunTimeLength) {
  // NonZero's indices are a bounded [2, 6] output with its length beside it;
  // runs on tensors return the kept columns only, through the JIT and the
  // executable alike.
  std::string bytes =
      ox::model({ox::node("NonZero", {"x"}, {"y"}, "the_nonzero")},
                {ox::valueInfo("x", ox::kFloat, {{2, ""}, {3, ""}})},
                {ox::Message().bytes(1, "y")});
  auto jit = makeJit(bytes);
  ASSERT_TRUE(jit);
  Tensor x = floatTensor({2, 3}, {0, 5, 0, -1, 0, 2});
  auto outputs = jit->run({x});
  ASSERT_TRUE(outputs.isOk()) << outputs.status().toString();
  ASSERT_EQ(outputs->size(), 2u); // y and y:length
  EXPECT_EQ((*outputs)[0].shape, (std::vector<int64_t>{2, 3}));
  std::vector<int64_t> indices(6);
  std::memcpy(indices.data(), (*outputs)[0].data.data(), 48);
  EXPECT_EQ(indices, (std::vector<int64_t>{0, 1, 1, 1, 0, 2}));
  auto executable = jit->specialize({x});
  ASSERT_TRUE(executable.isOk()) << executable.status().toString();
  const std::vector<TensorInfo> &specs = (*executable)->outputs();
  EXPECT_EQ(specs[0].shape, (std::vector<int64_t>{2, 6}));
  EXPECT_EQ(specs[0].lengthAxis, 1);
  EXPECT_EQ(specs[0].lengthOutput, 1u);
  EXPECT_EQ(specs[1].name, "y:length");
  auto direct = (*executable)->run({x});
  ASSERT_TRUE(direct.isOk()) << direct.status().toString();
  EXPECT_EQ((*direct)[0].shape, (std::vector<int64_t>{2, 3}));
}

TEST(JitModelTest, BadCallsAreLocatedErrors) {
  auto jit = makeJit(reshapeModel());
  ASSERT_TRUE(jit);
  auto missing = jit->run({floatTensor({2, 6}, iota(12))});
  ASSERT_FALSE(missing.isOk());
  EXPECT_EQ(missing.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(missing.status().message().find(
                "the model takes 2 inputs (x, shape), got 1"),
            std::string::npos)
      << missing.status().message();

  // A shape the data does not fit: the compile's own error, at the node.
  auto wrong = jit->run({floatTensor({2, 6}, iota(12)), int64Tensor({5, 5})});
  ASSERT_FALSE(wrong.isOk());
  EXPECT_NE(wrong.status().message().find("node 'the_reshape' (Reshape)"),
            std::string::npos)
      << wrong.status().message();

  Tensor truncated = int64Tensor({3, 4});
  truncated.data.resize(4);
  auto bytes = jit->run({floatTensor({2, 6}, iota(12)), truncated});
  ASSERT_FALSE(bytes.isOk());
  EXPECT_NE(bytes.status().message().find(
                "input 'shape': its bytes do not match its shape"),
            std::string::npos)
      << bytes.status().message();
}

TEST(JitModelTest, UnsupportedModelFailsAtCreate) {
  auto compiler = Compiler::create();
  ASSERT_TRUE(compiler.isOk());
  std::string bytes = ox::model({ox::node("NoSuchOp", {"x"}, {"y"}, "odd")},
                                {ox::valueInfo("x", ox::kFloat, {{2, ""}})},
                                {ox::Message().bytes(1, "y")});
  auto jit = JitModel::create(std::move(*compiler),
                              ModelSource::onnxBytes(bytes, "m.onnx"));
  ASSERT_FALSE(jit.isOk());
  EXPECT_EQ(exitCodeFor(jit.status()), 3);
  EXPECT_NE(jit.status().message().find("NoSuchOp"), std::string::npos)
      << jit.status().message();

  auto none = JitModel::create(nullptr, ModelSource::onnxBytes(bytes));
  ASSERT_FALSE(none.isOk());
  EXPECT_EQ(none.status().code(), StatusCode::kFailedPrecondition);
}

} // namespace
