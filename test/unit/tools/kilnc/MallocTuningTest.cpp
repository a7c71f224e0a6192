//===- MallocTuningTest.cpp - When kilnc restarts with tuned malloc -------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "MallocTuning.h"

#include <gtest/gtest.h>

namespace {

using kiln::tools::tunedMallocTunables;

TEST(MallocTuningTest, TunesAnUnsetOrEmptyEnvironment) {
  for (const char *current : {static_cast<const char *>(nullptr), ""}) {
    std::optional<std::string> tunables = tunedMallocTunables(current);
    ASSERT_TRUE(tunables);
    EXPECT_NE(tunables->find("glibc.malloc.hugetlb=1"), std::string::npos);
    EXPECT_NE(tunables->find("glibc.malloc.mmap_threshold="),
              std::string::npos);
    EXPECT_NE(tunables->front(), ':');
  }
}

TEST(MallocTuningTest, KeepsOtherTunables) {
  std::optional<std::string> tunables =
      tunedMallocTunables("glibc.pthread.rseq=0");
  ASSERT_TRUE(tunables);
  EXPECT_EQ(tunables->rfind("glibc.pthread.rseq=0:", 0), 0u);
  EXPECT_NE(tunables->find("glibc.malloc.hugetlb=1"), std::string::npos);
}

TEST(MallocTuningTest, LeavesACallersMallocSettingsAlone) {
  EXPECT_FALSE(tunedMallocTunables("glibc.malloc.hugetlb=0"));
  EXPECT_FALSE(
      tunedMallocTunables("glibc.pthread.rseq=0:glibc.malloc.check=3"));
}

TEST(MallocTuningTest, LeavesGlibcsOlderMallocVariablesAlone) {
  char trim[] = "MALLOC_TRIM_THRESHOLD_=0", path[] = "PATH=/usr/bin",
       check[] = "MALLOC_CHECK_=3", kiln[] = "MALLOC_ARENA=1";
  char *tuned[] = {path, trim, nullptr};
  EXPECT_TRUE(kiln::tools::hasMallocVariables(tuned));
  char *checked[] = {check, nullptr};
  EXPECT_TRUE(kiln::tools::hasMallocVariables(checked));
  // Not one of glibc's (no trailing underscore).
  char *other[] = {path, kiln, nullptr};
  EXPECT_FALSE(kiln::tools::hasMallocVariables(other));
  EXPECT_FALSE(kiln::tools::hasMallocVariables(nullptr));
}

} // namespace
