//===- CudaRuntimeTest.cpp - The CUDA executable against a fake driver ----===//
//
// SPDX-License-Identifier: Apache-2.0
//
// No GPU needed: KILN_CUDA_DRIVER points the runtime at libkiln_fake_cuda.so
// (FakeCudaDriver.cpp), which runs registered host kernels on host memory
// and records what the runtime asked for. These tests check the runtime's
// bookkeeping: module choice, the device allocation and launch arguments,
// copies, graph capture and replay, errors and sticky-error poisoning.
//
//===----------------------------------------------------------------------===//

#include "CudaRuntimeFixture.h"

#include "kiln/runtime/CudaExecutable.h"
#include "kiln/runtime/CudaModuleChoice.h"
#include "kiln/runtime/NumericsCheck.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>

using namespace kiln::rt;
using namespace kiln::rt::test;

namespace {

TEST(CudaDriverTest, RefusesStepsOtherThanLaunches) {
  // Valid format 2 (the decoder accepts a fill on a CUDA device), but this
  // runtime only launches kernels and runs collectives: unimplemented before
  // any driver call.
  Artifact artifact = cudaSampleArtifact();
  Step fill;
  fill.kind = Step::Kind::kFill;
  fill.pattern = 0;
  fill.patternBytes = 4;
  fill.args = {{KernelArg::Base::kArena, 0, 0, 16, KernelArg::Access::kWrite}};
  artifact.program.devices[0].steps.push_back(fill);
  std::vector<uint8_t> bytes = encodeArtifact(artifact);
  StatusOr<Artifact> decoded =
      decodeArtifact(bytes.data(), bytes.size(), "fill.kiln");
  ASSERT_TRUE(decoded.isOk()) << decoded.status().toString();
  auto executable = CudaExecutable::load(std::move(*decoded), "fill.kiln");
  ASSERT_FALSE(executable.isOk());
  EXPECT_EQ(executable.status().code(), StatusCode::kUnimplemented);
  EXPECT_NE(
      executable.status().message().find(
          "fill.kiln: step #2 is neither a kernel launch nor a collective"),
      std::string::npos)
      << executable.status().message();
}

TEST(CudaDriverTest, NoDriverIsUnavailableWithAClearMessage) {
  setenv("KILN_CUDA_DRIVER", "/nonexistent/libcuda.so.1", 1);
  auto executable = CudaExecutable::load(cudaSampleArtifact(), "m.kiln");
  ASSERT_FALSE(executable.isOk());
  EXPECT_EQ(executable.status().code(), StatusCode::kUnavailable);
  const std::string &message = executable.status().message();
  EXPECT_NE(message.find("m.kiln: no CUDA driver: cannot load "
                         "/nonexistent/libcuda.so.1"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("run this artifact on a machine with an NVIDIA GPU "
                         "or compile with --target cpu"),
            std::string::npos)
      << message;
  // The generic loader dispatches CUDA programs to the CUDA executable.
  auto generic = loadExecutable(cudaSampleArtifact(), "m.kiln");
  EXPECT_EQ(generic.status().code(), StatusCode::kUnavailable);
  unsetenv("KILN_CUDA_DRIVER");
}

TEST(CudaDriverTest, DriverWithoutGpuIsUnavailable) {
  // A second copy of the fake is a second driver (loaded drivers are kept
  // per path), whose cuInit can fail like a driver on a GPU-less machine.
  std::string dir = ::testing::TempDir() + "kiln-cuda-no-gpu";
  std::string copy = dir + "/libcuda.so.1";
  ASSERT_EQ(std::system(("mkdir -p " + dir + " && cp " + KILN_FAKE_CUDA_DRIVER +
                         " " + copy)
                            .c_str()),
            0);
  void *library = dlopen(copy.c_str(), RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(library, nullptr) << dlerror();
  auto state = reinterpret_cast<FakeCudaState *(*)()>(
      dlsym(library, "kilnFakeCudaState"))();
  state->failCall = "cuInit";
  state->failResult = 100;
  setenv("KILN_CUDA_DRIVER", copy.c_str(), 1);
  auto executable = CudaExecutable::load(cudaSampleArtifact(), "m.kiln");
  unsetenv("KILN_CUDA_DRIVER");
  ASSERT_FALSE(executable.isOk());
  EXPECT_EQ(executable.status().code(), StatusCode::kUnavailable);
  EXPECT_EQ(executable.status().message(),
            "m.kiln: no usable CUDA device: cuInit failed: "
            "CUDA_ERROR_NO_DEVICE; run this artifact on a machine with an "
            "NVIDIA GPU or compile with --target cpu");
}

TEST(CudaModuleChoiceTest, PrefersExactCubinThenNewestUsablePtx) {
  std::vector<CudaModule> modules = cudaSampleArtifact().cudaModules;
  std::vector<std::string> kernels = {"scale", "add_one"};
  // sm_90: the CUBIN has both.
  EXPECT_EQ(*chooseCudaModules(modules, kernels, 90),
            (std::vector<size_t>{1, 1}));
  // sm_86: no CUBIN; compute_90 is too new, compute_80 serves both.
  EXPECT_EQ(*chooseCudaModules(modules, kernels, 86),
            (std::vector<size_t>{0, 0}));
  // sm_100: sm_90 CUBIN does not run there; the newest PTX per kernel.
  EXPECT_EQ(*chooseCudaModules(modules, kernels, 100),
            (std::vector<size_t>{0, 2}));
  // sm_75: nothing fits.
  auto none = chooseCudaModules(modules, kernels, 75);
  ASSERT_FALSE(none.isOk());
  EXPECT_EQ(none.status().code(), StatusCode::kUnimplemented);
  EXPECT_EQ(none.status().message(),
            "kernel 'scale' has no code for this GPU (sm_75): the artifact has "
            "compute_80 PTX (JIT), sm_90 CUBIN; recompile with --target "
            "cuda:sm_75");
}

TEST_F(CudaRuntimeTest, LoadsTheCubinForThisGpu) {
  auto executable = load();
  ASSERT_TRUE(executable);
  EXPECT_EQ(executable->sm(), 90);
  EXPECT_EQ(executable->description(), "cuda:0 sm_90");
  EXPECT_EQ(
      executable->moduleChoices(),
      (std::vector<std::string>{"scale: sm_90 CUBIN", "add_one: sm_90 CUBIN"}));
  // One module load for both kernels.
  EXPECT_EQ(fake().loadedImages,
            (std::vector<std::string>{"CUBIN sm_90 scale add_one"}));
}

TEST_F(CudaRuntimeTest, JitsPtxWhenNoCubinMatches) {
  fake().major = 10;
  fake().minor = 0;
  auto executable = load();
  ASSERT_TRUE(executable);
  EXPECT_EQ(executable->moduleChoices(),
            (std::vector<std::string>{"scale: compute_80 PTX (JIT)",
                                      "add_one: compute_90 PTX (JIT)"}));
  ASSERT_EQ(fake().loadedImages.size(), 2u);
  EXPECT_EQ(fake().loadedImages[1], ".target sm_90 .entry add_one");
  executable.reset(); // The device (and its capability) is read once.
  fake().major = 7;
  fake().minor = 5;
  auto tooOld = CudaExecutable::load(cudaSampleArtifact(), "old.kiln");
  EXPECT_EQ(tooOld.status().code(), StatusCode::kUnimplemented);
  EXPECT_NE(tooOld.status().message().find("old.kiln: kernel 'scale' has no "
                                           "code for this GPU (sm_75)"),
            std::string::npos)
      << tooOld.status().message();
}

TEST_F(CudaRuntimeTest, RunsWithOneAllocationAndPlacedArguments) {
  auto executable = load();
  ASSERT_TRUE(executable);
  // constants 512, input 16 -> 256, output 16 -> 256, arena 1024.
  EXPECT_EQ(fake().allocatedBytes, 2048u);
  EXPECT_EQ(fake().liveAllocations, 1);
  std::vector<HostTensor> outputs;
  Status status = executable->run({tensor({1, 2, 3, 4})}, outputs);
  ASSERT_TRUE(status.isOk()) << status.toString();
  ASSERT_EQ(outputs.size(), 1u);
  EXPECT_EQ(values(outputs[0]), (std::vector<float>{3, 7, 13, 21}));

  ASSERT_EQ(fake().launches.size(), 2u);
  const FakeLaunch &scale = fake().launches[0];
  const FakeLaunch &addOne = fake().launches[1];
  EXPECT_EQ(scale.kernel, "scale");
  EXPECT_EQ(scale.grid[0], 2u);
  EXPECT_EQ(scale.block[0], 128u);
  EXPECT_EQ(scale.sharedBytes, 64u);
  EXPECT_EQ(addOne.block[1], 4u);
  // Layout: constants at 0, the input at 512, the output at 768, the arena
  // at 1024; each argument is its base plus its offset.
  uint64_t base = scale.args[1] - 256;
  EXPECT_EQ(base % 256, 0u);
  EXPECT_EQ(scale.args[0], base + 512);
  EXPECT_EQ(scale.args[2], base + 1024 + 512);
  EXPECT_EQ(addOne.args[0], scale.args[2]);
  EXPECT_EQ(addOne.args[1], base + 768);

  // New inputs reach the device on every run.
  status = executable->run({tensor({0, 1, 0, -1})}, outputs);
  ASSERT_TRUE(status.isOk()) << status.toString();
  EXPECT_EQ(values(outputs[0]), (std::vector<float>{1, 4, 1, -4}));
}

TEST_F(CudaRuntimeTest, CapturesOnTheSecondRunAndReplaysAfterwards) {
  auto executable = load();
  ASSERT_TRUE(executable);
  std::vector<HostTensor> outputs;
  for (float run = 0; run < 4; ++run) {
    Status status = executable->run({tensor({run, 1, 2, 3})}, outputs);
    ASSERT_TRUE(status.isOk()) << status.toString();
    EXPECT_EQ(values(outputs[0]), (std::vector<float>{2 * run + 1, 4, 9, 16}));
  }
  EXPECT_EQ(executable->counters().runs, 4u);
  EXPECT_EQ(executable->counters().directRuns, 1u);
  EXPECT_EQ(executable->counters().graphCaptures, 1u);
  EXPECT_EQ(executable->counters().graphLaunches, 2u);
  EXPECT_EQ(fake().captures, 1);
  EXPECT_EQ(fake().instantiations, 1);
  EXPECT_EQ(fake().graphLaunches, 3);
  // Captured launches do not execute; the graph replays both per run.
  ASSERT_EQ(fake().launches.size(), 8u);
  EXPECT_FALSE(fake().launches[1].fromGraph);
  for (size_t i = 2; i < 8; ++i)
    EXPECT_TRUE(fake().launches[i].fromGraph) << i;
  EXPECT_EQ(fake().launches[6].args, fake().launches[0].args);
  EXPECT_EQ(fake().liveGraphs, 0); // Destroyed after instantiation.
}

TEST_F(CudaRuntimeTest, GraphsCanBeTurnedOff) {
  CudaLoadOptions options;
  options.graphs = false;
  auto byOption = load(cudaSampleArtifact(), options);
  setenv("KILN_CUDA_GRAPHS", "0", 1);
  auto byEnvironment = load();
  ASSERT_TRUE(byOption && byEnvironment);
  std::vector<HostTensor> outputs;
  for (int run = 0; run < 3; ++run) {
    ASSERT_TRUE(byOption->run({tensor({1, 1, 1, 1})}, outputs).isOk());
    ASSERT_TRUE(byEnvironment->run({tensor({1, 1, 1, 1})}, outputs).isOk());
  }
  EXPECT_EQ(byOption->counters().directRuns, 3u);
  EXPECT_EQ(byEnvironment->counters().directRuns, 3u);
  EXPECT_EQ(fake().captures, 0);
}

TEST_F(CudaRuntimeTest, ReleasesEverything) {
  {
    auto executable = load();
    ASSERT_TRUE(executable);
    std::vector<HostTensor> outputs;
    for (int run = 0; run < 3; ++run)
      ASSERT_TRUE(executable->run({tensor({1, 2, 3, 4})}, outputs).isOk());
  }
  EXPECT_EQ(fake().liveAllocations, 0);
  EXPECT_EQ(fake().liveModules, 0);
  EXPECT_EQ(fake().liveStreams, 0);
  EXPECT_EQ(fake().primaryRetains, 1);
  EXPECT_EQ(fake().primaryReleases, 1);
}

TEST_F(CudaRuntimeTest, SharesTheDeviceBetweenExecutables) {
  auto first = load();
  auto second = load();
  ASSERT_TRUE(first && second);
  EXPECT_EQ(fake().primaryRetains, 1);
}

TEST_F(CudaRuntimeTest, StickyErrorPoisonsTheDevice) {
  auto executable = load();
  ASSERT_TRUE(executable);
  std::vector<HostTensor> outputs;
  ASSERT_TRUE(executable->run({tensor({1, 2, 3, 4})}, outputs).isOk());
  // A kernel faults; CUDA reports it at the next synchronisation.
  fake().failCall = "cuStreamSynchronize";
  fake().failResult = 700;
  fake().failSticky = true;
  Status first = executable->run({tensor({1, 2, 3, 4})}, outputs);
  ASSERT_FALSE(first.isOk());
  EXPECT_EQ(first.code(), StatusCode::kInternal);
  EXPECT_NE(first.message().find(
                "CUDA device 0 is unusable after a sticky error: "
                "cuStreamSynchronize failed: CUDA_ERROR_ILLEGAL_ADDRESS (an "
                "illegal memory access was encountered)"),
            std::string::npos)
      << first.message();
  // Even if the driver answered otherwise now, the device stays poisoned:
  // every later call reports that first error and launches nothing.
  fake().stickyResult = 0;
  size_t launches = fake().launches.size();
  Status later = executable->run({tensor({1, 2, 3, 4})}, outputs);
  EXPECT_EQ(later.message(), first.message());
  EXPECT_EQ(fake().launches.size(), launches);
  // Other executables on the device share its fate.
  auto other = CudaExecutable::load(cudaSampleArtifact(), "other.kiln");
  ASSERT_FALSE(other.isOk());
  EXPECT_NE(other.status().message().find("other.kiln: CUDA device 0 is "
                                          "unusable after a sticky error"),
            std::string::npos)
      << other.status().message();
  // Released, the context is fresh again (as the driver's primary context).
  executable.reset();
  EXPECT_TRUE(load());
}

TEST_F(CudaRuntimeTest, NonStickyErrorsDoNotPoison) {
  fake().failCall = "cuMemAlloc_v2";
  fake().failResult = 2;
  auto executable = CudaExecutable::load(cudaSampleArtifact(), "big.kiln");
  ASSERT_FALSE(executable.isOk());
  EXPECT_EQ(executable.status().code(), StatusCode::kResourceExhausted);
  EXPECT_NE(executable.status().message().find(
                "big.kiln: allocating 2048 bytes of device memory: cuMemAlloc "
                "failed: CUDA_ERROR_OUT_OF_MEMORY"),
            std::string::npos)
      << executable.status().message();
  EXPECT_TRUE(load());
}

TEST_F(CudaRuntimeTest, ReportsTheJitLog) {
  fake().major = 8;
  fake().failCall = "cuModuleLoadDataEx";
  fake().failResult = 218;
  fake().jitLog = "ptxas application ptx input, line 1; error: bad";
  auto executable = CudaExecutable::load(cudaSampleArtifact(), "ptx.kiln");
  ASSERT_FALSE(executable.isOk());
  EXPECT_EQ(executable.status().code(), StatusCode::kDataLoss);
  EXPECT_EQ(executable.status().message(),
            "ptx.kiln: loading the compute_80 PTX (JIT) module: "
            "cuModuleLoadDataEx failed: CUDA_ERROR_INVALID_PTX (a PTX JIT "
            "compilation failed)\nptxas application ptx input, line 1; error: "
            "bad");
}

TEST_F(CudaRuntimeTest, NamesUnknownErrorsByNumber) {
  auto executable = load();
  ASSERT_TRUE(executable);
  fake().failCall = "cuLaunchKernel";
  fake().failResult = 12345;
  std::vector<HostTensor> outputs;
  Status status = executable->run({tensor({1, 2, 3, 4})}, outputs);
  EXPECT_EQ(status.message(), "cuLaunchKernel failed: CUDA error 12345");
  // Not sticky: the next run works.
  EXPECT_TRUE(executable->run({tensor({1, 2, 3, 4})}, outputs).isOk());
}

TEST_F(CudaRuntimeTest, AFailedCaptureFallsBackToDirectLaunches) {
  auto executable = load();
  ASSERT_TRUE(executable);
  std::vector<HostTensor> outputs;
  ASSERT_TRUE(executable->run({tensor({1, 2, 3, 4})}, outputs).isOk());
  fake().failCall = "cuGraphInstantiateWithFlags";
  fake().failResult = 999;
  // The run that tried to capture still runs, kernel by kernel.
  Status status = executable->run({tensor({1, 2, 3, 4})}, outputs);
  ASSERT_TRUE(status.isOk()) << status.toString();
  EXPECT_EQ(values(outputs[0]), (std::vector<float>{3, 7, 13, 21}));
  EXPECT_EQ(fake().liveGraphs, 0);
  ASSERT_TRUE(executable->run({tensor({1, 2, 3, 4})}, outputs).isOk());
  EXPECT_EQ(values(outputs[0]), (std::vector<float>{3, 7, 13, 21}));
  EXPECT_EQ(executable->counters().directRuns, 3u);
  EXPECT_EQ(executable->counters().graphCaptureFailures, 1u);
  EXPECT_EQ(fake().captures, 1); // Not tried again.
  ASSERT_EQ(executable->warnings().size(), 1u);
  EXPECT_EQ(executable->warnings()[0],
            "sample.kiln: CUDA Graph capture failed, launching kernel by "
            "kernel from now on: cuGraphInstantiateWithFlags failed: CUDA "
            "error 999");
}

TEST_F(CudaRuntimeTest, NoDeviceIsUnavailable) {
  fake().deviceCount = 0;
  auto executable = CudaExecutable::load(cudaSampleArtifact(), "m.kiln");
  EXPECT_EQ(executable.status().code(), StatusCode::kUnavailable);
  EXPECT_EQ(executable.status().message(),
            "m.kiln: no CUDA device 0 (0 present)");
}

TEST_F(CudaRuntimeTest, ChecksBindingsLikeTheCpuRuntime) {
  auto executable = load();
  ASSERT_TRUE(executable);
  std::vector<HostTensor> outputs;
  Status status = executable->run({tensor({1, 2, 3})}, outputs);
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(), "input 'x' must have shape [4], got [3]");
  EXPECT_TRUE(fake().launches.empty());
}

TEST_F(CudaRuntimeTest, RefusesCpuPrograms) {
  Artifact artifact = cudaSampleArtifact();
  artifact.program.devices[0].kind = DeviceProgram::Kind::kCpu;
  auto executable = CudaExecutable::load(std::move(artifact), "cpu.kiln");
  EXPECT_EQ(executable.status().code(), StatusCode::kUnimplemented);
}

} // namespace

namespace {
/// What hooks saw of each step: the device time and the bytes the step
/// wrote, read through the run's buffers.
struct StepRecorder : StepHooks {
  std::vector<uint32_t> before;
  std::vector<int64_t> deviceNanoseconds;
  std::vector<std::vector<float>> written;
  void beforeStep(const StepEvent &event) override {
    before.push_back(event.index);
    EXPECT_EQ(event.deviceNanoseconds, -1);
  }
  void afterStep(const StepEvent &event) override {
    deviceNanoseconds.push_back(event.deviceNanoseconds);
    const KernelArg &out = event.step->args.back();
    std::vector<float> values(out.bytes / 4);
    std::memcpy(values.data(), event.buffers->address(out), out.bytes);
    written.push_back(values);
  }
};
} // namespace

TEST_F(CudaRuntimeTest, HooksSeeEachStepWithItsDeviceTimeAndResults) {
  auto executable = load();
  ASSERT_TRUE(executable);
  StepRecorder recorder;
  RunOptions options;
  options.hooks = &recorder;
  std::vector<HostTensor> outputs;
  // Hooked runs never capture a graph: every one goes step by step.
  for (int run = 0; run < 3; ++run) {
    recorder = StepRecorder();
    Status status =
        executable->run({tensor({1, 2, 3, 4})}, outputs, options);
    ASSERT_TRUE(status.isOk()) << status.toString();
    EXPECT_EQ(recorder.before, (std::vector<uint32_t>{0, 1}));
    // The fake's events say 1 ms.
    EXPECT_EQ(recorder.deviceNanoseconds,
              (std::vector<int64_t>{1000000, 1000000}));
    ASSERT_EQ(recorder.written.size(), 2u);
    EXPECT_EQ(recorder.written[0], (std::vector<float>{2, 6, 12, 20}));
    EXPECT_EQ(recorder.written[1], (std::vector<float>{3, 7, 13, 21}));
    EXPECT_EQ(values(outputs[0]), (std::vector<float>{3, 7, 13, 21}));
  }
  EXPECT_EQ(executable->counters().hookedRuns, 3u);
  EXPECT_EQ(fake().captures, 0);
  // Without hooks the next run is the graph's capture as usual.
  ASSERT_TRUE(executable->run({tensor({1, 2, 3, 4})}, outputs).isOk());
  EXPECT_EQ(executable->counters().graphCaptures, 1u);
}

TEST_F(CudaRuntimeTest, NumericsCheckNamesTheStepThatMadeANaN) {
  Artifact artifact = cudaSampleArtifact();
  for (Step &step : artifact.program.devices[0].steps)
    step.results = {{step.args.back(), DType::kF32}};
  artifact.program.devices[0].steps[0].source = "fusion#0: Log_3";
  auto executable = load(std::move(artifact));
  ASSERT_TRUE(executable);
  fake().kernels["scale"].body = [](const std::vector<uint64_t> &args) {
    for (int i = 0; i < 4; ++i)
      floats(args[2])[i] = i == 2 ? std::nanf("") : 1.0f;
  };
  NumericsCheck check;
  RunOptions options;
  options.hooks = &check;
  std::vector<HostTensor> outputs;
  Status status = executable->run({tensor({1, 2, 3, 4})}, outputs, options);
  ASSERT_TRUE(status.isOk()) << status.toString();
  std::optional<NumericsFinding> finding = check.first();
  ASSERT_TRUE(finding);
  EXPECT_EQ(finding->step, 0u);
  EXPECT_EQ(finding->kernel, "launch scale");
  EXPECT_EQ(finding->element, 2u);
  EXPECT_TRUE(finding->nan);
  EXPECT_EQ(finding->source, "fusion#0: Log_3");
  EXPECT_EQ(check.checkedSteps(), 2u);
}

TEST_F(CudaRuntimeTest, AFaultInAHookedRunNamesItsStep) {
  auto executable = load();
  ASSERT_TRUE(executable);
  StepRecorder recorder;
  RunOptions options;
  options.hooks = &recorder;
  fake().failCall = "cuEventSynchronize";
  fake().failSkip = 1; // The second step's wait.
  fake().failResult = 700; // CUDA_ERROR_ILLEGAL_ADDRESS
  std::vector<HostTensor> outputs;
  Status status = executable->run({tensor({1, 2, 3, 4})}, outputs, options);
  ASSERT_FALSE(status.isOk());
  EXPECT_NE(status.message().find("step #1 (add_one)"), std::string::npos)
      << status.toString();
}

TEST_F(CudaRuntimeTest, ACollectivesHookIsUnusedWithoutCollectiveSteps) {
  auto executable = load();
  ASSERT_TRUE(executable);
  struct CountingCollectives : CollectivesHook {
    int calls = 0;
    Status run(const StepEvent &) override {
      ++calls;
      return Status::ok();
    }
  } collectives;
  RunOptions options;
  options.collectives = &collectives;
  std::vector<HostTensor> outputs;
  Status status = executable->run({tensor({1, 2, 3, 4})}, outputs, options);
  ASSERT_TRUE(status.isOk()) << status.toString();
  EXPECT_EQ(values(outputs[0]), (std::vector<float>{3, 7, 13, 21}));
  EXPECT_EQ(collectives.calls, 0);
}
