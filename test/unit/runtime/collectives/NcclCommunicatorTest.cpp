//===- NcclCommunicatorTest.cpp - NCCL ranks on the fake driver -----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The NCCL backend on the tests' fake CUDA driver and fake NCCL (one
// library, FakeNccl.h): device memory is host memory, so the shared checks
// run unchanged on rank threads. Then what a GPU job meets: a rank that
// cannot open its device, a peer that never arrives, NCCL's asynchronous
// errors, an abort, an enqueue that fails; and the real libnccl, where the
// machine has one, resolving every entry point Kiln declares.
//
//===----------------------------------------------------------------------===//

#include "../FakeCudaDriver.h"
#include "../FakeNccl.h"
#include "CollectiveChecks.h"
#include "RankThreads.h"

#include "kiln/runtime/NcclCommunicator.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <dlfcn.h>
#include <functional>
#include <thread>

using namespace kiln::rt;
using namespace kiln::rt::test;

namespace {

using Clock = std::chrono::steady_clock;

template <typename State> State &fakeState(const char *symbol) {
  void *library = dlopen(KILN_FAKE_CUDA_DRIVER, RTLD_NOW | RTLD_LOCAL);
  EXPECT_NE(library, nullptr) << dlerror();
  auto get = reinterpret_cast<State *(*)()>(dlsym(library, symbol));
  return *get();
}

FakeNcclState &fakeNccl() {
  static FakeNcclState *state = &fakeState<FakeNcclState>("kilnFakeNcclState");
  return *state;
}

class NcclTest : public ::testing::Test {
protected:
  void SetUp() override {
    setenv("KILN_CUDA_DRIVER", KILN_FAKE_CUDA_DRIVER, 1);
    setenv("KILN_NCCL_LIBRARY", KILN_FAKE_CUDA_DRIVER, 1);
    FakeCudaState &cuda = fakeState<FakeCudaState>("kilnFakeCudaState");
    cuda.reset();
    cuda.deviceCount = 4;
    fakeNccl().reset();
  }
  void TearDown() override {
    EXPECT_EQ(fakeNccl().liveComms, 0) << "a communicator was not freed";
    unsetenv("KILN_CUDA_DRIVER");
    unsetenv("KILN_NCCL_LIBRARY");
  }

  /// `body` on a thread per rank of an ncclCommInitAll group.
  void onEveryGpu(int ranks, const CommunicatorOptions &options,
                  const std::function<void(Communicator &)> &body) {
    std::vector<int> devices;
    for (int d = 0; d < ranks; ++d)
      devices.push_back(d);
    auto group = openNcclGroup(devices, options);
    ASSERT_TRUE(group.isOk()) << group.status().toString();
    std::vector<std::thread> threads;
    for (auto &comm : *group)
      threads.emplace_back([&body, &comm] { body(*comm); });
    for (std::thread &thread : threads)
      thread.join();
  }
  void onEveryGpu(int ranks, const std::function<void(Communicator &)> &body) {
    onEveryGpu(ranks, testOptions(), body);
  }
};

class NcclGroupTest : public NcclTest,
                      public ::testing::WithParamInterface<int> {};

TEST_P(NcclGroupTest, AllReduce) { onEveryGpu(GetParam(), checkAllReduce); }
TEST_P(NcclGroupTest, AllGather) { onEveryGpu(GetParam(), checkAllGather); }
TEST_P(NcclGroupTest, ReduceScatter) {
  onEveryGpu(GetParam(), checkReduceScatter);
}
TEST_P(NcclGroupTest, Broadcast) { onEveryGpu(GetParam(), checkBroadcast); }
TEST_P(NcclGroupTest, AllToAll) { onEveryGpu(GetParam(), checkAllToAll); }
TEST_P(NcclGroupTest, SendRecv) { onEveryGpu(GetParam(), checkSendRecv); }
TEST_P(NcclGroupTest, BarrierAndArgumentErrors) {
  onEveryGpu(GetParam(), checkBarrierAndArguments);
}
TEST_P(NcclGroupTest, FingerprintMismatchIsReportedOnEveryRank) {
  onEveryGpu(GetParam(), checkFingerprintMismatch);
}
TEST_P(NcclGroupTest, RankSizeAndOneInitAll) {
  onEveryGpu(GetParam(), [](Communicator &comm) {
    EXPECT_EQ(comm.size(), GetParam());
    EXPECT_STREQ(comm.backendName(), "nccl");
  });
  EXPECT_EQ(fakeNccl().initAllCalls, 1);
}

INSTANTIATE_TEST_SUITE_P(Ranks, NcclGroupTest, ::testing::Values(1, 2, 4),
                         [](const auto &info) {
                           return std::to_string(info.param) + "ranks";
                         });

TEST_F(NcclTest, Split2x2Mesh) {
  onEveryGpu(4, checkSplit2x2);
  EXPECT_GT(fakeNccl().splitCalls, 0);
}

TEST_F(NcclTest, SixteenBitIntegersDoNotReduce) {
  onEveryGpu(2, [](Communicator &comm) {
    std::vector<int16_t> data(4, 1);
    Status status = comm.allReduce(data.data(), data.data(), 4, DType::kI16,
                                   ReduceOp::kSum);
    EXPECT_EQ(status.code(), StatusCode::kUnimplemented) << status.toString();
    EXPECT_NE(status.message().find("NCCL cannot reduce i16"),
              std::string::npos)
        << status.message();
    // They still move.
    Status moved = comm.broadcast(data.data(), data.data(), 4, DType::kI16, 0);
    EXPECT_TRUE(moved.isOk()) << moved.toString();
  });
}

TEST_F(NcclTest, BootstrapOverAnotherCommunicator) {
  // One rank per thread, as one rank per process under mpirun: the id
  // travels over the bootstrap group, each rank joins with InitRank.
  onEveryRank(3, [](Communicator &bootstrap) {
    auto nccl =
        openNcclCommunicator(bootstrap, bootstrap.rank(), testOptions());
    ASSERT_TRUE(nccl.isOk()) << nccl.status().toString();
    EXPECT_EQ((*nccl)->rank(), bootstrap.rank());
    EXPECT_EQ((*nccl)->size(), 3);
    checkAllReduce(**nccl);
  });
  EXPECT_EQ(fakeNccl().initRankCalls, 3);
}

TEST_F(NcclTest, ARankWithoutItsDeviceFailsEveryRank) {
  onEveryRank(2, [](Communicator &bootstrap) {
    int device = bootstrap.rank() == 1 ? 7 : 0; // The fake has 4.
    auto nccl = openNcclCommunicator(bootstrap, device, testOptions());
    ASSERT_FALSE(nccl.isOk());
    EXPECT_EQ(nccl.status().code(), StatusCode::kUnavailable)
        << nccl.status().toString();
    const std::string &message = nccl.status().message();
    if (bootstrap.rank() == 1)
      EXPECT_NE(message.find("CUDA device 7"), std::string::npos) << message;
    else
      EXPECT_NE(message.find("rank 1 could not"), std::string::npos) << message;
  });
  EXPECT_EQ(fakeNccl().initRankCalls, 0) << "nobody may wait in InitRank";
}

TEST_F(NcclTest, AMissingPeerTripsTheDeadline) {
  CommunicatorOptions options = testOptions();
  options.timeout = std::chrono::milliseconds(300);
  onEveryGpu(2, options, [](Communicator &comm) {
    if (comm.rank() == 1)
      return; // Never arrives.
    std::vector<float> data(8, 1.0f);
    auto start = Clock::now();
    Status status = comm.allReduce(data.data(), data.data(), 8, DType::kF32,
                                   ReduceOp::kSum);
    EXPECT_LT(Clock::now() - start, std::chrono::seconds(10));
    EXPECT_EQ(status.code(), StatusCode::kDeadlineExceeded)
        << status.toString();
    EXPECT_NE(status.message().find("allReduce #0 on rank 0 of 2"),
              std::string::npos)
        << status.message();
    EXPECT_NE(status.message().find("300 ms"), std::string::npos)
        << status.message();
    // Broken for good: the next call fails at once, the same way.
    Status later = comm.barrier();
    EXPECT_EQ(later.code(), StatusCode::kDeadlineExceeded) << later.toString();
  });
  EXPECT_EQ(fakeNccl().aborts, 1) << "the late call aborts its communicator";
}

TEST_F(NcclTest, AnAsynchronousErrorEndsTheCall) {
  fakeNccl().asyncError = 6; // ncclRemoteError: a peer process died.
  onEveryGpu(2, [](Communicator &comm) {
    std::vector<float> data(8, 1.0f);
    Status status = comm.allReduce(data.data(), data.data(), 8, DType::kF32,
                                   ReduceOp::kSum);
    EXPECT_EQ(status.code(), StatusCode::kAborted) << status.toString();
    EXPECT_NE(status.message().find("ncclRemoteError"), std::string::npos)
        << status.message();
    EXPECT_NE(status.message().find("allReduce #0"), std::string::npos)
        << status.message();
  });
  EXPECT_EQ(fakeNccl().aborts, 2);
}

TEST_F(NcclTest, AbortReachesTheOtherRanks) {
  onEveryGpu(2, [](Communicator &comm) {
    std::vector<float> data(8, 1.0f);
    if (comm.rank() == 1) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      comm.abort();
    } else {
      auto start = Clock::now();
      Status status = comm.allReduce(data.data(), data.data(), 8, DType::kF32,
                                     ReduceOp::kSum);
      EXPECT_EQ(status.code(), StatusCode::kAborted) << status.toString();
      EXPECT_LT(Clock::now() - start, std::chrono::seconds(10))
          << "well before the 20 s deadline";
    }
    Status later = comm.barrier();
    EXPECT_EQ(later.code(), StatusCode::kAborted) << later.toString();
  });
}

TEST_F(NcclTest, AFailedEnqueueIsNamed) {
  fakeNccl().failCall = "ncclAllReduce";
  fakeNccl().failResult = 5; // ncclInvalidUsage
  onEveryGpu(1, [](Communicator &comm) {
    std::vector<float> data(8, 1.0f);
    Status status = comm.allReduce(data.data(), data.data(), 8, DType::kF32,
                                   ReduceOp::kSum);
    EXPECT_EQ(status.code(), StatusCode::kInvalidArgument) << status.toString();
    EXPECT_NE(status.message().find("ncclAllReduce failed: ncclInvalidUsage"),
              std::string::npos)
        << status.message();
  });
}

TEST_F(NcclTest, GroupArgumentsAreChecked) {
  auto repeated = openNcclGroup({0, 1, 0});
  ASSERT_FALSE(repeated.isOk());
  EXPECT_EQ(repeated.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(repeated.status().message().find("device 0 is listed twice"),
            std::string::npos)
      << repeated.status().message();
  auto empty = openNcclGroup({});
  EXPECT_EQ(empty.status().code(), StatusCode::kInvalidArgument);
  auto missing = openNcclGroup({0, 9});
  EXPECT_EQ(missing.status().code(), StatusCode::kUnavailable)
      << missing.status().toString();
  EXPECT_EQ(fakeNccl().initAllCalls, 0);
}

TEST_F(NcclTest, AnOldNcclIsRefusedWithItsVersion) {
  // The fake is loaded once per path; its version is read at load. A
  // second path to the same file is a fresh load.
  std::string other = ::testing::TempDir() + "kiln_fake_old_nccl.so";
  ASSERT_EQ(
      std::system(
          ("cp " + std::string(KILN_FAKE_CUDA_DRIVER) + " " + other).c_str()),
      0);
  setenv("KILN_NCCL_LIBRARY", other.c_str(), 1);
  void *library = dlopen(other.c_str(), RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(library, nullptr);
  auto *state = reinterpret_cast<FakeNcclState *(*)()>(
      dlsym(library, "kilnFakeNcclState"))();
  state->version = 21703; // 2.17.3
  auto description = ncclDescription();
  ASSERT_FALSE(description.isOk());
  EXPECT_EQ(description.status().code(), StatusCode::kUnimplemented);
  EXPECT_NE(description.status().message().find("NCCL 2.17.3"),
            std::string::npos)
      << description.status().message();
  EXPECT_NE(description.status().message().find("2.18.0 or newer"),
            std::string::npos)
      << description.status().message();
  std::remove(other.c_str());
}

TEST_F(NcclTest, NoNcclIsUnavailableAndSaysWhatToDo) {
  setenv("KILN_NCCL_LIBRARY", "/nonexistent/libnccl.so.2", 1);
  auto description = ncclDescription();
  ASSERT_FALSE(description.isOk());
  EXPECT_EQ(description.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(description.status().message().find("KILN_NCCL_LIBRARY"),
            std::string::npos)
      << description.status().message();
  auto group = openNcclGroup({0});
  EXPECT_EQ(group.status().code(), StatusCode::kUnavailable);
}

TEST_F(NcclTest, MeasuredAllReduceReportsBusBandwidth) {
  auto measured = measureNcclAllReduce({0, 1, 2, 3}, 1 << 16, 3);
  ASSERT_TRUE(measured.isOk()) << measured.status().toString();
  EXPECT_EQ(measured->ranks, 4);
  EXPECT_EQ(measured->bytes, size_t(1) << 16);
  EXPECT_GT(measured->medianMs, 0.0);
  // nccl-tests' factor: 2(n-1)/n.
  EXPECT_DOUBLE_EQ(measured->busGBps, measured->algorithmGBps * 1.5);
  auto odd = measureNcclAllReduce({0, 1}, 6, 3);
  EXPECT_EQ(odd.status().code(), StatusCode::kInvalidArgument);
}

TEST(NcclLibrary, TheRealLibraryResolvesEveryEntryPoint) {
  // No GPU is needed to load NCCL and read its version.
  const char *candidates[] = {"libnccl.so.2",
                              "/usr/local/cuda/lib64/libnccl.so.2"};
  const char *found = nullptr;
  for (const char *candidate : candidates)
    if (void *handle = dlopen(candidate, RTLD_LAZY | RTLD_LOCAL)) {
      dlclose(handle);
      found = candidate;
      break;
    }
  if (!found)
    GTEST_SKIP() << "no libnccl.so.2 on this machine";
  setenv("KILN_NCCL_LIBRARY", found, 1);
  auto description = ncclDescription();
  unsetenv("KILN_NCCL_LIBRARY");
  ASSERT_TRUE(description.isOk()) << description.status().toString();
  EXPECT_EQ(description->rfind("NCCL 2.", 0), 0u) << *description;
}

} // namespace
