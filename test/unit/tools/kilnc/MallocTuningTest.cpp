//===- MallocTuningTest.cpp - When kilnc restarts with tuned malloc -------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "MallocTuning.h"

#include <gtest/gtest.h>

namespace {

using kiln::tools::modelArgument;
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

TEST(MallocTuningTest, FindsTheModelAfterTheCommand) {
  char kilnc[] = "kilnc", compile[] = "compile", option[] = "--fusion=none",
       model[] = "model.onnx", out[] = "-o", artifact[] = "m.kiln";
  char *argv[] = {kilnc, compile, option, model, out, artifact};
  EXPECT_EQ(modelArgument(6, argv), "model.onnx");
  char *outputFirst[] = {kilnc, compile, out, artifact, model};
  EXPECT_EQ(modelArgument(5, outputFirst), "model.onnx");
  char *onlyOptions[] = {kilnc, compile, option, out, artifact};
  EXPECT_EQ(modelArgument(5, onlyOptions), "");
}

} // namespace
