//===- TypeInferenceTest.cpp - Pure shape arithmetic of kiln ops ----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dialects/Graph/IR/TypeInference.h"

#include <gtest/gtest.h>

#include <limits>

using namespace kiln;

namespace {

TEST(BroadcastShapesTest, FollowsNumPyRules) {
  EXPECT_EQ(*broadcastShapes({2, 3}, {3}), (llvm::SmallVector<int64_t>{2, 3}));
  EXPECT_EQ(*broadcastShapes({4, 1, 5}, {3, 1}),
            (llvm::SmallVector<int64_t>{4, 3, 5}));
  EXPECT_EQ(*broadcastShapes({}, {2}), (llvm::SmallVector<int64_t>{2}));
  // A size-0 dimension broadcasts against 1 and stays 0.
  EXPECT_EQ(*broadcastShapes({0, 3}, {1, 3}), (llvm::SmallVector<int64_t>{0, 3}));
  EXPECT_FALSE(broadcastShapes({2, 3}, {4}).has_value());
}

TEST(BroadcastShapesTest, OneDirectional) {
  EXPECT_TRUE(isBroadcastableTo({3, 1}, {2, 3, 4}));
  EXPECT_FALSE(isBroadcastableTo({2, 3, 4}, {3, 4}));
  EXPECT_FALSE(isBroadcastableTo({2}, {3}));
}

TEST(AxisTest, NormalisesNegativeAxes) {
  EXPECT_EQ(normalizeAxis(-1, 3), 2);
  EXPECT_EQ(normalizeAxis(0, 3), 0);
  EXPECT_FALSE(normalizeAxis(3, 3).has_value());
  EXPECT_FALSE(normalizeAxis(-4, 3).has_value());
  EXPECT_FALSE(normalizeAxis(0, 0).has_value());
}

TEST(ElementCountTest, DetectsOverflowAndNegativeDims) {
  EXPECT_EQ(checkedElementCount({2, 3, 4}), 24);
  EXPECT_EQ(checkedElementCount({}), 1);
  EXPECT_FALSE(checkedElementCount({-1, 4}).has_value());
  int64_t big = std::numeric_limits<int64_t>::max() / 2;
  EXPECT_FALSE(checkedElementCount({big, 3}).has_value());
}

TEST(WindowTest, MatchesConvolutionArithmetic) {
  // ResNet stem: 224, k7, s2, p3 -> 112.
  EXPECT_EQ(windowOutputSize(224, 7, 2, 3, 3, 1, false), 112);
  // Max pool 112, k3, s2, p1 -> 56.
  EXPECT_EQ(windowOutputSize(112, 3, 2, 1, 1, 1, false), 56);
  // Dilation 2 widens a 3-tap window to 5.
  EXPECT_EQ(windowOutputSize(7, 3, 1, 0, 0, 2, false), 3);
  // Does not fit.
  EXPECT_LE(windowOutputSize(2, 3, 1, 0, 0, 1, false), 0);
}

TEST(WindowTest, CeilModeNeverStartsInTrailingPadding) {
  // 5 wide, k2 s2: floor gives 2, ceil gives 3 (last window half outside).
  EXPECT_EQ(windowOutputSize(5, 2, 2, 0, 0, 1, false), 2);
  EXPECT_EQ(windowOutputSize(5, 2, 2, 0, 0, 1, true), 3);
  // 4 wide, k2 s2, pad 1+1: ceil would add a window starting in the
  // trailing padding; it is dropped.
  EXPECT_EQ(windowOutputSize(4, 2, 2, 1, 1, 1, true), 3);
}

TEST(SliceTest, CountsSelectedElements) {
  EXPECT_EQ(sliceLength(0, 10, 1), 10);
  EXPECT_EQ(sliceLength(2, 8, 2), 3);
  EXPECT_EQ(sliceLength(9, -1, -1), 10);
  EXPECT_EQ(sliceLength(9, 0, -3), 3);
  EXPECT_EQ(sliceLength(5, 5, 1), 0);
}

} // namespace
