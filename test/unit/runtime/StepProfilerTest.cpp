//===- StepProfilerTest.cpp - Slices of runs and steps --------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/StepProfiler.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <thread>

using namespace kiln::rt;

namespace {

TEST(StepProfilerTest, RecordsARunSliceAndOneSlicePerStepPerRun) {
  Step step;
  RunBuffers buffers;
  StepProfiler profiler(2);
  for (int run = 0; run < 3; ++run) {
    profiler.beginRun();
    for (uint32_t i = 0; i < 2; ++i) {
      profiler.beforeStep({i, &step, &buffers});
      profiler.afterStep({i, &step, &buffers});
    }
    profiler.endRun();
  }
  EXPECT_EQ(profiler.runs(), 3u);
  std::vector<ProfileSlice> slices = profiler.slices();
  ASSERT_EQ(slices.size(), 9u);
  for (const ProfileSlice &slice : slices) {
    EXPECT_LE(slice.begin, slice.end);
    EXPECT_EQ(slice.thread, 0u); // All on the caller's thread.
  }
  // Each run's steps lie inside its run slice.
  for (const ProfileSlice &run : slices) {
    if (run.step != kRunSlice)
      continue;
    for (const ProfileSlice &step : slices)
      if (step.step != kRunSlice && step.run == run.run) {
        EXPECT_GE(step.begin, run.begin);
        EXPECT_LE(step.end, run.end);
      }
  }
}

TEST(StepProfilerTest, ADeviceTimedStepGetsADeviceSliceToo) {
  Step step;
  RunBuffers buffers;
  StepProfiler profiler(1);
  profiler.beginRun();
  profiler.beforeStep({0, &step, &buffers});
  std::this_thread::sleep_for(std::chrono::milliseconds(2));
  StepEvent done{0, &step, &buffers};
  done.deviceNanoseconds = 1000000;
  profiler.afterStep(done);
  profiler.endRun();
  std::vector<ProfileSlice> slices = profiler.slices();
  ASSERT_EQ(slices.size(), 3u);
  auto device = std::find_if(slices.begin(), slices.end(),
                             [](const ProfileSlice &s) { return s.device; });
  auto host = std::find_if(slices.begin(), slices.end(), [](const auto &s) {
    return !s.device && s.step == 0;
  });
  ASSERT_NE(device, slices.end());
  ASSERT_NE(host, slices.end());
  // It lasts the device time and ends with the host's slice.
  EXPECT_EQ(device->end - device->begin, 1000000);
  EXPECT_EQ(device->end, host->end);
  EXPECT_GE(device->begin, host->begin);
}

TEST(StepProfilerTest, NumbersThreadsAndKeepsAStepOnItsStartingThread) {
  Step step;
  RunBuffers buffers;
  StepProfiler profiler(3);
  profiler.beginRun();
  profiler.beforeStep({0, &step, &buffers});
  // Step 1 starts on another thread; its end is seen on this one.
  std::thread other([&] { profiler.beforeStep({1, &step, &buffers}); });
  other.join();
  profiler.afterStep({1, &step, &buffers});
  profiler.afterStep({0, &step, &buffers});
  // An index beyond the program is ignored, not written out of bounds.
  profiler.beforeStep({7, &step, &buffers});
  profiler.afterStep({7, &step, &buffers});
  profiler.endRun();
  std::vector<ProfileSlice> slices = profiler.slices();
  ASSERT_EQ(slices.size(), 3u);
  auto find = [&](uint32_t index) {
    return *std::find_if(
        slices.begin(), slices.end(),
        [&](const ProfileSlice &s) { return s.step == index; });
  };
  EXPECT_EQ(find(0).thread, 0u);
  EXPECT_EQ(find(1).thread, 1u);
}

} // namespace
