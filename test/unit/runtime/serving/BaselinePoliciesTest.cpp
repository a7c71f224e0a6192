//===- BaselinePoliciesTest.cpp - Join-the-shortest-queue and Triton ------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The two baselines that stand for what operators run today, in virtual
// time: each does what its model does and nothing Kiln's policy adds.
//
//===----------------------------------------------------------------------===//

#include "PoolHarness.h"

using namespace kiln::rt;
using namespace kiln::rt::serving;
using namespace kiln::rt::serving::testing;

namespace {

PoolOptions optionsFor(PolicyKind policy, Micros batchWindow = 0) {
  PoolOptions options;
  options.queue.priorityLevels = 2;
  options.policy = policy;
  options.batchWindow = batchWindow;
  return options;
}

TEST(BaselinePoliciesTest, ShortestQueueAvoidsTheBusyReplica) {
  // Device 0 holds two 50 ms requests of b (b is only there); a runs on
  // both. Round-robin would put every other a behind them.
  PoolHarness h(optionsFor(PolicyKind::kShortestQueue));
  h.addDevice(1000);
  h.addDevice(1000);
  h.addModel("a", 100, {{1, 10.0}});
  h.addModel("b", 100, {{1, 50.0}});
  h.pool.start();
  h.loadNow("a", 0);
  h.loadNow("a", 1);
  h.loadNow("b", 0);
  double t = microsToMillis(h.clock.now());
  h.submitAt(t, 1, "b", 1);
  h.submitAt(t, 2, "b", 1);
  h.submitAt(t + 1, 3, "a", 1);
  h.submitAt(t + 1, 4, "a", 1);
  h.events.runAll();
  for (RequestId id : {3, 4}) {
    ASSERT_NE(h.responseFor(id), nullptr);
    EXPECT_EQ(h.responseFor(id)->device, 1) << "request " << id;
  }
  EXPECT_NEAR(microsToMillis(h.responseFor(4)->finish) - t, 21.0, 0.01);

  PoolHarness rr(optionsFor(PolicyKind::kRoundRobin));
  rr.addDevice(1000);
  rr.addDevice(1000);
  rr.addModel("a", 100, {{1, 10.0}});
  rr.addModel("b", 100, {{1, 50.0}});
  rr.pool.start();
  rr.loadNow("a", 0);
  rr.loadNow("a", 1);
  rr.loadNow("b", 0);
  t = microsToMillis(rr.clock.now());
  rr.submitAt(t, 1, "b", 1);
  rr.submitAt(t, 2, "b", 1);
  rr.submitAt(t + 1, 3, "a", 1);
  rr.submitAt(t + 1, 4, "a", 1);
  rr.events.runAll();
  EXPECT_EQ(rr.responseFor(3)->device, 0);
  EXPECT_GT(microsToMillis(rr.responseFor(3)->finish) - t, 100.0);
}

TEST(BaselinePoliciesTest, TritonBatchesUpToTheLargestVariant) {
  // Without a queue delay the first request runs alone at once and the
  // six behind it run as one batch.
  PoolHarness now(optionsFor(PolicyKind::kTritonLike));
  now.addDevice(1000);
  now.addModel("a", 100, {{1, 10.0}, {4, 12.0}, {8, 20.0}});
  now.pool.start();
  now.loadNow("a", 0);
  double t = microsToMillis(now.clock.now());
  for (RequestId id = 1; id <= 7; ++id)
    now.submitAt(t, id, "a", 1);
  now.events.runAll();
  EXPECT_EQ(now.pool.counters().batches, 2u);
  EXPECT_EQ(now.responseFor(1)->batchSize, 1);
  EXPECT_EQ(now.responseFor(7)->batchSize, 6);

  // With one (max_queue_delay), the seven wait for each other: one batch.
  PoolHarness held(optionsFor(PolicyKind::kTritonLike, millisToMicros(2)));
  held.addDevice(1000);
  held.addModel("a", 100, {{1, 10.0}, {4, 12.0}, {8, 20.0}});
  held.pool.start();
  held.loadNow("a", 0);
  t = microsToMillis(held.clock.now());
  for (RequestId id = 1; id <= 7; ++id)
    held.submitAt(t, id, "a", 1);
  held.events.runAll();
  EXPECT_EQ(held.pool.counters().batches, 1u);
  EXPECT_EQ(held.responseFor(1)->batchSize, 7);
  EXPECT_NEAR(microsToMillis(held.responseFor(1)->finish) - t, 22.0, 0.01);
}

TEST(BaselinePoliciesTest, TritonHasStrictLevelsButNoAdmissionOrAging) {
  PoolHarness h(optionsFor(PolicyKind::kTritonLike));
  h.addDevice(1000);
  h.addModel("a", 100, {{1, 10.0}});
  h.pool.start();
  h.loadNow("a", 0);
  double t = microsToMillis(h.clock.now());
  h.submitAt(t, 1, "a", 1);      // runs at once
  h.submitAt(t + 1, 2, "a", 1);  // queued low
  h.submitAt(t + 2, 3, "a", 0);  // queued high: goes first
  // Due in 5 ms behind 20 ms of work: Kiln's policy refuses it at once;
  // Triton runs it, late.
  h.submitAt(t + 3, 4, "a", 1, /*sloMs=*/5);
  h.events.runAll();
  EXPECT_LT(h.responseFor(3)->finish, h.responseFor(2)->finish);
  ASSERT_NE(h.responseFor(4), nullptr);
  EXPECT_EQ(h.responseFor(4)->outcome, Outcome::kCompleted);
  EXPECT_GT(h.responseFor(4)->finish, millisToMicros(t + 3 + 5));
}

TEST(BaselinePoliciesTest, TritonRunsTheModelThatHasWaitedLongest) {
  PoolHarness h(optionsFor(PolicyKind::kTritonLike));
  h.addDevice(1000);
  h.addModel("a", 100, {{1, 10.0}});
  h.addModel("b", 100, {{1, 10.0}});
  h.pool.start();
  h.loadNow("a", 0);
  h.loadNow("b", 0);
  double t = microsToMillis(h.clock.now());
  h.submitAt(t, 1, "a", 1);     // runs at once
  h.submitAt(t + 1, 2, "b", 1); // waits longest
  h.submitAt(t + 2, 3, "a", 1);
  h.events.runAll();
  EXPECT_LT(h.responseFor(2)->finish, h.responseFor(3)->finish);
}

} // namespace
