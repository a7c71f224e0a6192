//===- ConstantFoldingTest.cpp - Index helpers of the constant folder -----===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dialects/Graph/IR/ConstantFolding.h"

#include <gtest/gtest.h>

using namespace kiln::folding;

namespace {

TEST(ForEachIndexTest, VisitsRowMajor) {
  std::vector<std::vector<int64_t>> seen;
  forEachIndex({2, 2}, [&](llvm::ArrayRef<int64_t> index) {
    seen.emplace_back(index.begin(), index.end());
  });
  EXPECT_EQ(seen, (std::vector<std::vector<int64_t>>{
                      {0, 0}, {0, 1}, {1, 0}, {1, 1}}));
}

TEST(ForEachIndexTest, ScalarOnceEmptyNever) {
  int scalarVisits = 0, emptyVisits = 0;
  forEachIndex({}, [&](llvm::ArrayRef<int64_t>) { ++scalarVisits; });
  forEachIndex({3, 0}, [&](llvm::ArrayRef<int64_t>) { ++emptyVisits; });
  EXPECT_EQ(scalarVisits, 1);
  EXPECT_EQ(emptyVisits, 0);
}

TEST(BroadcastLinearIndexTest, IgnoresBroadcastDimensions) {
  // Shape [3] right-aligned against index [i, j]: only j counts.
  EXPECT_EQ(broadcastLinearIndex({1, 2}, {3}), 2);
  // Shape [2, 1]: j is broadcast.
  EXPECT_EQ(broadcastLinearIndex({1, 2}, {2, 1}), 1);
  EXPECT_EQ(broadcastLinearIndex({1, 2}, {2, 3}), 5);
}

} // namespace
