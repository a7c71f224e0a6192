//===- CudaDriverCompatTest.cpp - Drivers, fallbacks and error classes ----===//
//
// SPDX-License-Identifier: Apache-2.0
//
// What the first run on an unknown GPU machine may meet, on the fake
// driver: an older driver without the newest entry points, one too old to
// use, a CUBIN the driver rejects, a PTX too new for the driver, out of
// memory at load, kernels that need more shared memory than the default or
// more registers than a block allows. Each must either work (with the
// fallback named) or fail with its own error class and the versions or
// limits that explain it.
//
//===----------------------------------------------------------------------===//

#include "CudaRuntimeFixture.h"

using namespace kiln::rt;
using namespace kiln::rt::test;

namespace {

/// A private copy of the fake driver (its own state and cached table).
FakeCudaState &copyOfFake(const std::string &name, std::string &path) {
  std::string dir = ::testing::TempDir() + "kiln-cuda-" + name;
  path = dir + "/libcuda.so.1";
  EXPECT_EQ(std::system(("mkdir -p " + dir + " && cp " +
                         KILN_FAKE_CUDA_DRIVER + " " + path)
                            .c_str()),
            0);
  FakeCudaState &state = fakeAt(path.c_str());
  state.reset();
  return state;
}

TEST(CudaDriverCompatTest, OlderDriverUsesTheOlderEntryPoint) {
  FakeCudaState &old = fakeAt(KILN_FAKE_CUDA_12_4_DRIVER);
  old.reset();
  registerKernels(old);
  setenv("KILN_CUDA_DRIVER", KILN_FAKE_CUDA_12_4_DRIVER, 1);
  auto executable = CudaExecutable::load(cudaSampleArtifact(), "m.kiln");
  unsetenv("KILN_CUDA_DRIVER");
  ASSERT_TRUE(executable.isOk()) << executable.status().toString();
  const CudaDeviceInfo &info = (*executable)->deviceInfo();
  EXPECT_EQ(info.driverVersion, 12040);
  EXPECT_EQ(info.driverFallbacks,
            (std::vector<std::string>{
                "cuEventElapsedTime_v2 (CUDA 12.8): using cuEventElapsedTime"}));
  // Events time with the entry point this driver has.
  auto ms = (*executable)->timeLaunches(2, true);
  ASSERT_TRUE(ms.isOk()) << ms.status().toString();
  EXPECT_EQ(*ms, 0.5);
  EXPECT_EQ(old.elapsedTimeCalls, 1);
  EXPECT_EQ(old.elapsedTimeV2Calls, 0);
}

TEST(CudaDriverCompatTest, NewDriverUsesTheNewEntryPoint) {
  setenv("KILN_CUDA_DRIVER", KILN_FAKE_CUDA_DRIVER, 1);
  fake().reset();
  registerKernels();
  auto executable = CudaExecutable::load(cudaSampleArtifact(), "m.kiln");
  unsetenv("KILN_CUDA_DRIVER");
  ASSERT_TRUE(executable.isOk()) << executable.status().toString();
  EXPECT_TRUE((*executable)->deviceInfo().driverFallbacks.empty());
  ASSERT_TRUE((*executable)->timeLaunches(1, false).isOk());
  EXPECT_EQ(fake().elapsedTimeV2Calls, 1);
  EXPECT_EQ(fake().elapsedTimeCalls, 0);
}

TEST(CudaDriverCompatTest, DriverOlderThanCuda12IsRefusedWithBothVersions) {
  std::string path;
  FakeCudaState &state = copyOfFake("11-8", path);
  state.driverVersion = 11080;
  setenv("KILN_CUDA_DRIVER", path.c_str(), 1);
  auto executable = CudaExecutable::load(cudaSampleArtifact(), "m.kiln");
  unsetenv("KILN_CUDA_DRIVER");
  ASSERT_FALSE(executable.isOk());
  EXPECT_EQ(executable.status().code(), StatusCode::kUnimplemented);
  EXPECT_EQ(executable.status().message(),
            "m.kiln: the CUDA driver " + path +
                " supports CUDA 11.8; Kiln needs a driver for CUDA 12.0 or "
                "newer (r525+); update the NVIDIA driver");
}

TEST(CudaDriverCompatTest, DescribesTheDevice) {
  setenv("KILN_CUDA_DRIVER", KILN_FAKE_CUDA_DRIVER, 1);
  fake().reset();
  auto info = describeCudaDevice(0);
  unsetenv("KILN_CUDA_DRIVER");
  ASSERT_TRUE(info.isOk()) << info.status().toString();
  EXPECT_EQ(info->name, "Fake GPU");
  EXPECT_EQ(info->sm, 90);
  EXPECT_EQ(info->driverVersion, 13000);
  EXPECT_EQ(info->multiprocessors, 132);
  EXPECT_EQ(info->clockKHz, 1980000);
  EXPECT_EQ(info->maxSharedBytesPerBlock, 227 * 1024);
  EXPECT_EQ(info->totalMemoryBytes, 80ull << 30);
}

TEST_F(CudaRuntimeTest, ACubinThatFailsToLoadFallsBackToPtx) {
  // The first load is the sm_90 CUBIN (both kernels): the driver rejects
  // it, so each kernel takes its newest PTX, and the reason is kept.
  fake().failCall = "cuModuleLoadDataEx";
  fake().failResult = 200; // CUDA_ERROR_INVALID_IMAGE
  auto executable = load();
  ASSERT_TRUE(executable);
  const std::string why = ", after the sm_90 CUBIN failed: loading the sm_90 "
                          "CUBIN module: cuModuleLoadDataEx failed: "
                          "CUDA_ERROR_INVALID_IMAGE";
  EXPECT_EQ(executable->moduleChoices(),
            (std::vector<std::string>{"scale: compute_80 PTX (JIT)" + why,
                                      "add_one: compute_90 PTX (JIT)" + why}));
  EXPECT_EQ(executable->counters().cubinFallbacks, 2u);
  ASSERT_EQ(executable->warnings().size(), 2u);
  EXPECT_EQ(executable->warnings()[0],
            "sample.kiln: kernel 'scale' runs the compute_80 PTX (JIT)" + why);
  // It computes as before.
  std::vector<HostTensor> outputs;
  ASSERT_TRUE(executable->run({tensor({1, 2, 3, 4})}, outputs).isOk());
  EXPECT_EQ(values(outputs[0]), (std::vector<float>{3, 7, 13, 21}));
}

TEST_F(CudaRuntimeTest, WhenEveryModuleFailsEachReasonIsNamed) {
  fake().major = 8; // compute_80 PTX only
  fake().failCall = "cuModuleLoadDataEx";
  fake().failResult = 222; // CUDA_ERROR_UNSUPPORTED_PTX_VERSION
  auto executable = CudaExecutable::load(cudaSampleArtifact(), "old.kiln");
  ASSERT_FALSE(executable.isOk());
  // The driver is too old for the PTX: unsupported, not "no GPU".
  EXPECT_EQ(executable.status().code(), StatusCode::kUnimplemented);
  EXPECT_EQ(executable.status().message(),
            "old.kiln: loading the compute_80 PTX (JIT) module: "
            "cuModuleLoadDataEx failed: CUDA_ERROR_UNSUPPORTED_PTX_VERSION: "
            "the PTX is newer than this driver (CUDA 13.0) can JIT-compile; "
            "update the driver, or compile a CUBIN for this GPU (--target "
            "cuda:sm_XX)");
}

TEST_F(CudaRuntimeTest, OutOfMemoryAtLoadIsResourceExhausted) {
  fake().failCall = "cuMemAlloc_v2";
  fake().failResult = 2; // CUDA_ERROR_OUT_OF_MEMORY
  auto executable = CudaExecutable::load(cudaSampleArtifact(), "big.kiln");
  ASSERT_FALSE(executable.isOk());
  EXPECT_EQ(executable.status().code(), StatusCode::kResourceExhausted);
  EXPECT_EQ(executable.status().message(),
            "big.kiln: allocating 2048 bytes of device memory: cuMemAlloc "
            "failed: CUDA_ERROR_OUT_OF_MEMORY (out of device memory)");
  EXPECT_EQ(fake().liveModules, 0);
  EXPECT_EQ(fake().liveStreams, 0);
}

TEST_F(CudaRuntimeTest, SharedMemoryAbove48KiBIsOptedInAtLoad) {
  Artifact artifact = cudaSampleArtifact();
  artifact.program.devices[0].steps[0].sharedBytes = 100 * 1024;
  auto executable = load(std::move(artifact));
  ASSERT_TRUE(executable);
  EXPECT_EQ(fake().sharedOptIns,
            (std::map<std::string, int>{{"scale", 100 * 1024}}));
  // The fake, like a GPU, refuses a launch above 48 KiB without it.
  std::vector<HostTensor> outputs;
  Status status = executable->run({tensor({1, 2, 3, 4})}, outputs);
  ASSERT_TRUE(status.isOk()) << status.toString();
  EXPECT_EQ(values(outputs[0]), (std::vector<float>{3, 7, 13, 21}));
}

TEST_F(CudaRuntimeTest, SharedMemoryBeyondTheGpuIsRefusedAtLoad) {
  Artifact artifact = cudaSampleArtifact();
  artifact.program.devices[0].steps[0].sharedBytes = 200 * 1024;
  fake().kernelStaticShared = 40 * 1024;
  auto executable = CudaExecutable::load(std::move(artifact), "m.kiln");
  ASSERT_FALSE(executable.isOk());
  EXPECT_EQ(executable.status().code(), StatusCode::kResourceExhausted);
  EXPECT_EQ(executable.status().message(),
            "m.kiln: kernel 'scale' needs 245760 bytes of shared memory per "
            "block; this GPU (sm_90) allows 232448");
}

TEST_F(CudaRuntimeTest, BlocksLargerThanTheRegistersAllowAreRefusedAtLoad) {
  fake().kernelMaxThreads = 64; // 128 threads at this register count: no.
  fake().kernelRegisters = 255;
  auto executable = CudaExecutable::load(cudaSampleArtifact(), "m.kiln");
  ASSERT_FALSE(executable.isOk());
  EXPECT_EQ(executable.status().code(), StatusCode::kResourceExhausted);
  EXPECT_EQ(executable.status().message(),
            "m.kiln: kernel 'scale' is launched with 128 threads per block, "
            "but with its 255 registers per thread this GPU runs at most 64");
}

TEST_F(CudaRuntimeTest, AFailedCaptureOnADeadDeviceStillFails) {
  // A sticky error is not worked around: the device is gone.
  auto executable = load();
  ASSERT_TRUE(executable);
  std::vector<HostTensor> outputs;
  ASSERT_TRUE(executable->run({tensor({1, 2, 3, 4})}, outputs).isOk());
  fake().failCall = "cuStreamBeginCapture_v2";
  fake().failResult = 700; // CUDA_ERROR_ILLEGAL_ADDRESS
  fake().failSticky = true;
  Status status = executable->run({tensor({1, 2, 3, 4})}, outputs);
  EXPECT_FALSE(status.isOk());
  EXPECT_EQ(executable->counters().graphCaptureFailures, 0u);
}

} // namespace
