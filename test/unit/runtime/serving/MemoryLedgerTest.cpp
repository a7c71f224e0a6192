//===- MemoryLedgerTest.cpp - Reserved device memory ----------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/serving/MemoryLedger.h"

#include <gtest/gtest.h>

using namespace kiln::rt;
using namespace kiln::rt::serving;

namespace {

constexpr std::uint64_t kMiB = 1024 * 1024;

Footprint footprint(std::uint64_t weights, std::uint64_t arena,
                    std::uint64_t workspace) {
  return Footprint{weights * kMiB, arena * kMiB, workspace * kMiB};
}

TEST(MemoryLedgerTest, AdmitsWhatFitsAfterTheContextReserve) {
  MemoryLedger ledger("gpu0", 1000 * kMiB, 100 * kMiB);
  EXPECT_EQ(ledger.freeBytes(), 900 * kMiB);
  ASSERT_TRUE(ledger.reserve("a", footprint(400, 100, 50)).isOk());
  EXPECT_EQ(ledger.reservedBytes(), 550 * kMiB);
  EXPECT_EQ(ledger.freeBytes(), 350 * kMiB);
  // Exactly the rest fits.
  EXPECT_TRUE(ledger.reserve("b", footprint(300, 50, 0)).isOk());
  EXPECT_EQ(ledger.freeBytes(), 0u);
}

TEST(MemoryLedgerTest, RefusalIsTypedAndNamesModelDeviceAndBytes) {
  MemoryLedger ledger("gpu3", 1000 * kMiB, 100 * kMiB);
  ASSERT_TRUE(ledger.reserve("small", footprint(500, 0, 0)).isOk());
  Status refused = ledger.reserve("vit-large", footprint(300, 100, 1));
  ASSERT_FALSE(refused.isOk());
  EXPECT_EQ(refused.code(), StatusCode::kResourceExhausted);
  EXPECT_NE(refused.message().find("'vit-large'"), std::string::npos);
  EXPECT_NE(refused.message().find("'gpu3'"), std::string::npos);
  EXPECT_NE(refused.message().find(std::to_string(401 * kMiB)),
            std::string::npos)
      << refused.message();
  EXPECT_NE(refused.message().find(std::to_string(400 * kMiB) + " bytes free"),
            std::string::npos)
      << refused.message();
  // A refusal changes nothing.
  EXPECT_EQ(ledger.reservedBytes(), 500 * kMiB);
  EXPECT_FALSE(ledger.holds("vit-large"));
}

TEST(MemoryLedgerTest, ReleaseReturnsToBaseline) {
  MemoryLedger ledger("gpu0", 1000 * kMiB, 0);
  for (int cycle = 0; cycle < 100; ++cycle) {
    ASSERT_TRUE(ledger.reserve("a", footprint(300, 200, 10)).isOk());
    ASSERT_TRUE(ledger.reserve("b", footprint(100, 100, 10)).isOk());
    ASSERT_TRUE(ledger.release("a").isOk());
    ASSERT_TRUE(ledger.release("b").isOk());
  }
  EXPECT_EQ(ledger.reservedBytes(), 0u);
  EXPECT_EQ(ledger.freeBytes(), 1000 * kMiB);
  EXPECT_EQ(ledger.reservationCount(), 0u);
}

TEST(MemoryLedgerTest, DoubleReserveAndUnknownReleaseAreErrors) {
  MemoryLedger ledger("gpu0", 1000 * kMiB, 0);
  ASSERT_TRUE(ledger.reserve("a", footprint(1, 0, 0)).isOk());
  EXPECT_EQ(ledger.reserve("a", footprint(1, 0, 0)).code(),
            StatusCode::kFailedPrecondition);
  EXPECT_EQ(ledger.release("b").code(), StatusCode::kNotFound);
  EXPECT_EQ(ledger.reservedBytes(), 1 * kMiB);
}

TEST(MemoryLedgerTest, ReserveLargerThanCapacityNeverFits) {
  MemoryLedger ledger("gpu0", 100 * kMiB, 200 * kMiB);
  EXPECT_EQ(ledger.freeBytes(), 0u);
  EXPECT_EQ(ledger.reserve("a", footprint(1, 0, 0)).code(),
            StatusCode::kResourceExhausted);
}

} // namespace
