//===- CudaGemmTest.cpp - GEMM calls: generated, cuBLASLt or timed --------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Against the fake driver and its fake cuBLASLt (host GEMMs with cuBLASLt's
// documented semantics): the layouts a GemmCall maps to, epilogues, graph
// capture and replay, the choice `auto` makes from device timings and the
// timing cache, and what happens without cuBLASLt.
//
//===----------------------------------------------------------------------===//

#include "CudaRuntimeFixture.h"

#include <cmath>
#include <cstdio>
#include <fstream>

namespace kiln::rt::test {
namespace {

constexpr int64_t kM = 2, kN = 4, kK = 3;

/// A row-major [m,k] x [k,n] GEMM as one launch of "gemm_kernel" over
/// (A input 0, B input 1, D output 0), with the GemmCall the compiler would
/// record. The fake kernel writes -1 everywhere: a result of the kernel
/// path is recognisable.
Artifact gemmArtifact(int64_t batch = 1) {
  Artifact artifact;
  artifact.target = "cuda sm_90";
  artifact.program.inputs = {{"a", DType::kF32, {batch, kM, kK}},
                             {"b", DType::kF32, {batch, kK, kN}}};
  artifact.program.outputs = {{"d", DType::kF32, {batch, kM, kN}}};
  DeviceProgram device;
  device.kind = DeviceProgram::Kind::kCuda;
  device.arenaBytes = 256;
  Step step;
  step.kind = Step::Kind::kLaunchKernel;
  step.kernel = "gemm_kernel";
  step.block[0] = 64;
  uint64_t aBytes = batch * kM * kK * 4, bBytes = batch * kK * kN * 4,
           dBytes = batch * kM * kN * 4;
  step.args = {
      {KernelArg::Base::kInput, 0, 0, aBytes, KernelArg::Access::kRead},
      {KernelArg::Base::kInput, 1, 0, bBytes, KernelArg::Access::kRead},
      {KernelArg::Base::kOutput, 0, 0, dBytes, KernelArg::Access::kWrite}};
  device.steps = {step};
  artifact.program.devices.push_back(device);
  artifact.cudaModules = {{CudaModule::Format::kPtx,
                           80,
                           {"gemm_kernel"},
                           ptxImage(".target sm_80 .entry gemm_kernel")}};
  GemmCall call;
  call.batch = batch;
  call.m = kM, call.n = kN, call.k = kK;
  call.a = {0, 0, kK, 1, kM * kK};
  call.b = {1, 0, kN, 1, kK * kN};
  call.d = {2, 0, kN, 1, kM * kN};
  artifact.gemmCalls = {call};
  return artifact;
}

std::vector<float> iota(size_t count, float start) {
  std::vector<float> v(count);
  for (size_t i = 0; i < count; ++i)
    v[i] = start + float(i) * 0.5f;
  return v;
}

HostTensor shaped(std::vector<float> values, std::vector<int64_t> shape) {
  HostTensor t = tensor(std::move(values));
  t.shape = std::move(shape);
  return t;
}

/// Row-major reference, per batch.
std::vector<float> reference(const std::vector<float> &a,
                             const std::vector<float> &b, int64_t batch) {
  std::vector<float> d(size_t(batch * kM * kN));
  for (int64_t z = 0; z < batch; ++z)
    for (int64_t i = 0; i < kM; ++i)
      for (int64_t j = 0; j < kN; ++j) {
        float sum = 0;
        for (int64_t p = 0; p < kK; ++p)
          sum += a[z * kM * kK + i * kK + p] * b[z * kK * kN + p * kN + j];
        d[z * kM * kN + i * kN + j] = sum;
      }
  return d;
}

class CudaGemmTest : public CudaRuntimeTest {
protected:
  void SetUp() override {
    CudaRuntimeTest::SetUp();
    setenv("KILN_CUBLASLT", KILN_FAKE_CUDA_DRIVER, 1);
    unsetenv("KILN_CUDA_GEMM_CACHE");
    fake().kernels["gemm_kernel"] = {3, [](const std::vector<uint64_t> &args) {
                                       for (int i = 0; i < kM * kN; ++i)
                                         floats(args[2])[i] = -1;
                                     }};
  }
  void TearDown() override {
    unsetenv("KILN_CUBLASLT");
    CudaRuntimeTest::TearDown();
  }

  std::vector<float> runOnce(CudaExecutable &executable, int64_t batch = 1) {
    std::vector<HostTensor> out;
    Status status = executable.run(
        {shaped(a(batch), {batch, kM, kK}), shaped(b(batch), {batch, kK, kN})},
        out);
    EXPECT_TRUE(status.isOk()) << status.toString();
    return status.isOk() ? values(out[0]) : std::vector<float>{};
  }
  static std::vector<float> a(int64_t batch = 1) {
    return iota(size_t(batch * kM * kK), -1);
  }
  static std::vector<float> b(int64_t batch = 1) {
    return iota(size_t(batch * kK * kN), 0.25f);
  }
  static CudaLoadOptions path(GemmPath gemm) {
    CudaLoadOptions options;
    options.gemm = gemm;
    return options;
  }
};

TEST_F(CudaGemmTest, GeneratedKernelsByDefault) {
  auto executable = load(gemmArtifact());
  ASSERT_NE(executable, nullptr);
  EXPECT_EQ(runOnce(*executable), std::vector<float>(kM * kN, -1));
  EXPECT_EQ(fake().blasLtMatmuls, 0);
  EXPECT_EQ(fake().liveBlasLtHandles, 0);
  EXPECT_TRUE(executable->gemmChoices().empty());
}

TEST_F(CudaGemmTest, CublasLtComputesTheRowMajorGemm) {
  auto executable = load(gemmArtifact(), path(GemmPath::kCublasLt));
  ASSERT_NE(executable, nullptr);
  EXPECT_EQ(runOnce(*executable), reference(a(), b(), 1));
  EXPECT_EQ(fake().blasLtMatmuls, 1);
  EXPECT_EQ(executable->counters().blasLtSteps, 1u);
  ASSERT_EQ(executable->gemmChoices().size(), 1u);
  EXPECT_EQ(executable->gemmChoices()[0], "step #0: f32 GEMM 2x4x3: cuBLASLt");
  executable.reset();
  EXPECT_EQ(fake().liveBlasLtHandles, 0);
  EXPECT_EQ(fake().liveBlasLtDescriptors, 0);
  EXPECT_EQ(fake().liveAllocations, 0);
}

TEST_F(CudaGemmTest, CapturedAndReplayedGraphsRunTheLibraryCall) {
  auto executable = load(gemmArtifact(), path(GemmPath::kCublasLt));
  ASSERT_NE(executable, nullptr);
  std::vector<float> want = reference(a(), b(), 1);
  for (int run = 0; run < 3; ++run) // direct, capture, replay
    EXPECT_EQ(runOnce(*executable), want) << "run " << run;
  EXPECT_EQ(executable->counters().graphLaunches, 1u);
  EXPECT_EQ(fake().blasLtMatmuls, 3);
  EXPECT_TRUE(fake().launches.back().fromGraph);
  EXPECT_EQ(fake().launches.back().kernel, "cublasLtMatmul");
}

TEST_F(CudaGemmTest, HookedRunsUseTheLibraryToo) {
  auto executable = load(gemmArtifact(), path(GemmPath::kCublasLt));
  ASSERT_NE(executable, nullptr);
  StepHooks hooks;
  RunOptions options;
  options.hooks = &hooks;
  std::vector<HostTensor> out;
  ASSERT_TRUE(executable
                  ->run({shaped(a(), {1, kM, kK}), shaped(b(), {1, kK, kN})},
                        out, options)
                  .isOk());
  EXPECT_EQ(values(out[0]), reference(a(), b(), 1));
}

TEST_F(CudaGemmTest, BatchedTransposedAndColumnMajorLayouts) {
  // Two batches; B given transposed in memory (column-major: row stride 1),
  // D column-major: the other formulation of the GEMM.
  constexpr int64_t kBatch = 2;
  Artifact artifact = gemmArtifact(kBatch);
  GemmCall &call = artifact.gemmCalls[0];
  call.b = {1, 0, 1, kK, kK * kN};
  call.d = {2, 0, 1, kM, kM * kN};
  auto executable = load(std::move(artifact), path(GemmPath::kCublasLt));
  ASSERT_NE(executable, nullptr);
  std::vector<float> bRowMajor = b(kBatch), bColumnMajor(bRowMajor.size());
  for (int64_t z = 0; z < kBatch; ++z)
    for (int64_t p = 0; p < kK; ++p)
      for (int64_t j = 0; j < kN; ++j)
        bColumnMajor[z * kK * kN + j * kK + p] =
            bRowMajor[z * kK * kN + p * kN + j];
  std::vector<HostTensor> out;
  ASSERT_TRUE(executable
                  ->run({shaped(a(kBatch), {kBatch, kM, kK}),
                         shaped(bColumnMajor, {kBatch, kK, kN})},
                        out)
                  .isOk());
  std::vector<float> want = reference(a(kBatch), bRowMajor, kBatch),
                     got = values(out[0]);
  for (int64_t z = 0; z < kBatch; ++z)
    for (int64_t i = 0; i < kM; ++i)
      for (int64_t j = 0; j < kN; ++j)
        EXPECT_EQ(got[z * kM * kN + j * kM + i], want[z * kM * kN + i * kN + j])
            << z << "," << i << "," << j;
}

TEST_F(CudaGemmTest, BiasAndActivationEpilogues) {
  // The bias is B's first row (input 1, offset 0): any vector of n works.
  for (auto activation :
       {GemmCall::Activation::kNone, GemmCall::Activation::kRelu,
        GemmCall::Activation::kGeluTanh}) {
    Artifact artifact = gemmArtifact();
    artifact.gemmCalls[0].bias = GemmCall::Matrix{1, 0, 0, 1, 0};
    artifact.gemmCalls[0].activation = activation;
    auto executable = load(std::move(artifact), path(GemmPath::kCublasLt));
    ASSERT_NE(executable, nullptr);
    std::vector<float> got = runOnce(*executable),
                       want = reference(a(), b(), 1);
    for (int64_t i = 0; i < kM; ++i)
      for (int64_t j = 0; j < kN; ++j) {
        double v = want[i * kN + j] + b()[j];
        if (activation == GemmCall::Activation::kRelu)
          v = std::max(v, 0.0);
        if (activation == GemmCall::Activation::kGeluTanh)
          v = 0.5 * v *
              (1 + std::tanh(0.7978845608028654 * (v + 0.044715 * v * v * v)));
        EXPECT_NEAR(got[i * kN + j], v, 1e-5) << i << "," << j;
      }
  }
}

TEST_F(CudaGemmTest, AccumulatingGemmsAddTheOutputsContents) {
  Artifact artifact = gemmArtifact();
  artifact.gemmCalls[0].accumulate = true;
  auto executable = load(std::move(artifact), path(GemmPath::kCublasLt));
  ASSERT_NE(executable, nullptr);
  // Outputs are zeroed at load and copied back after the run: the first
  // run adds to zeros, the second to what the first left in device memory.
  std::vector<float> once = reference(a(), b(), 1);
  EXPECT_EQ(runOnce(*executable), once);
  std::vector<float> twice = runOnce(*executable);
  for (size_t i = 0; i < once.size(); ++i)
    EXPECT_EQ(twice[i], 2 * once[i]);
}

TEST_F(CudaGemmTest, GemmsCuBlasLtCannotExpressKeepTheirKernel) {
  Artifact artifact = gemmArtifact();
  // A with strides (3, 2) over 2x3: neither row- nor column-major.
  artifact.gemmCalls[0].a = {0, 0, 3, 2, 0};
  artifact.program.devices[0].steps[0].args[0].bytes = 64;
  auto executable = load(std::move(artifact), path(GemmPath::kCublasLt));
  ASSERT_NE(executable, nullptr);
  EXPECT_EQ(runOnce(*executable), std::vector<float>(kM * kN, -1));
  ASSERT_EQ(executable->gemmChoices().size(), 1u);
  EXPECT_NE(executable->gemmChoices()[0].find(
                "generated kernel (step #0: f32 GEMM 2x4x3: no cuBLASLt form: "
                "an operand is neither row- nor column-major"),
            std::string::npos)
      << executable->gemmChoices()[0];
}

TEST_F(CudaGemmTest, AutoKeepsTheFasterPathAndRemembersIt) {
  std::string cache = ::testing::TempDir() + "/kiln-gemm-cache.txt";
  std::remove(cache.c_str());
  fake().timedEvents = true;
  fake().kernelMs["gemm_kernel"] = 3.0;
  fake().blasLtMs = 1.0;
  CudaLoadOptions options = path(GemmPath::kAuto);
  options.gemmTimingCache = cache;
  auto first = load(gemmArtifact(), options);
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(first->counters().gemmTimings, 1u);
  EXPECT_EQ(first->counters().blasLtSteps, 1u);
  EXPECT_EQ(first->gemmChoices()[0],
            "step #0: f32 GEMM 2x4x3: cuBLASLt (kernel 3000.0 us, cuBLASLt "
            "1000.0 us)");
  EXPECT_EQ(runOnce(*first), reference(a(), b(), 1));

  // The next load reads the verdict instead of timing again, even though
  // the kernel would now win.
  fake().kernelMs["gemm_kernel"] = 0.5;
  auto second = load(gemmArtifact(), options);
  ASSERT_NE(second, nullptr);
  EXPECT_EQ(second->counters().gemmTimings, 0u);
  EXPECT_EQ(second->counters().blasLtSteps, 1u);
  EXPECT_NE(second->gemmChoices()[0].find("from the timing cache"),
            std::string::npos);

  // Without the cache the kernel wins now.
  std::remove(cache.c_str());
  auto third = load(gemmArtifact(), options);
  ASSERT_NE(third, nullptr);
  EXPECT_EQ(third->counters().blasLtSteps, 0u);
  EXPECT_EQ(runOnce(*third), std::vector<float>(kM * kN, -1));
}

TEST_F(CudaGemmTest, TimingCachesMergeByConcatenation) {
  std::string dir = ::testing::TempDir();
  fake().timedEvents = true;
  CudaLoadOptions options = path(GemmPath::kAuto);
  // One machine found the kernel faster, another cuBLASLt.
  fake().kernelMs["gemm_kernel"] = 0.5;
  options.gemmTimingCache = dir + "/kiln-cache-a.txt";
  std::remove(options.gemmTimingCache.c_str());
  ASSERT_NE(load(gemmArtifact(), options), nullptr);
  fake().kernelMs["gemm_kernel"] = 3.0;
  options.gemmTimingCache = dir + "/kiln-cache-b.txt";
  std::remove(options.gemmTimingCache.c_str());
  ASSERT_NE(load(gemmArtifact(), options), nullptr);
  // cat a b > merged: the later line wins.
  std::string merged = dir + "/kiln-cache-merged.txt";
  {
    std::ofstream out(merged);
    for (const char *part : {"/kiln-cache-a.txt", "/kiln-cache-b.txt"})
      out << std::ifstream(dir + part).rdbuf();
    out << "a line of rubbish\tthat is skipped\n";
  }
  options.gemmTimingCache = merged;
  auto executable = load(gemmArtifact(), options);
  ASSERT_NE(executable, nullptr);
  EXPECT_EQ(executable->counters().gemmTimings, 0u);
  EXPECT_EQ(executable->counters().blasLtSteps, 1u);
}

TEST_F(CudaGemmTest, WithoutCuBlasLtAutoFallsBackAndCublasLtFails) {
  setenv("KILN_CUBLASLT", "/nonexistent/libcublasLt.so", 1);
  auto automatic = load(gemmArtifact(), path(GemmPath::kAuto));
  ASSERT_NE(automatic, nullptr);
  EXPECT_EQ(runOnce(*automatic), std::vector<float>(kM * kN, -1));
  ASSERT_EQ(automatic->warnings().size(), 1u);
  EXPECT_NE(automatic->warnings()[0].find(
                "generated GEMM kernels only: cuBLASLt is not installed"),
            std::string::npos);
  auto asked = CudaExecutable::load(gemmArtifact(), "gemm.kiln",
                                    path(GemmPath::kCublasLt));
  ASSERT_FALSE(asked.isOk());
  EXPECT_EQ(asked.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(asked.status().message().find("gemm.kiln: --gemm cublaslt: "
                                          "cuBLASLt is not installed"),
            std::string::npos)
      << asked.status().message();
}

TEST_F(CudaGemmTest, AHandleThatCannotBeCreated) {
  fake().blasLtCreateStatus = 1; // CUBLAS_STATUS_NOT_INITIALIZED
  auto automatic = load(gemmArtifact(), path(GemmPath::kAuto));
  ASSERT_NE(automatic, nullptr);
  EXPECT_EQ(automatic->counters().blasLtSteps, 0u);
  auto asked = CudaExecutable::load(gemmArtifact(), "gemm.kiln",
                                    path(GemmPath::kCublasLt));
  ASSERT_FALSE(asked.isOk());
  EXPECT_EQ(asked.status().message(),
            "gemm.kiln: cublasLtCreate failed: cuBLAS status 1");
}

TEST(GemmCallArtifactTest, RoundTripsAndRefusesDamage) {
  Artifact artifact = gemmArtifact(2);
  artifact.gemmCalls[0].bias = GemmCall::Matrix{1, 2, 0, 1, 0};
  artifact.gemmCalls[0].activation = GemmCall::Activation::kGeluTanh;
  artifact.gemmCalls[0].accumulate = true;
  std::vector<uint8_t> bytes = encodeArtifact(artifact);
  auto decoded = decodeArtifact(bytes.data(), bytes.size(), "g.kiln");
  ASSERT_TRUE(decoded.isOk()) << decoded.status().toString();
  ASSERT_EQ(decoded->gemmCalls.size(), 1u);
  const GemmCall &call = decoded->gemmCalls[0];
  EXPECT_EQ(
      call.describe(),
      "step #0: f32 GEMM 2x4x3 x2 batches, accumulating, bias, gelu (tanh)");
  EXPECT_EQ(call.d.batchStride, kM * kN);
  EXPECT_EQ(call.bias->offset, 2);

  auto refused = [&](GemmCall bad) {
    Artifact copy = gemmArtifact();
    copy.gemmCalls = {bad};
    std::vector<uint8_t> b = encodeArtifact(copy);
    auto result = decodeArtifact(b.data(), b.size(), "g.kiln");
    EXPECT_FALSE(result.isOk());
    return result.isOk() ? std::string() : result.status().message();
  };
  GemmCall past = gemmArtifact().gemmCalls[0];
  past.d.offset = 1;
  EXPECT_EQ(refused(past), "g.kiln: corrupt GEMM call section: call #0: D "
                           "(argument 2) reaches past the argument's 32 bytes");
  GemmCall reads = gemmArtifact().gemmCalls[0];
  reads.d = {0, 0, 1, 0, 0};
  reads.n = 1;
  reads.b.arg = 1;
  EXPECT_EQ(refused(reads),
            "g.kiln: corrupt GEMM call section: call #0: D "
            "(argument 0) is an argument the launch only reads");
  GemmCall noStep = gemmArtifact().gemmCalls[0];
  noStep.step = 7;
  EXPECT_EQ(refused(noStep), "g.kiln: corrupt GEMM call section: call #0: "
                             "step #7 is not a kernel launch");
  GemmCall activation = gemmArtifact().gemmCalls[0];
  activation.activation = GemmCall::Activation(9);
  EXPECT_EQ(refused(activation),
            "g.kiln: corrupt GEMM call section: call #0: unknown activation 9");
  GemmCall negative = gemmArtifact().gemmCalls[0];
  negative.a.rowStride = -3;
  EXPECT_NE(refused(negative).find("A (argument 0) reaches past"),
            std::string::npos);
}

} // namespace
} // namespace kiln::rt::test
