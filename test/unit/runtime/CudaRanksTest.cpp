//===- CudaRanksTest.cpp - Sharded CUDA programs on the fake driver -------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// CUDA ranks of a sharded model: collective steps between kernel launches,
// run by MultiRankExecutable with NCCL between GPUs. The fake driver runs
// the sample's kernels on host memory and its fake NCCL exchanges that
// memory, so the numbers are checked end to end without a GPU.
//
//===----------------------------------------------------------------------===//

#include "CudaRuntimeFixture.h"
#include "FakeNccl.h"

#include "kiln/runtime/InProcessGroup.h"
#include "kiln/runtime/MultiRankExecutable.h"
#include "kiln/runtime/NcclCommunicator.h"

#include <chrono>
#include <thread>

namespace kiln::rt::test {
namespace {

FakeNcclState &fakeNccl() {
  void *library = dlopen(KILN_FAKE_CUDA_DRIVER, RTLD_NOW | RTLD_LOCAL);
  EXPECT_NE(library, nullptr) << dlerror();
  auto get = reinterpret_cast<FakeNcclState *(*)()>(
      dlsym(library, "kilnFakeNcclState"));
  return *get();
}

/// The sample (y = x * c + 1) with an all-reduce of x * c over `ranks`
/// ranks between its two launches: y = ranks * x * c + 1 when every rank
/// takes the same x.
Artifact rankArtifact(uint32_t ranks) {
  Artifact artifact = cudaSampleArtifact();
  std::vector<Step> &steps = artifact.program.devices[0].steps;
  Step reduce;
  reduce.kind = Step::Kind::kCollective;
  reduce.collective = Step::CollectiveKind::kAllReduce;
  reduce.reduction = 1; // sum
  reduce.ranks = ranks;
  reduce.element = DType::kF32;
  reduce.args = {
      {KernelArg::Base::kArena, 0, 512, 16, KernelArg::Access::kRead},
      {KernelArg::Base::kArena, 0, 0, 16, KernelArg::Access::kWrite}};
  reduce.after = {0};
  // add_one reads the reduced sum.
  steps[1].args[0].offset = 0;
  steps[1].after = {1};
  steps.insert(steps.begin() + 1, reduce);
  return artifact;
}

RankedArtifact ranked(uint32_t ranks, uint32_t replicas = 1) {
  RankedArtifact artifact;
  artifact.strategy = "tensor";
  artifact.replicas = replicas;
  for (uint32_t r = 0; r < ranks; ++r)
    artifact.ranks.push_back(rankArtifact(ranks));
  return artifact;
}

/// Stage 0 of a CUDA pipeline: `rankArtifact(ranks)` (or the sample alone
/// for one rank) sending its result on.
Artifact firstStage(uint32_t ranks) {
  Artifact stage = ranks > 1 ? rankArtifact(ranks) : cudaSampleArtifact();
  stage.program.outputs[0].name = "pipeline.c0.0";
  return stage;
}

/// Stage 1: takes the model's x and stage 0's value s, returns s + 1, or
/// with `ranks` > 1 the all-reduce of s + 1 over them, plus 1.
Artifact secondStage(uint32_t ranks) {
  Artifact stage = cudaSampleArtifact();
  stage.program.inputs.push_back({"pipeline.c0.0", DType::kF32, {4}});
  Step plusOne;
  plusOne.kind = Step::Kind::kLaunchKernel;
  plusOne.kernel = "add_one";
  plusOne.args = {
      {KernelArg::Base::kInput, 1, 0, 16, KernelArg::Access::kRead},
      {KernelArg::Base::kOutput, 0, 0, 16, KernelArg::Access::kWrite}};
  std::vector<Step> steps = {plusOne};
  if (ranks > 1) {
    steps[0].args[1] = {KernelArg::Base::kArena, 0, 512, 16,
                        KernelArg::Access::kWrite};
    Step reduce;
    reduce.kind = Step::Kind::kCollective;
    reduce.collective = Step::CollectiveKind::kAllReduce;
    reduce.reduction = 1;
    reduce.ranks = ranks;
    reduce.args = {
        {KernelArg::Base::kArena, 0, 512, 16, KernelArg::Access::kRead},
        {KernelArg::Base::kArena, 0, 0, 16, KernelArg::Access::kWrite}};
    reduce.after = {0};
    Step last = plusOne;
    last.args[0] = {KernelArg::Base::kArena, 0, 0, 16,
                    KernelArg::Access::kRead};
    last.after = {1};
    steps.push_back(reduce);
    steps.push_back(last);
  }
  stage.program.devices[0].steps = steps;
  return stage;
}

RankedArtifact pipeline(uint32_t stageRanks) {
  RankedArtifact artifact;
  artifact.strategy = stageRanks > 1 ? "pipeline,tensor" : "pipeline";
  artifact.stageRanks = stageRanks;
  for (uint32_t t = 0; t < stageRanks; ++t)
    artifact.ranks.push_back(firstStage(stageRanks));
  for (uint32_t t = 0; t < stageRanks; ++t)
    artifact.ranks.push_back(secondStage(stageRanks));
  return artifact;
}

class CudaRanksTest : public CudaRuntimeTest {
protected:
  void SetUp() override {
    CudaRuntimeTest::SetUp();
    setenv("KILN_NCCL_LIBRARY", KILN_FAKE_CUDA_DRIVER, 1);
    fake().deviceCount = 4;
    fakeNccl().reset();
  }
  void TearDown() override {
    EXPECT_EQ(fakeNccl().liveComms, 0) << "a communicator was not freed";
    unsetenv("KILN_NCCL_LIBRARY");
    CudaRuntimeTest::TearDown();
  }
};

TEST_F(CudaRanksTest, TwoGpusAllReduceBetweenLaunches) {
  auto executable = MultiRankExecutable::load(ranked(2), "tp.kiln");
  ASSERT_TRUE(executable.isOk()) << executable.status().toString();
  EXPECT_EQ((*executable)->description(),
            "2 CUDA ranks in-process (GPU r for rank r)");
  std::vector<HostTensor> outputs;
  for (int run = 0; run < 3; ++run) {
    ASSERT_TRUE((*executable)->run({tensor({1, 2, 3, 4})}, outputs).isOk());
    // 2 * x * c + 1 with c = {2, 3, 4, 5}.
    EXPECT_EQ(values(outputs[0]), (std::vector<float>{5, 13, 25, 41}));
  }
  // Two launches per rank and run, never from a graph (the collective
  // waits on NCCL's stream).
  EXPECT_EQ(fake().launches.size(), 2u * 2 * 3);
  EXPECT_EQ(fake().graphLaunches, 0);
  // counters() returns a copy: keep it while reading from it.
  const CollectiveCounters counters = (*executable)->counters(0);
  const CollectiveCounters::Kind &reduced =
      counters.of(Step::CollectiveKind::kAllReduce);
  EXPECT_EQ(reduced.calls, 3u);
  EXPECT_EQ(reduced.bytes, 3u * 16);
}

TEST_F(CudaRanksTest, FourGpusAsTwoReplicasOfTwoRanks) {
  auto executable = MultiRankExecutable::load(ranked(2, 2), "dp.kiln");
  ASSERT_TRUE(executable.isOk()) << executable.status().toString();
  // Each replica takes half the batch: the sample's batch is its whole
  // first dimension, so a replica's program sees 4 of the 8 floats.
  std::vector<HostTensor> outputs;
  ASSERT_TRUE(
      (*executable)->run({tensor({1, 2, 3, 4, 0, 1, 0, 1})}, outputs).isOk());
  EXPECT_EQ(values(outputs[0]),
            (std::vector<float>{5, 13, 25, 41, 1, 7, 1, 11}));
}

TEST_F(CudaRanksTest, OneRankPerProcessBootstrapsNcclOverItsCommunicator) {
  // As under mpirun, on threads: each rank loads its own executable on
  // its bootstrap communicator (an in-process one standing in for MPI).
  auto world = InProcessGroup::create(2);
  ASSERT_TRUE(world.isOk()) << world.status().toString();
  std::vector<std::vector<float>> results(2);
  std::vector<Status> statuses(2);
  auto rank = [&](int r) {
    auto executable =
        RankExecutable::load(ranked(2), "tp.kiln", std::move((*world)[r]), 1,
                             nullptr, /*cudaDevice=*/r);
    if (!executable.isOk()) {
      statuses[r] = executable.status();
      return;
    }
    std::vector<HostTensor> outputs;
    statuses[r] = (*executable)->run({tensor({1, 2, 3, 4})}, outputs);
    if (statuses[r].isOk())
      results[r] = values(outputs[0]);
  };
  std::thread other(rank, 1);
  rank(0);
  other.join();
  for (int r = 0; r < 2; ++r) {
    ASSERT_TRUE(statuses[r].isOk()) << statuses[r].toString();
    EXPECT_EQ(results[r], (std::vector<float>{5, 13, 25, 41}));
  }
}

TEST_F(CudaRanksTest, ARankWithoutItsGpuFailsEveryRankInsteadOfHanging) {
  fake().deviceCount = 1;
  auto world = InProcessGroup::create(2);
  ASSERT_TRUE(world.isOk()) << world.status().toString();
  std::vector<Status> statuses(2);
  auto rank = [&](int r) {
    statuses[r] = RankExecutable::load(ranked(2), "tp.kiln",
                                       std::move((*world)[r]), 1, nullptr, r)
                      .status();
  };
  std::thread other(rank, 1);
  rank(0);
  other.join();
  EXPECT_FALSE(statuses[0].isOk());
  EXPECT_FALSE(statuses[1].isOk());
  EXPECT_NE(statuses[1].message().find("tp.kiln (rank 1)"), std::string::npos)
      << statuses[1].toString();
}

TEST_F(CudaRanksTest, LocalRankFromTheLauncherPicksTheGpu) {
  unsetenv("MPI_LOCALRANKID");
  unsetenv("SLURM_LOCALID");
  setenv("OMPI_COMM_WORLD_LOCAL_RANK", "3", 1);
  EXPECT_EQ(localCudaDevice(7), 3);
  setenv("OMPI_COMM_WORLD_LOCAL_RANK", "x", 1);
  EXPECT_EQ(localCudaDevice(7), 7);
  unsetenv("OMPI_COMM_WORLD_LOCAL_RANK");
  EXPECT_EQ(localCudaDevice(5), 5);
}

TEST_F(CudaRanksTest, PipelineStagesOnGpusPassHostTensors) {
  auto executable = MultiRankExecutable::load(pipeline(1), "pp.kiln");
  ASSERT_TRUE(executable.isOk()) << executable.status().toString();
  std::vector<HostTensor> outputs;
  ASSERT_TRUE((*executable)->run({tensor({1, 2, 3, 4})}, outputs).isOk());
  // (x * c + 1) + 1.
  EXPECT_EQ(values(outputs[0]), (std::vector<float>{4, 8, 14, 22}));
}

TEST_F(CudaRanksTest, TensorParallelStagesOnFourGpus) {
  auto executable = MultiRankExecutable::load(pipeline(2), "pt.kiln");
  ASSERT_TRUE(executable.isOk()) << executable.status().toString();
  std::vector<HostTensor> outputs;
  for (int run = 0; run < 2; ++run) {
    Status status = (*executable)->run({tensor({1, 2, 3, 4})}, outputs);
    ASSERT_TRUE(status.isOk()) << status.toString();
    // Stage 0: s = 2 x c + 1 on both ranks; stage 1: 2 (s + 1) + 1.
    EXPECT_EQ(values(outputs[0]), (std::vector<float>{13, 29, 53, 85}));
  }
  const CollectiveCounters counters = (*executable)->counters(0);
  EXPECT_EQ(counters.of(Step::CollectiveKind::kAllReduce).calls, 2u);
  EXPECT_EQ(counters.of(Step::CollectiveKind::kSend).calls, 2u);
}

TEST_F(CudaRanksTest, ARankAloneNeedsACollectivesHook) {
  auto executable =
      CudaExecutable::load(rankArtifact(2), "rank.kiln", CudaLoadOptions());
  ASSERT_TRUE(executable.isOk()) << executable.status().toString();
  std::vector<HostTensor> outputs;
  Status status = (*executable)->run({tensor({1, 2, 3, 4})}, outputs);
  EXPECT_EQ(status.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(status.message().find("collective steps"), std::string::npos)
      << status.message();
  EXPECT_EQ((*executable)->timeLaunches(1, false).status().code(),
            StatusCode::kFailedPrecondition);
}

TEST_F(CudaRanksTest, TooFewGpusIsUnavailable) {
  fake().deviceCount = 1;
  auto executable = MultiRankExecutable::load(ranked(2), "tp.kiln");
  ASSERT_FALSE(executable.isOk());
  EXPECT_NE(executable.status().message().find("tp.kiln"), std::string::npos)
      << executable.status().toString();
}

TEST_F(CudaRanksTest, MixedDevicesAreRefused) {
  RankedArtifact artifact = ranked(2);
  artifact.ranks[1].program.devices[0].kind = DeviceProgram::Kind::kCpu;
  auto executable = MultiRankExecutable::load(artifact, "mixed.kiln");
  ASSERT_FALSE(executable.isOk());
  EXPECT_EQ(executable.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(executable.status().message().find("rank 1 runs on another kind"),
            std::string::npos)
      << executable.status().toString();
}

TEST_F(CudaRanksTest, APeerThatFailsAbortsTheOthers) {
  // Rank 1's first launch fails: rank 0 must not wait in the all-reduce.
  MultiRankOptions options;
  options.communicator.timeout = std::chrono::milliseconds(5000);
  auto executable = MultiRankExecutable::load(ranked(2), "tp.kiln", options);
  ASSERT_TRUE(executable.isOk()) << executable.status().toString();
  fake().failCall = "cuLaunchKernel";
  fake().failResult = 700; // CUDA_ERROR_ILLEGAL_ADDRESS
  fake().failSkip = 1;
  std::vector<HostTensor> outputs;
  auto start = std::chrono::steady_clock::now();
  Status status = (*executable)->run({tensor({1, 2, 3, 4})}, outputs);
  EXPECT_FALSE(status.isOk());
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(4));
  EXPECT_NE(status.code(), StatusCode::kAborted) << status.toString();
}

TEST_F(CudaRanksTest, StepHooksSeeTheReducedValues) {
  auto executable =
      CudaExecutable::load(rankArtifact(1), "rank.kiln", CudaLoadOptions());
  ASSERT_TRUE(executable.isOk()) << executable.status().toString();
  auto group = openNcclGroup({0});
  ASSERT_TRUE(group.isOk()) << group.status().toString();
  CommunicatorCollectives collectives(*group->front());
  struct Recorder : StepHooks {
    std::vector<float> reduced;
    void afterStep(const StepEvent &event) override {
      if (event.step->kind != Step::Kind::kCollective)
        return;
      const float *sum = reinterpret_cast<const float *>(event.buffers->arena);
      reduced.assign(sum, sum + 4);
    }
  } recorder;
  RunOptions options;
  options.hooks = &recorder;
  options.collectives = &collectives;
  std::vector<HostTensor> outputs;
  ASSERT_TRUE(
      (*executable)->run({tensor({1, 2, 3, 4})}, outputs, options).isOk());
  EXPECT_EQ(recorder.reduced, (std::vector<float>{2, 6, 12, 20}));
  EXPECT_EQ(values(outputs[0]), (std::vector<float>{3, 7, 13, 21}));
  EXPECT_EQ((*executable)->counters().collectiveSteps, 1u);
}

} // namespace
} // namespace kiln::rt::test
