//===- InProcessGroupTest.cpp - Collectives between rank threads ----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The shared checks on 1 to 4 rank threads, then what only threads can
// show cheaply: abort unblocking peers, a rank that never arrives, and
// sends nobody receives, each within a bounded time.
//
//===----------------------------------------------------------------------===//

#include "CollectiveChecks.h"
#include "RankThreads.h"

#include <atomic>
#include <chrono>

using namespace kiln::rt;
using namespace kiln::rt::test;

namespace {

using Clock = std::chrono::steady_clock;

class InProcessGroupTest : public ::testing::TestWithParam<int> {};

TEST_P(InProcessGroupTest, AllReduce) {
  onEveryRank(GetParam(), checkAllReduce);
}
TEST_P(InProcessGroupTest, AllGather) {
  onEveryRank(GetParam(), checkAllGather);
}
TEST_P(InProcessGroupTest, ReduceScatter) {
  onEveryRank(GetParam(), checkReduceScatter);
}
TEST_P(InProcessGroupTest, Broadcast) {
  onEveryRank(GetParam(), checkBroadcast);
}
TEST_P(InProcessGroupTest, AllToAll) { onEveryRank(GetParam(), checkAllToAll); }
TEST_P(InProcessGroupTest, SendRecv) { onEveryRank(GetParam(), checkSendRecv); }
TEST_P(InProcessGroupTest, HalfPrecisionMatchesF32Reference) {
  onEveryRank(GetParam(), checkHalfPrecision);
}
TEST_P(InProcessGroupTest, BarrierAndArgumentErrors) {
  onEveryRank(GetParam(), checkBarrierAndArguments);
}
TEST_P(InProcessGroupTest, FingerprintMismatchIsReportedOnEveryRank) {
  onEveryRank(GetParam(), checkFingerprintMismatch);
}
TEST_P(InProcessGroupTest, RankAndSize) {
  onEveryRank(GetParam(), [](Communicator &comm) {
    EXPECT_EQ(comm.size(), GetParam());
    EXPECT_STREQ(comm.backendName(), "in-process");
  });
}

INSTANTIATE_TEST_SUITE_P(Ranks, InProcessGroupTest,
                         ::testing::Values(1, 2, 3, 4), [](const auto &info) {
                           return std::to_string(info.param) + "ranks";
                         });

TEST(InProcessGroup, Split2x2Mesh) { onEveryRank(4, checkSplit2x2); }

TEST(InProcessGroup, RefusesBadSizes) {
  EXPECT_EQ(InProcessGroup::create(0).status().code(),
            StatusCode::kInvalidArgument);
  CommunicatorOptions options;
  options.timeout = std::chrono::milliseconds(0);
  EXPECT_EQ(InProcessGroup::create(2, options).status().code(),
            StatusCode::kInvalidArgument);
}

TEST(InProcessGroup, ManyCollectivesStayInStep) {
  onEveryRank(3, [](Communicator &comm) {
    for (int i = 0; i < 2000; ++i) {
      int64_t value = comm.rank() + i, sum = 0;
      Status status =
          comm.allReduce(&value, &sum, 1, DType::kI64, ReduceOp::kSum);
      ASSERT_TRUE(status.isOk()) << status.toString();
      ASSERT_EQ(sum, 3 + 3 * i);
    }
  });
}

TEST(InProcessGroup, AbortUnblocksPeers) {
  CommunicatorOptions options = testOptions();
  options.timeout = std::chrono::milliseconds(60000);
  std::atomic<int> abortedRanks{0};
  Clock::time_point start = Clock::now();
  onEveryRank(3, options, [&](Communicator &comm) {
    float value = 1.0f;
    if (comm.rank() == 2) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      comm.abort();
      comm.abort(); // Idempotent.
    } else {
      Status status =
          comm.allReduce(&value, &value, 1, DType::kF32, ReduceOp::kSum);
      EXPECT_EQ(status.code(), StatusCode::kAborted) << status.toString();
      EXPECT_NE(status.message().find("allReduce #0 on rank " +
                                      std::to_string(comm.rank())),
                std::string::npos)
          << status.message();
      EXPECT_NE(status.message().find("rank 2 of 3 aborted"), std::string::npos)
          << status.message();
      ++abortedRanks;
    }
    // Every later call fails at once, on every rank, whatever it is.
    Status later = comm.barrier();
    EXPECT_EQ(later.code(), StatusCode::kAborted) << later.toString();
    Status split = comm.split(0, 0).status();
    EXPECT_EQ(split.code(), StatusCode::kAborted);
    if (comm.rank() == 0) {
      Status send = comm.send(&value, 1, DType::kF32, 1);
      EXPECT_EQ(send.code(), StatusCode::kAborted);
    }
  });
  EXPECT_EQ(abortedRanks.load(), 2);
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(5));
}

TEST(InProcessGroup, AbortReachesSubGroupsAndOtherThreads) {
  auto group = InProcessGroup::create(2, testOptions());
  ASSERT_TRUE(group.isOk());
  std::vector<std::thread> threads;
  std::atomic<int> aborted{0};
  for (auto &comm : *group)
    threads.emplace_back([&comm, &aborted] {
      auto sub = comm->split(0, comm->rank());
      ASSERT_TRUE(sub.isOk()) << sub.status().toString();
      if ((*sub)->rank() == 1)
        return; // Never arrives: only the abort below frees rank 0.
      Status status = (*sub)->barrier();
      EXPECT_EQ(status.code(), StatusCode::kAborted) << status.toString();
      ++aborted;
    });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  (*group)[1]->abort(); // From a thread that is no rank's.
  for (std::thread &thread : threads)
    thread.join();
  EXPECT_EQ(aborted.load(), 1);
}

TEST(InProcessGroup, MissingRankIsADeadlineOnTheOthers) {
  CommunicatorOptions options = testOptions();
  options.timeout = std::chrono::milliseconds(300);
  Clock::time_point start = Clock::now();
  std::atomic<int> lateRanks{0};
  onEveryRank(3, options, [&](Communicator &comm) {
    double value = 1.0;
    if (comm.rank() == 2) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1200));
      Status late =
          comm.allReduce(&value, &value, 1, DType::kF64, ReduceOp::kMax);
      EXPECT_EQ(late.code(), StatusCode::kDeadlineExceeded) << late.toString();
      return;
    }
    Status status =
        comm.allReduce(&value, &value, 1, DType::kF64, ReduceOp::kMax);
    auto waited = Clock::now() - start;
    EXPECT_EQ(status.code(), StatusCode::kDeadlineExceeded)
        << status.toString();
    EXPECT_NE(status.message().find("allReduce #0"), std::string::npos)
        << status.message();
    EXPECT_NE(status.message().find("rank 2"), std::string::npos)
        << status.message();
    EXPECT_GE(waited, std::chrono::milliseconds(250));
    EXPECT_LT(waited, std::chrono::milliseconds(1100));
    ++lateRanks;
  });
  EXPECT_EQ(lateRanks.load(), 2);
}

TEST(InProcessGroup, UnreceivedSendIsADeadline) {
  CommunicatorOptions options = testOptions();
  options.timeout = std::chrono::milliseconds(200);
  onEveryRank(2, options, [&](Communicator &comm) {
    if (comm.rank() == 1)
      return;
    float value = 1.0f;
    Status status = comm.send(&value, 1, DType::kF32, 1);
    EXPECT_EQ(status.code(), StatusCode::kDeadlineExceeded)
        << status.toString();
    EXPECT_NE(status.message().find("send #0 to rank 1 on rank 0 of 2"),
              std::string::npos)
        << status.message();
    EXPECT_NE(status.message().find("rank 1 to receive"), std::string::npos)
        << status.message();
  });
}

TEST(InProcessGroup, SendRecvMismatchIsReportedOnBothSides) {
  onEveryRank(2, [](Communicator &comm) {
    std::vector<int32_t> buffer(8, comm.rank());
    Status status = comm.rank() == 0
                        ? comm.send(buffer.data(), 4, DType::kI32, 1)
                        : comm.recv(buffer.data(), 8, DType::kI32, 0);
    EXPECT_EQ(status.code(), StatusCode::kInvalidArgument) << status.toString();
    EXPECT_NE(status.message().find("count 4 i32"), std::string::npos)
        << status.message();
    EXPECT_NE(status.message().find("count 8 i32"), std::string::npos)
        << status.message();
  });
}

} // namespace
