//===- VersionPolicyTest.cpp - Which versions of a model are served -------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "VersionPolicy.h"

#include <gtest/gtest.h>

using namespace kiln::serve;

namespace {

VersionPolicy parsed(const std::string &text) {
  auto policy = VersionPolicy::parse(text);
  EXPECT_TRUE(policy.isOk()) << text << ": " << policy.status().message();
  return policy.isOk() ? *policy : VersionPolicy();
}

std::string error(const std::string &text) {
  auto policy = VersionPolicy::parse(text);
  EXPECT_FALSE(policy.isOk()) << text;
  return policy.isOk() ? "" : policy.status().message();
}

} // namespace

TEST(VersionPolicyTest, SelectsAsTritonDoes) {
  std::vector<int> there = {1, 2, 5, 9};
  EXPECT_EQ(parsed("latest").select(there), (std::vector<int>{9}));
  EXPECT_EQ(parsed("latest:2").select(there), (std::vector<int>{5, 9}));
  EXPECT_EQ(parsed("latest:10").select(there), there);
  EXPECT_EQ(parsed("all").select(there), there);
  EXPECT_EQ(parsed("specific:5,1,7,5").select(there), (std::vector<int>{1, 5}));
  EXPECT_TRUE(parsed("specific:3").select(there).empty());
  EXPECT_TRUE(parsed("latest").select({}).empty());
}

TEST(VersionPolicyTest, OnlyLatestOneRolls) {
  EXPECT_TRUE(parsed("latest").rolling());
  EXPECT_TRUE(parsed("latest:1").rolling());
  EXPECT_TRUE(VersionPolicy().rolling()) << "the default";
  EXPECT_FALSE(parsed("latest:2").rolling());
  EXPECT_FALSE(parsed("all").rolling());
  EXPECT_FALSE(parsed("specific:1").rolling());
}

TEST(VersionPolicyTest, PrintsWhatItParses) {
  for (const char *text : {"latest", "latest:3", "all", "specific:1,4"})
    EXPECT_EQ(parsed(text).str(), text);
  EXPECT_EQ(parsed("latest:1").str(), "latest");
  EXPECT_EQ(parsed("specific:4,1,4").str(), "specific:1,4");
}

TEST(VersionPolicyTest, RefusesWhatItCannotRead) {
  EXPECT_EQ(error("newest"), "version policy 'newest': unknown policy "
                             "'newest' (expected latest, latest:N, all or "
                             "specific:V[,V...])");
  EXPECT_NE(error("latest:0").find("'0' is not a positive count"),
            std::string::npos);
  EXPECT_NE(error("latest:-1").find("not a positive count"), std::string::npos);
  EXPECT_NE(error("all:1").find("'all' takes no versions"), std::string::npos);
  EXPECT_NE(error("specific").find("needs at least one version"),
            std::string::npos);
  EXPECT_NE(error("specific:1,,2").find("'' is not a version number"),
            std::string::npos);
  EXPECT_NE(error("specific:1,x").find("'x' is not a version number"),
            std::string::npos);
  EXPECT_NE(error("specific:01").find("'01'"), std::string::npos);
  EXPECT_NE(error("").find("unknown policy ''"), std::string::npos);
}

TEST(VersionPolicyTest, PoolNamesSplitIntoModelAndVersion) {
  ServedName rolling = ServedName::parse("bert");
  EXPECT_EQ(rolling.model, "bert");
  EXPECT_EQ(rolling.version, 0);
  EXPECT_EQ(rolling.poolName(), "bert");
  EXPECT_EQ(rolling.describe(), "model 'bert'");
  ServedName pinned = ServedName::parse("bert/12");
  EXPECT_EQ(pinned.model, "bert");
  EXPECT_EQ(pinned.version, 12);
  EXPECT_EQ(pinned.poolName(), "bert/12");
  EXPECT_EQ(pinned.describe(), "model 'bert' version 12");
}
