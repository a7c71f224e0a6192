//===- StatusTest.cpp - Status and StatusOr -------------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/Status.h"

#include <gtest/gtest.h>

using namespace kiln::rt;

namespace {

Status failsWhen(bool fail) {
  if (fail)
    return invalidArgument("bad input");
  return Status::ok();
}

Status propagates(bool fail, bool &reachedEnd) {
  KILN_RETURN_IF_ERROR(failsWhen(fail));
  reachedEnd = true;
  return Status::ok();
}

TEST(StatusTest, OkByDefault) {
  Status status;
  EXPECT_TRUE(status.isOk());
  EXPECT_EQ(status.toString(), "OK");
}

TEST(StatusTest, CarriesCodeAndMessage) {
  Status status = dataLoss("file is truncated");
  EXPECT_FALSE(status.isOk());
  EXPECT_EQ(status.code(), StatusCode::kDataLoss);
  EXPECT_EQ(status.toString(), "DATA_LOSS: file is truncated");
}

TEST(StatusTest, CollectiveFailuresHaveNames) {
  EXPECT_EQ(aborted("rank 1 aborted").toString(), "ABORTED: rank 1 aborted");
  EXPECT_EQ(deadlineExceeded("allReduce #3").toString(),
            "DEADLINE_EXCEEDED: allReduce #3");
}

TEST(StatusTest, ContextIsPrefixedOnlyToErrors) {
  EXPECT_EQ(notFound("x").withContext("loading m.kiln").message(),
            "loading m.kiln: x");
  EXPECT_TRUE(Status::ok().withContext("ignored").isOk());
}

TEST(StatusTest, ReturnIfErrorStopsEarly) {
  bool reached = false;
  EXPECT_FALSE(propagates(true, reached).isOk());
  EXPECT_FALSE(reached);
  EXPECT_TRUE(propagates(false, reached).isOk());
  EXPECT_TRUE(reached);
}

TEST(StatusOrTest, HoldsValueOrError) {
  StatusOr<int> value = 42;
  ASSERT_TRUE(value.isOk());
  EXPECT_EQ(*value, 42);
  StatusOr<int> error = unimplemented("no");
  EXPECT_FALSE(error.isOk());
  EXPECT_EQ(error.status().code(), StatusCode::kUnimplemented);
}

} // namespace
