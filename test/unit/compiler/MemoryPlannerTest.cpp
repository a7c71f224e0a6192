//===- MemoryPlannerTest.cpp - Arena packing ------------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The planner's promises: buffers live at the same step never share a byte,
// offsets are aligned, disjoint lifetimes share memory, in-place requests are
// honoured only when legal, and the reported figures are consistent.
//
//===----------------------------------------------------------------------===//

#include "compiler/MemoryPlanning/MemoryPlanner.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <random>

using namespace kiln::plan;

namespace {

bool liveTogether(const BufferRequest &a, const BufferRequest &b) {
  return a.firstUse <= b.lastUse && b.firstUse <= a.lastUse;
}

bool bytesOverlap(uint64_t aOffset, uint64_t aSize, uint64_t bOffset,
                  uint64_t bSize) {
  return aSize && bSize && aOffset < bOffset + bSize &&
         bOffset < aOffset + aSize;
}

/// Checks every promise of `plan` for `buffers`; in-place pairs are the one
/// allowed overlap.
void expectValid(const std::vector<BufferRequest> &buffers,
                 const MemoryPlan &plan, uint64_t alignment = 64) {
  ASSERT_EQ(plan.offsets.size(), buffers.size());
  // Buffers of one in-place chain share storage by design.
  auto chain = [&](size_t i) {
    while (plan.inPlace[i])
      i = size_t(buffers[i].reuses);
    return i;
  };
  uint64_t total = 0;
  for (size_t i = 0; i < buffers.size(); ++i) {
    total += buffers[i].size;
    EXPECT_EQ(plan.offsets[i] % alignment, 0u) << "buffer " << i;
    EXPECT_LE(plan.offsets[i] + buffers[i].size, plan.peakBytes)
        << "buffer " << i;
    for (size_t j = 0; j < i; ++j) {
      bool shared = chain(i) == chain(j);
      if (liveTogether(buffers[i], buffers[j]) && !shared)
        EXPECT_FALSE(bytesOverlap(plan.offsets[i], buffers[i].size,
                                  plan.offsets[j], buffers[j].size))
            << "buffers " << j << " and " << i << " overlap";
    }
  }
  EXPECT_EQ(plan.unplannedBytes, total);
  EXPECT_LE(plan.lowerBoundBytes, plan.peakBytes);
  EXPECT_EQ(plan.peakBytes % alignment, 0u);
}

TEST(MemoryPlannerTest, EmptyInput) {
  MemoryPlan plan = planMemory({});
  EXPECT_TRUE(plan.offsets.empty());
  EXPECT_EQ(plan.peakBytes, 0u);
  EXPECT_EQ(plan.lowerBoundBytes, 0u);
  EXPECT_EQ(plan.unplannedBytes, 0u);
}

TEST(MemoryPlannerTest, DisjointLifetimesShare) {
  std::vector<BufferRequest> buffers = {
      {1000, 0, 1}, {1000, 2, 3}, {1000, 4, 5}};
  MemoryPlan plan = planMemory(buffers);
  expectValid(buffers, plan);
  EXPECT_EQ(plan.offsets, (std::vector<uint64_t>{0, 0, 0}));
  EXPECT_EQ(plan.peakBytes, 1024u);
  EXPECT_EQ(plan.lowerBoundBytes, 1000u);
  EXPECT_EQ(plan.unplannedBytes, 3000u);
}

TEST(MemoryPlannerTest, OverlappingLifetimesNeverOverlapInMemory) {
  // A chain a -> b -> c where each op reads one buffer and writes the next:
  // neighbours overlap at their hand-over step, a and c do not.
  std::vector<BufferRequest> buffers = {{256, 0, 1}, {256, 1, 2}, {256, 2, 3}};
  MemoryPlan plan = planMemory(buffers);
  expectValid(buffers, plan);
  EXPECT_NE(plan.offsets[0], plan.offsets[1]);
  EXPECT_NE(plan.offsets[1], plan.offsets[2]);
  EXPECT_EQ(plan.offsets[0], plan.offsets[2]);
  EXPECT_EQ(plan.peakBytes, 512u);
  EXPECT_EQ(plan.lowerBoundBytes, 512u);
}

TEST(MemoryPlannerTest, AlignsEveryOffset) {
  std::vector<BufferRequest> buffers = {
      {1, 0, 5}, {3, 0, 5}, {65, 0, 5}, {7, 2, 3}};
  MemoryPlan plan = planMemory(buffers);
  expectValid(buffers, plan);
  EXPECT_EQ(plan.peakBytes, 64u + 64 + 128 + 64);
  MemoryPlan wide = planMemory(buffers, 256);
  expectValid(buffers, wide, 256);
}

TEST(MemoryPlannerTest, BestFitFillsTheSmallestHole) {
  // Largest first stacks long- and short-lived buffers alternately; once
  // the short ones die there are holes of 1024 and 512 bytes between the
  // long ones. A late 200-byte buffer fits both and goes into the smaller
  // (first fit would take the 1024-byte one).
  std::vector<BufferRequest> buffers = {
      {1024, 0, 9}, {1024, 0, 1}, // long, short
      {512, 0, 9},  {512, 0, 1},  //
      {256, 0, 9},  {256, 0, 1},  //
      {200, 5, 6},                // the late one
  };
  MemoryPlan plan = planMemory(buffers);
  expectValid(buffers, plan);
  EXPECT_EQ(plan.peakBytes, 3584u);
  EXPECT_EQ(plan.lowerBoundBytes, 3584u);
  EXPECT_EQ(plan.offsets[6], plan.offsets[3]);
  EXPECT_EQ(plan.offsets[3], 2560u);
}

TEST(MemoryPlannerTest, InPlaceTakesTheDonorsOffset) {
  // b is written by the op that reads a for the last time (step 1).
  std::vector<BufferRequest> buffers = {{4096, 0, 1}, {4096, 1, 2, 0}};
  MemoryPlan plan = planMemory(buffers);
  expectValid(buffers, plan);
  EXPECT_TRUE(plan.inPlace[1]);
  EXPECT_EQ(plan.offsets[1], plan.offsets[0]);
  EXPECT_EQ(plan.peakBytes, 4096u);
  EXPECT_EQ(plan.lowerBoundBytes, 4096u);
}

TEST(MemoryPlannerTest, InPlaceChainsShareOneOffset) {
  std::vector<BufferRequest> buffers = {
      {4096, 0, 1}, {4096, 1, 2, 0}, {4096, 2, 3, 1}, {64, 0, 3}};
  MemoryPlan plan = planMemory(buffers);
  expectValid(buffers, plan);
  EXPECT_TRUE(plan.inPlace[1] && plan.inPlace[2]);
  EXPECT_EQ(plan.offsets[2], plan.offsets[0]);
  EXPECT_EQ(plan.peakBytes, 4096u + 64);
}

TEST(MemoryPlannerTest, RefusesIllegalInPlaceRequests) {
  std::vector<BufferRequest> buffers = {
      {1024, 0, 3},    // 0: still live after step 1
      {1024, 1, 2, 0}, // 1: asks for 0, which is read later: refused
      {2048, 3, 4, 0}, // 2: larger than 0: refused
      {512, 5, 6},     // 3
      {512, 6, 7, 3},  // 4: takes 3
      {512, 6, 8, 3},  // 5: 3 is already taken by 4: refused
      {512, 9, 9, 9},  // 6: asks for a buffer that does not exist
      {512, 9, 9, 6},  // 7: takes 6, which dies at 9 where 7 is born
  };
  MemoryPlan plan = planMemory(buffers);
  expectValid(buffers, plan);
  EXPECT_FALSE(plan.inPlace[1]);
  EXPECT_FALSE(plan.inPlace[2]);
  EXPECT_TRUE(plan.inPlace[4]);
  EXPECT_FALSE(plan.inPlace[5]);
  EXPECT_FALSE(plan.inPlace[6]);
  EXPECT_TRUE(plan.inPlace[7]); // 6 dies at 9 where 7 is born: legal
}

TEST(MemoryPlannerTest, OneHugeBuffer) {
  uint64_t huge = uint64_t(1) << 40;
  std::vector<BufferRequest> buffers = {{huge, 0, 0}};
  MemoryPlan plan = planMemory(buffers);
  expectValid(buffers, plan);
  EXPECT_EQ(plan.offsets[0], 0u);
  EXPECT_EQ(plan.peakBytes, huge);
  EXPECT_EQ(plan.lowerBoundBytes, huge);
}

TEST(MemoryPlannerTest, ZeroSizedBuffersCostNothing) {
  std::vector<BufferRequest> buffers = {{0, 0, 4}, {64, 0, 4}, {0, 1, 2}};
  MemoryPlan plan = planMemory(buffers);
  expectValid(buffers, plan);
  EXPECT_EQ(plan.peakBytes, 64u);
}

TEST(MemoryPlannerTest, RandomPlansAreValid) {
  std::mt19937_64 random(12345);
  for (int trial = 0; trial < 300; ++trial) {
    size_t n = 1 + random() % 60;
    std::vector<BufferRequest> buffers;
    for (size_t i = 0; i < n; ++i) {
      BufferRequest b;
      b.size = random() % 4 == 0 ? random() % 70 : 1 + random() % 100000;
      b.firstUse = int64_t(random() % 50);
      b.lastUse = b.firstUse + int64_t(random() % 12);
      if (i > 0 && random() % 3 == 0)
        b.reuses = int64_t(random() % i);
      buffers.push_back(b);
    }
    // Make some in-place requests legal so that they are exercised.
    for (size_t i = 0; i < n; ++i)
      if (buffers[i].reuses >= 0 && random() % 2 == 0) {
        BufferRequest &donor = buffers[buffers[i].reuses];
        buffers[i].firstUse = donor.lastUse;
        buffers[i].lastUse = std::max(buffers[i].lastUse, donor.lastUse);
        buffers[i].size = std::min(buffers[i].size, donor.size);
      }
    MemoryPlan plan = planMemory(buffers);
    expectValid(buffers, plan);
    if (HasFailure())
      FAIL() << "trial " << trial;
  }
}

TEST(MemoryPlannerTest, RandomPlansStayNearTheLowerBound) {
  // Not a promise of the algorithm, a guard against regressions, on buffers
  // large enough that alignment padding does not matter.
  std::mt19937_64 random(777);
  double worst = 1.0, total = 0;
  const int trials = 200;
  for (int trial = 0; trial < trials; ++trial) {
    std::vector<BufferRequest> buffers;
    size_t n = 2 + random() % 80;
    for (size_t i = 0; i < n; ++i) {
      BufferRequest b;
      b.size = 4096 + random() % (1 << 20);
      b.firstUse = int64_t(random() % 100);
      b.lastUse = b.firstUse + int64_t(random() % 10);
      buffers.push_back(b);
    }
    MemoryPlan plan = planMemory(buffers);
    expectValid(buffers, plan);
    double r = double(plan.peakBytes) / plan.lowerBoundBytes;
    worst = std::max(worst, r);
    total += r;
  }
  EXPECT_LT(worst, 1.35);
  EXPECT_LT(total / trials, 1.10);
  std::printf("peak / lower bound: mean %.3f, worst %.3f\n", total / trials,
              worst);
}

} // namespace
