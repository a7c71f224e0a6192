//===- MpiCommunicatorTest.cpp - The collective checks under mpirun -------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// One process per rank (ctest runs it under `mpirun -np 2` and `-np 4`);
// every rank runs every test in the same order on the world communicator
// from the MPI plugin. The job fails when any rank fails.
//
//===----------------------------------------------------------------------===//

#include "CollectiveChecks.h"

#include "kiln/runtime/CommunicatorCollectives.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>

using namespace kiln::rt;
using namespace kiln::rt::test;

namespace {

Communicator *world = nullptr;

TEST(Mpi, World) {
  EXPECT_STREQ(world->backendName(), "mpi");
  EXPECT_GE(world->size(), 1);
}
TEST(Mpi, AllReduce) { checkAllReduce(*world); }
TEST(Mpi, AllGather) { checkAllGather(*world); }
TEST(Mpi, ReduceScatter) { checkReduceScatter(*world); }
TEST(Mpi, Broadcast) { checkBroadcast(*world); }
TEST(Mpi, AllToAll) { checkAllToAll(*world); }
TEST(Mpi, SendRecv) { checkSendRecv(*world); }
TEST(Mpi, HalfPrecisionMatchesF32Reference) { checkHalfPrecision(*world); }
TEST(Mpi, BarrierAndArgumentErrors) { checkBarrierAndArguments(*world); }
TEST(Mpi, FingerprintMismatchIsReportedOnEveryRank) {
  checkFingerprintMismatch(*world);
}
TEST(Mpi, Split2x2Mesh) {
  if (world->size() != 4)
    GTEST_SKIP() << "needs 4 ranks";
  checkSplit2x2(*world);
}

TEST(Mpi, CollectivesHookRunsSteps) {
  std::vector<uint8_t> arena(64, 0);
  std::vector<uint8_t *> none;
  RunBuffers buffers;
  buffers.inputs = &none;
  buffers.outputs = &none;
  buffers.arena = arena.data();
  int32_t mine = world->rank() + 1;
  std::memcpy(arena.data(), &mine, 4);
  Step step;
  step.kind = Step::Kind::kCollective;
  step.collective = Step::CollectiveKind::kAllReduce;
  step.reduction = 1;
  step.ranks = uint32_t(world->size());
  step.element = DType::kI32;
  step.args.resize(2);
  step.args[0].offset = 0;
  step.args[0].bytes = 4;
  step.args[1].offset = 4;
  step.args[1].bytes = 4;
  CommunicatorCollectives hook(*world);
  StepEvent event{0, &step, &buffers};
  Status status = hook.run(event);
  ASSERT_TRUE(status.isOk()) << status.toString();
  int32_t sum;
  std::memcpy(&sum, arena.data() + 4, 4);
  int n = world->size();
  EXPECT_EQ(sum, n * (n + 1) / 2);
  EXPECT_EQ(hook.counters().of(Step::CollectiveKind::kAllReduce).bytes, 4u);
}

} // namespace

int main(int argc, char **argv) {
  ::testing::InitGoogleTest(&argc, argv);
  CommunicatorOptions options;
  options.checkFingerprints = true;
  options.timeout = std::chrono::milliseconds(30000);
  auto opened = openMpiCommunicator(options, KILN_MPI_PLUGIN_PATH);
  if (!opened.isOk()) {
    std::fprintf(stderr, "%s\n", opened.status().toString().c_str());
    return 1;
  }
  std::unique_ptr<Communicator> communicator = std::move(*opened);
  world = communicator.get();
  int result = RUN_ALL_TESTS();
  communicator.reset(); // MPI_Finalize.
  return result;
}
