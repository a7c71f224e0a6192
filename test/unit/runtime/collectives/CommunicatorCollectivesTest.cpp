//===- CommunicatorCollectivesTest.cpp - Collective steps on communicators ===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Hand-built exec collective steps, run by the hook directly and through
// CpuSchedule, on rank threads; malformed steps are errors naming the step.
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/CommunicatorCollectives.h"
#include "kiln/runtime/CpuSchedule.h"

#include "RankThreads.h"

#include <cstring>

using namespace kiln::rt;
using namespace kiln::rt::test;

namespace {

using Kind = Step::CollectiveKind;

KernelArg arena(uint64_t offset, uint64_t bytes,
                KernelArg::Access access = KernelArg::Access::kReadWrite) {
  KernelArg arg;
  arg.base = KernelArg::Base::kArena;
  arg.offset = offset;
  arg.bytes = bytes;
  arg.access = access;
  return arg;
}

Step collective(Kind kind, uint32_t ranks, std::vector<KernelArg> args,
                uint32_t reduction = 0, uint32_t peer = 0,
                DType element = DType::kF32) {
  Step step;
  step.kind = Step::Kind::kCollective;
  step.collective = kind;
  step.ranks = ranks;
  step.reduction = reduction;
  step.peer = peer;
  step.element = element;
  step.args = std::move(args);
  return step;
}

/// One rank's arena and the RunBuffers over it.
struct RankMemory {
  std::vector<uint8_t> arena = std::vector<uint8_t>(1024, 0);
  std::vector<uint8_t *> none;
  RunBuffers buffers;
  RankMemory() {
    buffers.inputs = &none;
    buffers.outputs = &none;
    buffers.arena = arena.data();
  }
  float *floats(uint64_t offset) {
    return reinterpret_cast<float *>(arena.data() + offset);
  }
};

Status runStep(CommunicatorCollectives &hook, RankMemory &memory,
               const Step &step, uint32_t index = 0) {
  StepEvent event{index, &step, &memory.buffers};
  return hook.run(event);
}

TEST(CommunicatorCollectives, RunsEveryKindAndCounts) {
  onEveryRank(2, [](Communicator &comm) {
    RankMemory memory;
    int rank = comm.rank();
    for (int i = 0; i < 8; ++i)
      memory.floats(0)[i] = float(rank * 10 + i);
    CommunicatorCollectives hook(comm);

    // all_reduce sum: 32 bytes at 0 -> 32 bytes at 64.
    Step allReduce = collective(Kind::kAllReduce, 2,
                                {arena(0, 32, KernelArg::Access::kRead),
                                 arena(64, 32, KernelArg::Access::kWrite)},
                                1);
    Status status = runStep(hook, memory, allReduce, 0);
    ASSERT_TRUE(status.isOk()) << status.toString();
    for (int i = 0; i < 8; ++i)
      EXPECT_EQ(memory.floats(64)[i], float(10 + 2 * i));

    // all_gather: 8 bytes at 0 -> 16 bytes at 128.
    Step allGather =
        collective(Kind::kAllGather, 2, {arena(0, 8), arena(128, 16)});
    status = runStep(hook, memory, allGather, 1);
    ASSERT_TRUE(status.isOk()) << status.toString();
    EXPECT_EQ(memory.floats(128)[0], 0.0f);
    EXPECT_EQ(memory.floats(128)[2], 10.0f);

    // reduce_scatter max, in place: 32 bytes at 0 -> block `rank` of them.
    Step reduceScatter =
        collective(Kind::kReduceScatter, 2,
                   {arena(0, 32), arena(uint64_t(rank) * 16, 16)}, 2);
    status = runStep(hook, memory, reduceScatter, 2);
    ASSERT_TRUE(status.isOk()) << status.toString();
    EXPECT_EQ(memory.floats(0)[rank * 4], float(10 + rank * 4));

    // broadcast from rank 1 in place at 256.
    memory.floats(256)[0] = float(100 + rank);
    Step broadcast =
        collective(Kind::kBroadcast, 2, {arena(256, 4), arena(256, 4)}, 0, 1);
    status = runStep(hook, memory, broadcast, 3);
    ASSERT_TRUE(status.isOk()) << status.toString();
    EXPECT_EQ(memory.floats(256)[0], 101.0f);

    // send from 0 to 1: each rank runs its own half.
    memory.floats(512)[0] = float(7 + rank);
    Step pointToPoint = rank == 0
                            ? collective(Kind::kSend, 2, {arena(512, 4)}, 0, 1)
                            : collective(Kind::kRecv, 2, {arena(512, 4)}, 0, 0);
    status = runStep(hook, memory, pointToPoint, 4);
    ASSERT_TRUE(status.isOk()) << status.toString();
    EXPECT_EQ(memory.floats(512)[0], 7.0f);

    CollectiveCounters counters = hook.counters();
    EXPECT_EQ(counters.of(Kind::kAllReduce).calls, 1u);
    EXPECT_EQ(counters.of(Kind::kAllReduce).bytes, 32u);
    EXPECT_EQ(counters.of(Kind::kAllGather).bytes, 8u);
    EXPECT_EQ(counters.of(Kind::kReduceScatter).bytes, 32u);
    EXPECT_EQ(counters.of(Kind::kBroadcast).calls, 1u);
    EXPECT_EQ(counters.of(rank == 0 ? Kind::kSend : Kind::kRecv).bytes, 4u);
    EXPECT_EQ(counters.totalCalls(), 5u);
    EXPECT_EQ(counters.totalBytes(), 32u + 8 + 32 + 4 + 4);
    hook.resetCounters();
    EXPECT_EQ(hook.counters().totalCalls(), 0u);
  });
}

TEST(CommunicatorCollectives, RunsThroughCpuSchedule) {
  DeviceProgram program;
  program.arenaBytes = 1024;
  program.steps.push_back(collective(Kind::kAllReduce, 3,
                                     {arena(0, 12, KernelArg::Access::kRead),
                                      arena(16, 12, KernelArg::Access::kWrite)},
                                     1, 0, DType::kI32));
  program.steps.push_back(collective(Kind::kAllGather, 3,
                                     {arena(16, 4, KernelArg::Access::kRead),
                                      arena(32, 12, KernelArg::Access::kWrite)},
                                     0, 0, DType::kI32));
  program.steps[1].after = {0};
  auto schedule = CpuSchedule::create(
      program, [](const std::string &) { return nullptr; }, "test");
  ASSERT_TRUE(schedule.isOk()) << schedule.status().toString();
  onEveryRank(3, [&](Communicator &comm) {
    RankMemory memory;
    int32_t mine[3] = {comm.rank(), 1, 2};
    std::memcpy(memory.arena.data(), mine, sizeof(mine));
    CommunicatorCollectives hook(comm);
    RunOptions options;
    options.collectives = &hook;
    Status status = schedule->run(nullptr, nullptr, memory.buffers, options);
    ASSERT_TRUE(status.isOk()) << status.toString();
    int32_t gathered[3];
    std::memcpy(gathered, memory.arena.data() + 32, sizeof(gathered));
    for (int32_t value : gathered)
      EXPECT_EQ(value, 0 + 1 + 2); // Element 0 of the all-reduce, gathered.
    EXPECT_EQ(hook.counters().totalCalls(), 2u);
  });
}

TEST(CommunicatorCollectives, OneRankGroupsCopyLocally) {
  onEveryRank(2, [](Communicator &comm) {
    RankMemory memory;
    memory.floats(0)[0] = 5.0f;
    CommunicatorCollectives hook(comm);
    Step copy = collective(Kind::kAllReduce, 1, {arena(0, 4), arena(8, 4)}, 1);
    Status status = runStep(hook, memory, copy);
    ASSERT_TRUE(status.isOk()) << status.toString();
    EXPECT_EQ(memory.floats(8)[0], 5.0f);
  });
}

TEST(CommunicatorCollectives, SubGroupsAreChosenPerStep) {
  onEveryRank(4, [](Communicator &comm) {
    auto row = comm.split(comm.rank() / 2, comm.rank());
    ASSERT_TRUE(row.isOk()) << row.status().toString();
    CommunicatorCollectives hook(comm);
    ASSERT_TRUE(hook.addGroup(1, **row).isOk());
    EXPECT_EQ(hook.addGroup(1, **row).code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(hook.addGroup(0, **row).code(), StatusCode::kInvalidArgument);
    hook.setGroupChooser(
        [](const StepEvent &event) { return event.index == 7 ? 1u : 0u; });
    RankMemory memory;
    memory.floats(0)[0] = float(comm.rank());
    Step rowSum =
        collective(Kind::kAllReduce, 2, {arena(0, 4), arena(4, 4)}, 1);
    Status status = runStep(hook, memory, rowSum, 7);
    ASSERT_TRUE(status.isOk()) << status.toString();
    EXPECT_EQ(memory.floats(4)[0], comm.rank() < 2 ? 1.0f : 5.0f);
    // The same step on the world is for the wrong number of ranks.
    status = runStep(hook, memory, rowSum, 8);
    EXPECT_EQ(status.code(), StatusCode::kFailedPrecondition);
    EXPECT_NE(status.message().find("collective step #8 (all_reduce) is for 2 "
                                    "ranks, its communicator has 4"),
              std::string::npos)
        << status.message();
  });
}

TEST(CommunicatorCollectives, MalformedStepsAreErrorsNamingTheStep) {
  onEveryRank(2, [](Communicator &comm) {
    RankMemory memory;
    CommunicatorCollectives hook(comm);
    auto expectError = [&](Step step, const std::string &text) {
      Status status = runStep(hook, memory, step, 5);
      EXPECT_EQ(status.code(), StatusCode::kInvalidArgument) << text;
      EXPECT_NE(status.message().find("collective step #5"), std::string::npos)
          << status.message();
      EXPECT_NE(status.message().find(text), std::string::npos)
          << status.message();
    };
    expectError(collective(Kind::kAllGather, 2, {arena(0, 8), arena(8, 8)}),
                "sends 8 bytes but receives 8");
    expectError(
        collective(Kind::kReduceScatter, 2, {arena(0, 12), arena(16, 4)}, 1),
        "sends 12 bytes but receives 4");
    expectError(collective(Kind::kAllReduce, 2, {arena(0, 8), arena(8, 8)}),
                "needs a reduction");
    expectError(collective(Kind::kBroadcast, 2, {arena(0, 8), arena(8, 8)}, 1),
                "takes no reduction");
    expectError(collective(Kind(9), 2, {arena(0, 8), arena(8, 8)}),
                "unknown collective kind 9");
    expectError(collective(Kind::kSend, 2, {arena(0, 8), arena(8, 8)}),
                "2 bindings, not 1");
    expectError(collective(Kind::kAllReduce, 2, {arena(0, 6), arena(8, 6)}, 1),
                "not a whole number of f32");
    expectError(
        collective(Kind::kBroadcast, 2, {arena(0, 8), arena(8, 8)}, 0, 2),
        "peer 2 is not a rank of 2");
    expectError(collective(Kind::kRecv, 2,
                           {arena(0, 8, KernelArg::Access::kRead)}, 0, 1),
                "read-only");
    expectError(collective(Kind::kSend, 2, {arena(0, 8)}, 0, comm.rank()),
                "to itself");
    expectError(collective(Kind::kAllReduce, 0, {arena(0, 8), arena(8, 8)}, 1),
                "no ranks");
    Step element = collective(Kind::kAllReduce, 2, {arena(0, 8), arena(8, 8)},
                              1, 0, DType(99));
    expectError(element, "unknown element type 99");
    Step notCollective;
    Status status = runStep(hook, memory, notCollective, 5);
    EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(hook.counters().totalCalls(), 0u);
  });
}

TEST(CommunicatorCollectives, CommunicatorErrorsNameTheStep) {
  CommunicatorOptions options = testOptions();
  options.timeout = std::chrono::milliseconds(200);
  onEveryRank(2, options, [](Communicator &comm) {
    if (comm.rank() == 1)
      return; // Never arrives.
    RankMemory memory;
    CommunicatorCollectives hook(comm);
    Step step = collective(Kind::kAllReduce, 2, {arena(0, 8), arena(8, 8)}, 1);
    Status status = runStep(hook, memory, step, 3);
    EXPECT_EQ(status.code(), StatusCode::kDeadlineExceeded);
    EXPECT_NE(status.message().find("collective step #3 (all_reduce): "
                                    "allReduce #0 on rank 0 of 2"),
              std::string::npos)
        << status.message();
  });
}

} // namespace
