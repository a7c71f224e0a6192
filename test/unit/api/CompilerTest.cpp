//===- CompilerTest.cpp - kiln::Compiler and kiln::Executable -------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "TestTensors.h"

#include "kiln/kiln.h"

#include <cstdlib>

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <unistd.h>

using namespace kiln;
using kiln::test::floatsOf;
using kiln::test::floatTensor;

namespace {

// y = relu(x + b) on [2, 3].
constexpr const char *kAddRelu = R"mlir(
func.func @main(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %b = kiln.constant dense<[1.0, -2.0, 0.5]> : tensor<3xf32>
  %s = kiln.add %x, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %r = kiln.relu %s : tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
)mlir";

std::unique_ptr<Compiler> makeCompiler(CompileOptions options = {}) {
  auto compiler = Compiler::create(std::move(options));
  EXPECT_TRUE(compiler.isOk()) << compiler.status().toString();
  return compiler.isOk() ? std::move(*compiler) : nullptr;
}

std::unique_ptr<Executable> compileAddRelu() {
  auto compiler = makeCompiler();
  auto model = compiler->compile(ModelSource::mlirText(kAddRelu, "add.mlir"));
  EXPECT_TRUE(model.isOk()) << model.status().toString();
  return model.isOk() ? std::move(*model) : nullptr;
}

const std::vector<float> kInput = {-1, 0, 1, 2, 3, -4};
const std::vector<float> kExpected = {0, 0, 1.5, 3, 1, 0};

TEST(Compiler, CompilesMlirTextAndRunsManyTimes) {
  auto model = compileAddRelu();
  ASSERT_TRUE(model);
  ASSERT_EQ(model->inputs().size(), 1u);
  EXPECT_EQ(model->inputs()[0].shape, (std::vector<int64_t>{2, 3}));
  for (int i = 0; i < 3; ++i) {
    auto outputs = model->run({floatTensor({2, 3}, kInput)});
    ASSERT_TRUE(outputs.isOk()) << outputs.status().toString();
    EXPECT_EQ(floatsOf((*outputs)[0]), kExpected);
  }
}

TEST(Compiler, RunsOnCallerOwnedBuffers) {
  auto model = compileAddRelu();
  ASSERT_TRUE(model);
  std::vector<float> in = kInput, out(6, -7.f);
  Status status = model->run({{DType::kF32, {2, 3}, in.data(), 24}},
                             {{DType::kF32, {2, 3}, out.data(), 24}});
  ASSERT_TRUE(status.isOk()) << status.toString();
  EXPECT_EQ(out, kExpected);
}

TEST(Compiler, MisuseIsAClearError) {
  auto model = compileAddRelu();
  ASSERT_TRUE(model);
  // Wrong input count.
  auto none = model->run(std::vector<Tensor>{});
  ASSERT_FALSE(none.isOk());
  EXPECT_EQ(none.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(none.status().message().find("takes 1 inputs, got 0"),
            std::string::npos)
      << none.status().message();
  // Wrong shape.
  auto shape = model->run({floatTensor({3, 2}, kInput)});
  ASSERT_FALSE(shape.isOk());
  EXPECT_NE(shape.status().message().find("must have shape [2, 3], got [3, 2]"),
            std::string::npos)
      << shape.status().message();
  // Wrong dtype.
  Tensor ints = floatTensor({2, 3}, kInput);
  ints.dtype = DType::kI32;
  auto dtype = model->run({ints});
  ASSERT_FALSE(dtype.isOk());
  EXPECT_NE(dtype.status().message().find("must be f32"), std::string::npos)
      << dtype.status().message();
  // An output buffer that is too small, and a null one.
  std::vector<float> in = kInput, out(6);
  Status small = model->run({{DType::kF32, {2, 3}, in.data(), 24}},
                            {{DType::kF32, {2, 3}, out.data(), 8}});
  EXPECT_NE(small.message().find("output"), std::string::npos);
  EXPECT_NE(small.message().find("needs 24"), std::string::npos)
      << small.message();
  Status null = model->run({{DType::kF32, {2, 3}, nullptr, 24}},
                           {{DType::kF32, {2, 3}, out.data(), 24}});
  EXPECT_NE(null.message().find("null"), std::string::npos) << null.message();
  EXPECT_EQ(exitCodeFor(null), 2);
}

TEST(Compiler, InvalidModelsGiveLocatedErrors) {
  auto compiler = makeCompiler();
  auto bad = compiler->compile(ModelSource::mlirText(
      "func.func @main(%x: tensor<2xf32>) -> tensor<3xf32> {\n"
      "  %r = kiln.relu %x : tensor<3xf32>\n"
      "  return %r : tensor<3xf32>\n}\n",
      "bad.mlir"));
  ASSERT_FALSE(bad.isOk());
  EXPECT_EQ(exitCodeFor(bad.status()), 2);
  EXPECT_NE(bad.status().message().find("bad.mlir:2:"), std::string::npos)
      << bad.status().message();

  auto onnx =
      compiler->compile(ModelSource::onnxBytes("not a model", "m.onnx"));
  ASSERT_FALSE(onnx.isOk());
  EXPECT_EQ(exitCodeFor(onnx.status()), 2);
  EXPECT_NE(onnx.status().message().find("m.onnx: error: not a valid ONNX"),
            std::string::npos)
      << onnx.status().message();

  auto missing = compiler->compile(ModelSource::file("/nonexistent/x.onnx"));
  ASSERT_FALSE(missing.isOk());
  EXPECT_NE(missing.status().message().find("no such file"), std::string::npos);
}

TEST(Compiler, OptionsAreValidated) {
  CompileOptions cuda;
  cuda.target = "cuda:sm_61";
  auto compiler = Compiler::create(cuda);
  ASSERT_FALSE(compiler.isOk());
  EXPECT_EQ(exitCodeFor(compiler.status()), 3);
  EXPECT_NE(compiler.status().message().find("unknown CUDA architecture"),
            std::string::npos);

  CompileOptions tpu;
  tpu.target = "tpu";
  EXPECT_EQ(exitCodeFor(Compiler::create(tpu).status()), 3);

  CompileOptions plugin;
  plugin.passPlugins = {"/nonexistent/plugin.so"};
  auto withPlugin = Compiler::create(plugin);
  ASSERT_FALSE(withPlugin.isOk());
  EXPECT_EQ(exitCodeFor(withPlugin.status()), 1);
  EXPECT_NE(withPlugin.status().message().find("cannot load pass plugin"),
            std::string::npos);
}

// Compiling for CUDA works anywhere NVRTC does; running needs a GPU, and
// without one the executable is refused with exit code 5 (not a crash, not
// a CPU fallback).
TEST(Compiler, CudaWithoutAGpuIsUnavailable) {
  setenv("KILN_CUDA_DRIVER", "/nonexistent/libcuda.so.1", 1);
  CompileOptions options;
  options.target = "cuda:sm_90";
  auto compiler = Compiler::create(options);
  ASSERT_TRUE(compiler.isOk()) << compiler.status().message();
  auto executable =
      (*compiler)->compile(ModelSource::mlirText(kAddRelu, "add_relu.mlir"));
  unsetenv("KILN_CUDA_DRIVER");
  ASSERT_FALSE(executable.isOk());
  // Both a missing driver and, on a machine without the CUDA toolkit (a
  // fresh Debian install), a missing NVRTC are "this machine lacks what it
  // needs" (5), and say which.
  const std::string &message = executable.status().message();
  EXPECT_EQ(exitCodeFor(executable.status()), 5) << message;
  bool noNvrtc = message.find("cannot load NVRTC") != std::string::npos;
  bool noDriver = message.find("no CUDA driver") != std::string::npos;
  EXPECT_TRUE(noNvrtc || noDriver) << message;
}

TEST(Compiler, PluginPassesRunAtTheirPoint) {
  CompileOptions options;
  options.passPlugins = {std::string(KILN_TEST_PLUGIN_DIR) + "/DivToMul.so"};
  auto compiler = makeCompiler(options);
  ASSERT_TRUE(compiler);
  auto ir = compiler->emitIR(
      ModelSource::mlirText(
          "func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
          "  %c = kiln.constant dense<4.0> : tensor<f32>\n"
          "  %d = kiln.div %x, %c : (tensor<4xf32>, tensor<f32>) -> "
          "tensor<4xf32>\n"
          "  return %d : tensor<4xf32>\n}\n"),
      Compiler::IRStage::kGraph);
  ASSERT_TRUE(ir.isOk()) << ir.status().toString();
  EXPECT_NE(ir->find("example.divisions_rewritten = 1"), std::string::npos)
      << *ir;
  EXPECT_NE(ir->find("kiln.mul"), std::string::npos) << *ir;
  EXPECT_NE(ir->find("dense<2.500000e-01>"), std::string::npos) << *ir;

  CompileOptions wrong;
  wrong.passPlugins = {std::string(KILN_TEST_PLUGIN_DIR) +
                       "/DivToMulWrongVersion.so"};
  auto refused = Compiler::create(wrong);
  ASSERT_FALSE(refused.isOk());
  EXPECT_EQ(exitCodeFor(refused.status()), 1);
  EXPECT_NE(refused.status().message().find("API version 999"),
            std::string::npos)
      << refused.status().message();
}

TEST(Compiler, ArtifactsRoundTrip) {
  auto compiler = makeCompiler();
  std::string path =
      ::testing::TempDir() + "/api-" + std::to_string(::getpid()) + ".kiln";
  Compiler::ArtifactReport report;
  Status status = compiler->compileToArtifact(
      ModelSource::mlirText(kAddRelu, "add.mlir"), path, &report);
  ASSERT_TRUE(status.isOk()) << status.toString();
  EXPECT_GT(report.kernelBytes, 0u);
  auto model = Executable::loadArtifact(path);
  ASSERT_TRUE(model.isOk()) << model.status().toString();
  EXPECT_EQ((*model)->description(), "cpu (artifact)");
  auto outputs = (*model)->run({floatTensor({2, 3}, kInput)});
  ASSERT_TRUE(outputs.isOk());
  EXPECT_EQ(floatsOf((*outputs)[0]), kExpected);
  std::remove(path.c_str());

  Status unwritable = compiler->compileToArtifact(
      ModelSource::mlirText(kAddRelu), "/nonexistent/dir/x.kiln");
  EXPECT_EQ(exitCodeFor(unwritable), 1) << unwritable.toString();
}

// y = relu(x W1) W2, W1 4x4 and W2 4x2: tensor parallelism splits W1 by
// columns and W2 by rows, so the two ranks add partial sums.
constexpr const char *kTwoLayers = R"mlir(
func.func @main(%x: tensor<2x4xf32>) -> tensor<2x2xf32> {
  %w1 = kiln.constant dense<[[1.0, 0.0, -1.0, 2.0], [0.5, 1.0, 0.0, -1.0],
                             [0.0, 2.0, 1.0, 0.0], [-1.0, 0.0, 0.5, 1.0]]> : tensor<4x4xf32>
  %w2 = kiln.constant dense<[[1.0, -1.0], [2.0, 0.0], [0.0, 1.0], [1.0, 1.0]]> : tensor<4x2xf32>
  %h = kiln.matmul %x, %w1 : (tensor<2x4xf32>, tensor<4x4xf32>) -> tensor<2x4xf32>
  %r = kiln.relu %h : tensor<2x4xf32>
  %y = kiln.matmul %r, %w2 : (tensor<2x4xf32>, tensor<4x2xf32>) -> tensor<2x2xf32>
  return %y : tensor<2x2xf32>
}
)mlir";

/// kTwoLayers' output on one device, which every sharded run must equal
/// (empty after a failure).
std::vector<float> twoLayersOnOneDevice(const std::vector<float> &input) {
  auto single =
      makeCompiler()->compile(ModelSource::mlirText(kTwoLayers, "two.mlir"));
  EXPECT_TRUE(single.isOk()) << single.status().toString();
  if (!single.isOk())
    return {};
  auto outputs = (*single)->run({floatTensor({2, 4}, input)});
  EXPECT_TRUE(outputs.isOk()) << outputs.status().toString();
  return outputs.isOk() ? floatsOf((*outputs)[0]) : std::vector<float>{};
}

TEST(Compiler, ShardedArtifactsRunOnRanks) {
  std::vector<float> input = {1, 2, 3, 4, -1, 0.5, 2, 1};
  std::vector<float> expected = twoLayersOnOneDevice(input);
  ASSERT_FALSE(expected.empty());

  CompileOptions options;
  options.devices = 2;
  options.parallel = "tensor";
  std::string path = ::testing::TempDir() + "/api-sharded-" +
                     std::to_string(::getpid()) + ".kiln";
  Status status = makeCompiler(options)->compileToArtifact(
      ModelSource::mlirText(kTwoLayers, "two.mlir"), path);
  ASSERT_TRUE(status.isOk()) << status.toString();
  auto model = Executable::loadArtifact(path);
  ASSERT_TRUE(model.isOk()) << model.status().toString();
  EXPECT_EQ((*model)->description(), "2 CPU ranks in-process (artifact)");
  for (int run = 0; run < 2; ++run) {
    auto outputs = (*model)->run({floatTensor({2, 4}, input)});
    ASSERT_TRUE(outputs.isOk()) << outputs.status().toString();
    EXPECT_EQ(floatsOf((*outputs)[0]), expected);
  }
  // Caller-owned buffers too.
  Tensor in = floatTensor({2, 4}, input);
  Tensor out = floatTensor({2, 2}, {0, 0, 0, 0});
  ASSERT_TRUE((*model)->run({TensorRef::of(in)}, {TensorRef::of(out)}).isOk());
  EXPECT_EQ(floatsOf(out), expected);
  std::remove(path.c_str());

  // Sharding takes CUDA targets too (rank r on GPU r) and known strategies.
  CompileOptions cuda = options;
  cuda.target = "cuda";
  EXPECT_TRUE(Compiler::create(cuda).isOk());
  CompileOptions unknown = options;
  unknown.parallel = "spatial";
  EXPECT_EQ(Compiler::create(unknown).status().code(),
            StatusCode::kInvalidArgument);
}

TEST(Compiler, LoadOptionsChooseTheGemmPath) {
  std::string path = ::testing::TempDir() + "/api-gemm-" +
                     std::to_string(::getpid()) + ".kiln";
  ASSERT_TRUE(makeCompiler()
                  ->compileToArtifact(
                      ModelSource::mlirText(kTwoLayers, "two.mlir"), path)
                  .isOk());
  LoadOptions options;
  options.gemm = "fastest";
  auto refused = Executable::loadArtifact(path, options);
  ASSERT_FALSE(refused.isOk());
  EXPECT_EQ(refused.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(refused.status().message().find("unknown GEMM path 'fastest'"),
            std::string::npos);
  // A CPU artifact has no GEMM calls: any valid path loads it.
  options.gemm = "auto";
  EXPECT_TRUE(Executable::loadArtifact(path, options).isOk());
  std::remove(path.c_str());

  CompileOptions compile;
  compile.gemm = "fastest";
  auto jit = makeCompiler(compile)->compile(
      ModelSource::mlirText(kTwoLayers, "two.mlir"));
  EXPECT_EQ(jit.status().code(), StatusCode::kInvalidArgument);
}

TEST(Compiler, PipelinesAndUsersLayoutsRunOnRanks) {
  std::vector<float> input = {1, 2, 3, 4, -1, 0.5, 2, 1};
  std::vector<float> expected = twoLayersOnOneDevice(input);
  ASSERT_FALSE(expected.empty());

  CompileOptions pipeline;
  pipeline.devices = 2;
  pipeline.parallel = "pipeline";
  pipeline.microBatches = 2;
  CompileOptions annotated;
  annotated.devices = 2;
  annotated.shard = {"arg0=split(0)"};
  // Sequence parallelism is tensor parallelism here (no layer norm to
  // scatter into); test/e2e/sharding/models.test has the transformers.
  CompileOptions sequence;
  sequence.devices = 2;
  sequence.parallel = "sequence";
  for (const CompileOptions &options : {pipeline, annotated, sequence}) {
    std::string path = ::testing::TempDir() + "/api-" + options.parallel +
                       "-" + std::to_string(::getpid()) + ".kiln";
    Status status = makeCompiler(options)->compileToArtifact(
        ModelSource::mlirText(kTwoLayers, "two.mlir"), path);
    ASSERT_TRUE(status.isOk()) << status.toString();
    auto model = Executable::loadArtifact(path);
    ASSERT_TRUE(model.isOk()) << model.status().toString();
    auto outputs = (*model)->run({floatTensor({2, 4}, input)});
    ASSERT_TRUE(outputs.isOk()) << outputs.status().toString();
    EXPECT_EQ(floatsOf((*outputs)[0]), expected) << options.parallel;
    std::remove(path.c_str());
  }

  // Micro-batches belong to pipelines over ranks; layouts parse.
  CompileOptions micro;
  micro.devices = 2;
  micro.microBatches = 2;
  EXPECT_EQ(Compiler::create(micro).status().code(),
            StatusCode::kInvalidArgument);
  CompileOptions layout = annotated;
  layout.shard = {"arg0"};
  EXPECT_EQ(Compiler::create(layout).status().code(),
            StatusCode::kInvalidArgument);
}

} // namespace
