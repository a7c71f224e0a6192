//===- DevicePoolTest.cpp - The resource manager's mechanics and policy ---===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Behaviour of DevicePool with the Kiln policy (and the baselines where they
// differ), all in virtual time on simulated devices.
//
//===----------------------------------------------------------------------===//

#include "PoolHarness.h"

#include "kiln/runtime/serving/Arrivals.h"
#include "kiln/runtime/serving/Placement.h"

#include <set>

using namespace kiln::rt;
using namespace kiln::rt::serving;
using namespace kiln::rt::serving::testing;

namespace {

PoolOptions kilnOptions() {
  PoolOptions options;
  options.queue.priorityLevels = 2;
  return options;
}

TEST(DevicePoolTest, LoadThatDoesNotFitIsRefusedAndUnloadReturnsMemory) {
  PoolHarness h(kilnOptions());
  h.addDevice(1000, "gpu0");
  h.addModel("a", 600, {{1, 1.0}});
  h.addModel("b", 500, {{1, 1.0}});
  h.pool.start();
  h.loadNow("a", 0);
  EXPECT_EQ(h.pool.ledger(0).reservedBytes(), 600 * kMiB);

  Status refused = h.pool.loadModel("b", 0);
  EXPECT_EQ(refused.code(), StatusCode::kResourceExhausted);
  EXPECT_NE(refused.message().find("'b'"), std::string::npos);
  EXPECT_NE(refused.message().find("'gpu0'"), std::string::npos);
  EXPECT_EQ(h.pool.replicaState(1, 0), ReplicaState::kAbsent);

  ASSERT_TRUE(h.pool.unloadModel("a", 0).isOk());
  EXPECT_EQ(h.pool.ledger(0).reservedBytes(), 0u);
  h.loadNow("b", 0);
  EXPECT_EQ(h.pool.replicaState(1, 0), ReplicaState::kReady);
  EXPECT_EQ(h.pool.loadModel("nope", 0).code(), StatusCode::kNotFound);
  EXPECT_EQ(h.pool.loadModel("b", 0).code(), StatusCode::kFailedPrecondition);
}

TEST(DevicePoolTest, UnloadWaitsForTheRunningBatch) {
  PoolHarness h(kilnOptions());
  h.addDevice(1000);
  h.addModel("a", 100, {{1, 10.0}});
  h.pool.start();
  h.loadNow("a", 0);
  Micros start = h.clock.now();
  h.submitAt(microsToMillis(start), 1, "a");
  h.events.runUntil(start + 1000);
  ASSERT_TRUE(h.pool.unloadModel("a", 0).isOk());
  // Draining: no new work, memory still held by the running batch.
  EXPECT_EQ(h.pool.replicaState(0, 0), ReplicaState::kDraining);
  EXPECT_EQ(h.pool.ledger(0).reservedBytes(), 100 * kMiB);
  h.events.runAll();
  EXPECT_EQ(h.pool.ledger(0).reservedBytes(), 0u);
  ASSERT_NE(h.responseFor(1), nullptr);
  EXPECT_EQ(h.responseFor(1)->outcome, Outcome::kCompleted);
}

TEST(DevicePoolTest, HighPriorityBypassesQueuedLowPriority) {
  PoolOptions options = kilnOptions();
  options.batching = false;
  PoolHarness h(options);
  h.addDevice(1000);
  h.addModel("a", 100, {{1, 10.0}});
  h.pool.start();
  h.loadNow("a", 0);
  double t = microsToMillis(h.clock.now());
  for (RequestId id = 1; id <= 4; ++id)
    h.submitAt(t, id, "a", /*priority=*/1);
  h.submitAt(t + 1, 5, "a", /*priority=*/0);
  h.events.runAll();
  // Request 1 was already running; the high one goes next.
  EXPECT_LT(h.responseFor(5)->finish, h.responseFor(2)->finish);
  EXPECT_EQ(h.responseFor(5)->finish - h.responseFor(1)->finish, 10'000);
}

TEST(DevicePoolTest, AModelAddedWhileServingIsQueuedAndServed) {
  // kiln-serve's repository API adds models to a running pool; every
  // policy must grow its per-model state.
  for (PolicyKind policy :
       {PolicyKind::kKiln, PolicyKind::kFifo, PolicyKind::kRoundRobin,
        PolicyKind::kShortestQueue, PolicyKind::kTritonLike}) {
    PoolOptions options = kilnOptions();
    options.policy = policy;
    PoolHarness h(options);
    h.addDevice(1000);
    h.addModel("a", 100, {{1, 10.0}});
    h.pool.start();
    h.loadNow("a", 0);
    h.addModel("late", 100, {{1, 5.0}});
    h.loadNow("late", 0);
    double t = microsToMillis(h.clock.now());
    h.submitAt(t, 1, "late", /*priority=*/1);
    h.submitAt(t, 2, "a", /*priority=*/1);
    h.events.runAll();
    ASSERT_NE(h.responseFor(1), nullptr) << policyKindName(policy);
    EXPECT_EQ(h.responseFor(1)->outcome, Outcome::kCompleted);
    EXPECT_EQ(h.responseFor(2)->outcome, Outcome::kCompleted);
  }
}

TEST(DevicePoolTest, AgingBoundsTheWaitOfLowPriorityUnderAHighFlood) {
  // High-priority requests keep the device exactly busy for 200 ms; one
  // low-priority request arrives at the start.
  for (Micros aging : {Micros(0), Micros(20'000)}) {
    PoolOptions options = kilnOptions();
    options.batching = false;
    options.deadlineAdmission = false;
    options.queue.agingStep = aging;
    PoolHarness h(options);
    h.addDevice(1000);
    h.addModel("a", 100, {{1, 1.0}});
    h.pool.start();
    h.loadNow("a", 0);
    double t = microsToMillis(h.clock.now());
    RequestId id = 2;
    for (int i = 0; i < 400; ++i) // Two per millisecond: a backlog builds.
      h.submitAt(t + 0.5 * i, id++, "a", 0);
    h.submitAt(t + 0.25, 1, "a", 1);
    h.events.runAll();
    Micros wait = h.responseFor(1)->latency();
    if (aging > 0)
      EXPECT_LE(wait, aging + 2'000) << "one level to climb, then FIFO";
    else
      EXPECT_GE(wait, 390'000) << "without aging it waits for the flood";
  }
}

TEST(DevicePoolTest, RejectsAtAdmissionWhatCannotMakeItsDeadline) {
  PoolOptions options = kilnOptions();
  options.batching = false;
  PoolHarness h(options);
  h.addDevice(1000);
  h.addModel("a", 100, {{1, 10.0}});
  h.pool.start();
  h.loadNow("a", 0);
  double t = microsToMillis(h.clock.now());
  h.submitAt(t, 1, "a", 1, /*sloMs=*/15);
  h.submitAt(t, 2, "a", 1, /*sloMs=*/15); // Would finish at 20 ms.
  h.submitAt(t, 3, "a", 1, /*sloMs=*/25); // Finishes at 20 ms: admitted.
  h.events.runAll();
  EXPECT_TRUE(h.responseFor(1)->metDeadline());
  EXPECT_EQ(h.responseFor(2)->outcome, Outcome::kRejected);
  EXPECT_EQ(h.responseFor(2)->reason, RejectReason::kDeadlineInfeasible);
  EXPECT_EQ(h.responseFor(2)->finish, h.responseFor(2)->arrival)
      << "rejected at once, not after waiting";
  EXPECT_TRUE(h.responseFor(3)->metDeadline());
}

TEST(DevicePoolTest, DropsQueuedRequestsThatBecameInfeasible) {
  PoolOptions options = kilnOptions();
  options.batching = false;
  PoolHarness h(options);
  h.addDevice(1000);
  h.addModel("a", 100, {{1, 10.0}});
  h.pool.start();
  h.loadNow("a", 0);
  double t = microsToMillis(h.clock.now());
  h.submitAt(t, 1, "a", 1);
  h.submitAt(t + 1, 2, "a", 1, /*sloMs=*/25); // 20 <= 26: admitted.
  h.submitAt(t + 2, 3, "a", 0);               // Bypasses request 2.
  h.events.runAll();
  const Response *dropped = h.responseFor(2);
  EXPECT_EQ(dropped->reason, RejectReason::kDeadlineExpired);
  // Dropped when the device came free at 20 ms, and it was truly late:
  // 20 + 10 > 26.
  EXPECT_EQ(dropped->finish, millisToMicros(t + 20));
  EXPECT_GT(dropped->finish + 10'000, dropped->deadline);
  EXPECT_EQ(h.responseFor(3)->outcome, Outcome::kCompleted);
}

TEST(DevicePoolTest, FullQueueIsBackPressureWithAReason) {
  PoolOptions options = kilnOptions();
  options.batching = false;
  options.queue.capacityPerLevel = 2;
  PoolHarness h(options);
  h.addDevice(1000);
  h.addModel("a", 100, {{1, 10.0}});
  h.pool.start();
  h.loadNow("a", 0);
  double t = microsToMillis(h.clock.now());
  for (RequestId id = 1; id <= 5; ++id)
    h.submitAt(t, id, "a", 1);
  h.submitAt(t, 6, "a", 0); // Its own level has room.
  h.events.runAll();
  int completed = 0, full = 0;
  for (const Response &r : h.responses) {
    completed += r.outcome == Outcome::kCompleted;
    full += r.reason == RejectReason::kQueueFull;
  }
  EXPECT_EQ(completed, 4); // One running, two queued, the high one.
  EXPECT_EQ(full, 2);
  EXPECT_EQ(h.responseFor(6)->outcome, Outcome::kCompleted);
}

TEST(DevicePoolTest, CancellationAnswersOnceAndOnlyQueuedRequests) {
  PoolOptions options = kilnOptions();
  options.batching = false;
  PoolHarness h(options);
  h.addDevice(1000);
  h.addModel("a", 100, {{1, 10.0}});
  h.pool.start();
  h.loadNow("a", 0);
  double t = microsToMillis(h.clock.now());
  h.submitAt(t, 1, "a");
  h.submitAt(t, 2, "a");
  h.events.runUntil(millisToMicros(t + 1));
  EXPECT_FALSE(h.pool.cancel(1)) << "already running";
  EXPECT_TRUE(h.pool.cancel(2));
  EXPECT_FALSE(h.pool.cancel(2)) << "already answered";
  EXPECT_FALSE(h.pool.cancel(99));
  h.events.runAll();
  EXPECT_EQ(h.responseFor(1)->outcome, Outcome::kCompleted);
  EXPECT_EQ(h.responseFor(2)->outcome, Outcome::kCancelled);
  EXPECT_EQ(h.responses.size(), 2u);
}

TEST(DevicePoolTest, BatchingPicksTheVariantWithTheBestThroughput) {
  PoolHarness h(kilnOptions());
  h.addDevice(1000);
  // Padding 6 requests to 8 costs more than it gains: 4 / 12 ms beats
  // 6 / 20 ms.
  h.addModel("a", 100, {{1, 10.0}, {4, 12.0}, {8, 20.0}});
  h.pool.start();
  h.loadNow("a", 0);
  double t = microsToMillis(h.clock.now());
  for (RequestId id = 1; id <= 7; ++id)
    h.submitAt(t, id, "a", 1);
  h.events.runAll();
  std::vector<int> sizes;
  for (const Response &r : h.responses)
    sizes.push_back(r.batchSize);
  EXPECT_EQ(sizes, (std::vector<int>{1, 4, 4, 4, 4, 2, 2}));
  EXPECT_EQ(h.pool.counters().batches, 3u);

  // The FIFO baseline never batches.
  PoolOptions fifo = kilnOptions();
  fifo.policy = PolicyKind::kFifo;
  PoolHarness b(fifo);
  b.addDevice(1000);
  b.addModel("a", 100, {{1, 10.0}, {4, 12.0}, {8, 20.0}});
  b.pool.start();
  b.loadNow("a", 0);
  t = microsToMillis(b.clock.now());
  for (RequestId id = 1; id <= 7; ++id)
    b.submitAt(t, id, "a", 1);
  b.events.runAll();
  EXPECT_EQ(b.pool.counters().batches, 7u);
}

TEST(DevicePoolTest, HighPriorityStreamInterleavesAtStepBoundaries) {
  PoolHarness h(kilnOptions());
  h.addDevice(1000);
  h.addModel("slow", 100, {{1, 20.0}}, 1, 0.5, /*stepMs=*/2.0);
  h.addModel("fast", 100, {{1, 2.0}});
  h.pool.start();
  h.loadNow("slow", 0);
  h.loadNow("fast", 0);
  double t = microsToMillis(h.clock.now());
  h.submitAt(t, 1, "slow", 1);
  h.submitAt(t + 3, 2, "fast", 0);
  h.events.runAll();
  // The fast one waits for the slow batch's step at 4 ms, not its end.
  EXPECT_EQ(h.responseFor(2)->latency(), millisToMicros(1 + 2));
  // The slow batch pauses for it.
  EXPECT_EQ(h.responseFor(1)->latency(), millisToMicros(20 + 2));
}

TEST(DevicePoolTest, ReplicatesAHotModelOntoFreeMemory) {
  PoolOptions options = kilnOptions();
  options.rateWindow = 100'000;
  options.cooldown = 1'000'000;
  PoolHarness h(options);
  h.addDevice(1000);
  h.addDevice(1000);
  h.addModel("a", 400, {{1, 1.0}});
  h.pool.start();
  h.loadNow("a", 0);
  double t = microsToMillis(h.clock.now());
  for (int i = 0; i < 100; ++i) // 1000/s of 1 ms work: utilisation 1.
    h.submitAt(t + i, RequestId(i + 1), "a");
  h.events.runUntil(millisToMicros(t + 100));
  h.pool.tick();
  EXPECT_EQ(h.pool.replicaState(0, 1), ReplicaState::kLoading);
  EXPECT_EQ(h.pool.counters().replications, 1u);
  h.events.runAll();
  EXPECT_EQ(h.pool.servingDevices(0), (std::vector<int>{0, 1}));
  // Quiet again: no more replicas to add, and none removed by replication.
  h.pool.tick();
  EXPECT_EQ(h.pool.counters().replications, 1u);
}

TEST(DevicePoolTest, MoveIsMakeBeforeBreak) {
  PoolHarness h(kilnOptions());
  h.addDevice(1000);
  h.addDevice(1000);
  h.addModel("a", 400, {{1, 1.0}}, /*loadMs=*/50);
  h.pool.start();
  h.loadNow("a", 0);
  Micros start = h.clock.now();
  ASSERT_TRUE(h.pool.moveReplica("a", 0, 1).isOk());
  // While the new replica loads the old one keeps serving.
  for (int i = 0; i < 40; ++i)
    h.submitAt(microsToMillis(start) + i, RequestId(i + 1), "a");
  for (Micros at = start; at < start + 49'000; at += 1000) {
    h.events.runUntil(at);
    EXPECT_EQ(h.pool.replicaState(0, 0), ReplicaState::kReady);
    EXPECT_EQ(h.pool.replicaState(0, 1), ReplicaState::kLoading);
  }
  h.events.runAll();
  EXPECT_EQ(h.pool.replicaState(0, 0), ReplicaState::kAbsent);
  EXPECT_EQ(h.pool.replicaState(0, 1), ReplicaState::kReady);
  EXPECT_EQ(h.pool.ledger(0).reservedBytes(), 0u);
  for (const Response &r : h.responses) {
    EXPECT_EQ(r.outcome, Outcome::kCompleted);
    EXPECT_LE(r.latency(), 1000) << "nobody waited for the move";
  }
  EXPECT_EQ(h.responses.size(), 40u);
}

TEST(DevicePoolTest, RePlacementRespectsCooldownAndMinimumGain) {
  // Three devices that hold one model each: a on 0, b on 1 and 2.
  PoolOptions options = kilnOptions();
  options.rateWindow = 100'000;
  options.cooldown = 1'000'000;
  options.hotUtilisation = 0.5;
  PoolHarness h(options);
  for (int d = 0; d < 3; ++d)
    h.addDevice(500);
  h.addModel("a", 400, {{1, 1.0}}, /*loadMs=*/20);
  h.addModel("b", 400, {{1, 1.0}}, /*loadMs=*/20);
  h.pool.start();
  h.loadNow("a", 0);
  h.loadNow("b", 1);
  h.loadNow("b", 2);
  auto burstOf = [&](const std::string &model, RequestId first) {
    double t = microsToMillis(h.clock.now());
    for (int i = 0; i < 100; ++i)
      h.submitAt(t + i, first + RequestId(i), model);
    h.events.runUntil(millisToMicros(t + 100));
  };

  // a is hot, b idle: b gives up device 1 or 2 to a (b keeps a replica,
  // so it is never unavailable).
  burstOf("a", 1);
  h.pool.tick();
  EXPECT_EQ(h.pool.counters().moves, 1u);
  h.events.runUntil(h.clock.now() + 100'000);
  EXPECT_EQ(h.pool.servingDevices(0).size(), 2u);
  EXPECT_EQ(h.pool.servingDevices(1).size(), 1u);
  PoolCounters afterFirst = h.pool.counters();

  // Load shifts to b at once: both are inside their cooldown, nothing moves.
  burstOf("b", 1000);
  h.pool.tick();
  EXPECT_EQ(h.pool.counters().moves, afterFirst.moves);
  EXPECT_EQ(h.pool.counters().replications, afterFirst.replications);

  // After the cooldown it moves back.
  h.events.runUntil(h.clock.now() + 1'000'000);
  burstOf("b", 2000);
  h.pool.tick();
  EXPECT_EQ(h.pool.counters().moves, afterFirst.moves + 1);
  h.events.runAll();
  EXPECT_EQ(h.pool.servingDevices(1).size(), 2u);

  // A move that gains less than min_gain is not made.
  h.events.runUntil(h.clock.now() + 2'000'000);
  double t = microsToMillis(h.clock.now());
  for (int i = 0; i < 60; ++i) { // a at 0.6, b at 0.3 per replica.
    h.submitAt(t + i * 100.0 / 60, 3000 + RequestId(i), "a");
    h.submitAt(t + i * 100.0 / 60 + 0.5, 4000 + RequestId(i), "b");
  }
  h.events.runUntil(millisToMicros(t + 100));
  PoolCounters beforeSmall = h.pool.counters();
  h.pool.tick(); // 0.6 -> max(0.3, 0.6): no gain.
  EXPECT_EQ(h.pool.counters().moves, beforeSmall.moves);
}

TEST(DevicePoolTest, EvictsIdleModelsAndReloadsOnDemandPayingTheReload) {
  PoolOptions options = kilnOptions();
  options.idleEviction = 50'000;
  PoolHarness h(options);
  h.addDevice(1000);
  h.addModel("a", 400, {{1, 1.0}}, /*loadMs=*/100, /*reloadMs=*/10);
  h.pool.start();
  h.loadNow("a", 0);
  h.events.runUntil(h.clock.now() + 60'000);
  h.pool.tick();
  EXPECT_EQ(h.pool.counters().evictions, 1u);
  EXPECT_EQ(h.pool.ledger(0).reservedBytes(), 0u);
  EXPECT_EQ(h.pool.replicaState(0, 0), ReplicaState::kAbsent);

  double t = microsToMillis(h.clock.now());
  h.submitAt(t, 1, "a", 0, /*sloMs=*/50);
  h.events.runAll();
  EXPECT_EQ(h.pool.counters().reloadsFromHost, 1u);
  const Response *r = h.responseFor(1);
  EXPECT_EQ(r->outcome, Outcome::kCompleted);
  EXPECT_EQ(r->latency(), millisToMicros(10 + 1)) << "reload, then run";
  EXPECT_EQ(h.pool.ledger(0).reservedBytes(), 400 * kMiB);
}

TEST(DevicePoolTest, ReloadLoadsTheNewVersionInPlaceLosingNoRequest) {
  PoolHarness h(kilnOptions());
  h.addDevice(1000, "gpu0");
  h.addModel("a", 100, {{1, 10.0}}, /*loadMs=*/2);
  h.pool.start();
  h.loadNow("a", 0);
  double t = microsToMillis(h.clock.now());
  h.submitAt(t, 1, "a");     // running when the new version comes
  h.submitAt(t + 1, 2, "a"); // arrives while the old replica drains
  h.events.runUntil(millisToMicros(t + 0.5));

  ModelSpec v2 = h.pool.model(0);
  v2.footprint.weightsBytes = 300 * kMiB;
  ASSERT_TRUE(h.pool.reloadModel(v2).isOk());
  EXPECT_EQ(h.pool.model(0).footprint.weightsBytes, 300 * kMiB);
  // The running batch keeps the old version's memory until it ends.
  EXPECT_EQ(h.pool.replicaState(0, 0), ReplicaState::kDraining);
  EXPECT_EQ(h.pool.ledger(0).reservedBytes(), 100 * kMiB);
  EXPECT_EQ(h.pool.reloadModel(v2).code(), StatusCode::kFailedPrecondition);

  h.events.runAll();
  EXPECT_EQ(h.pool.replicaState(0, 0), ReplicaState::kReady);
  EXPECT_EQ(h.pool.ledger(0).reservedBytes(), 300 * kMiB);
  EXPECT_EQ(h.pool.counters().reloads, 1u);
  EXPECT_EQ(h.pool.counters().loads, 2u);
  ASSERT_NE(h.responseFor(1), nullptr);
  EXPECT_EQ(h.responseFor(1)->outcome, Outcome::kCompleted);
  ASSERT_NE(h.responseFor(2), nullptr);
  EXPECT_EQ(h.responseFor(2)->outcome, Outcome::kCompleted);
  // Served by the new version: after the old batch (10 ms) and the load
  // (2 ms), not on another device or rejected.
  EXPECT_EQ(h.responseFor(2)->latency(), millisToMicros(9 + 2 + 10));
  EXPECT_EQ(h.responses.size(), 2u);

  ModelSpec unknown = v2;
  unknown.name = "nope";
  EXPECT_EQ(h.pool.reloadModel(unknown).code(), StatusCode::kNotFound);
}

TEST(DevicePoolTest, ReloadOfAModelWithoutReplicasOnlyReplacesItsSpec) {
  PoolHarness h(kilnOptions());
  h.addDevice(1000);
  h.addModel("a", 100, {{1, 1.0}});
  h.pool.start();
  ModelSpec v2 = h.pool.model(0);
  v2.footprint.weightsBytes = 200 * kMiB;
  ASSERT_TRUE(h.pool.reloadModel(v2).isOk());
  EXPECT_EQ(h.pool.replicaState(0, 0), ReplicaState::kAbsent);
  EXPECT_EQ(h.pool.counters().loads, 0u);
  h.loadNow("a", 0);
  EXPECT_EQ(h.pool.ledger(0).reservedBytes(), 200 * kMiB);
}

TEST(DevicePoolTest, OnDemandLoadEvictsAnIdleModelToMakeRoom) {
  PoolHarness h(kilnOptions());
  h.addDevice(1000);
  h.addModel("a", 600, {{1, 1.0}});
  h.addModel("b", 600, {{1, 1.0}});
  h.pool.start();
  h.loadNow("a", 0);
  double t = microsToMillis(h.clock.now());
  h.submitAt(t, 1, "b");
  h.events.runAll();
  EXPECT_EQ(h.responseFor(1)->outcome, Outcome::kCompleted);
  EXPECT_EQ(h.pool.replicaState(0, 0), ReplicaState::kAbsent);
  EXPECT_EQ(h.pool.replicaState(1, 0), ReplicaState::kReady);
  EXPECT_EQ(h.pool.counters().evictions, 1u);

  // A model that fits nowhere is turned away with a reason.
  h.addModel("huge", 2000, {{1, 1.0}});
  PoolHarness g(kilnOptions());
  g.addDevice(1000);
  g.addModel("huge", 2000, {{1, 1.0}});
  g.pool.start();
  g.submitAt(0, 1, "huge");
  g.submitAt(0, 2, "unknown");
  g.events.runAll();
  EXPECT_EQ(g.responseFor(1)->reason, RejectReason::kNoCapacity);
  EXPECT_EQ(g.responseFor(2)->reason, RejectReason::kUnknownModel);
}

TEST(DevicePoolTest, ThousandLoadUnloadCyclesLoseNothingAndReturnMemory) {
  PoolOptions options = kilnOptions();
  options.queue.capacityPerLevel = 100000;
  PoolHarness h(options);
  h.addDevice(1000);
  h.addDevice(1000);
  h.addModel("steady", 300, {{1, 1.0}, {4, 1.5}});
  h.addModel("churn", 300, {{1, 2.0}, {4, 3.0}}, /*loadMs=*/2, 1);
  h.addModel("solo", 300, {{1, 1.5}}, /*loadMs=*/2, 1);
  h.pool.start();
  h.loadNow("steady", 0);
  h.loadNow("churn", 1);
  Micros start = h.clock.now();
  std::uint64_t baseline0 = h.pool.ledger(0).reservedBytes();
  std::uint64_t baseline1 = h.pool.ledger(1).reservedBytes();

  // Poisson load on all three, mixed priorities, some with deadlines.
  ArrivalOptions arrivals;
  arrivals.duration = 10'000'000;
  arrivals.seed = 5;
  auto list = generateArrivals({{"steady", 300, {0.3, 0.7}},
                                {"churn", 200, {0.3, 0.7}},
                                {"solo", 100, {0.3, 0.7}}},
                               arrivals);
  RequestId id = 0;
  for (const Arrival &a : list) {
    ++id;
    h.submitAt(microsToMillis(start + a.time), id, a.model, a.priority,
               id % 3 ? -1 : 50);
  }

  // Every 5 ms: a second replica of churn on device 0 comes or goes, and
  // solo's only replica (device 1) comes or goes: its queued requests then
  // wait for the reload on demand.
  int cycles = 0;
  for (Micros at = start + 5000; cycles < 1000; at += 5000) {
    h.events.runUntil(at);
    const char *model = cycles % 2 ? "solo" : "churn";
    int device = cycles % 2 ? 1 : 0;
    int index = h.pool.modelIndex(model);
    ReplicaState state = h.pool.replicaState(index, device);
    if (state == ReplicaState::kReady) {
      ASSERT_TRUE(h.pool.unloadModel(model, device).isOk());
      ++cycles;
    } else if (state == ReplicaState::kAbsent &&
               h.pool.ledger(device).fits(h.pool.model(index).footprint)) {
      ASSERT_TRUE(h.pool.loadModel(model, device).isOk());
    }
    for (int d = 0; d < 2; ++d)
      ASSERT_LE(h.pool.ledger(d).reservedBytes(), 1000 * kMiB);
  }
  h.events.runAll();

  // Exactly one response per request; none lost to memory.
  std::set<RequestId> answered;
  for (const Response &r : h.responses) {
    ASSERT_TRUE(answered.insert(r.id).second) << "duplicate " << r.id;
    EXPECT_NE(r.reason, RejectReason::kNoCapacity);
  }
  EXPECT_EQ(answered.size(), list.size());
  EXPECT_EQ(h.pool.queued(), 0u);
  EXPECT_EQ(h.pool.running(), 0u);

  // Back to the baseline once the extra replicas are gone.
  for (int m = 0; m < h.pool.modelCount(); ++m)
    for (int d = 0; d < 2; ++d)
      if (h.pool.replicaState(m, d) == ReplicaState::kReady &&
          !(m == h.pool.modelIndex("steady") && d == 0) &&
          !(m == h.pool.modelIndex("churn") && d == 1))
        ASSERT_TRUE(h.pool.unloadModel(h.pool.model(m).name, d).isOk());
  h.events.runAll();
  EXPECT_EQ(h.pool.ledger(0).reservedBytes(), baseline0);
  EXPECT_EQ(h.pool.ledger(1).reservedBytes(), baseline1);
}

TEST(DevicePoolTest, RoundRobinTakesTurnsAndFifoIgnoresPriority) {
  PoolOptions rr = kilnOptions();
  rr.policy = PolicyKind::kRoundRobin;
  PoolHarness h(rr);
  h.addDevice(1000);
  h.addDevice(1000);
  h.addModel("a", 100, {{1, 10.0}});
  h.pool.start();
  h.loadNow("a", 0);
  h.loadNow("a", 1);
  double t = microsToMillis(h.clock.now());
  for (RequestId id = 1; id <= 4; ++id)
    h.submitAt(t, id, "a", 1);
  h.events.runAll();
  EXPECT_EQ(h.responseFor(1)->device, 0);
  EXPECT_EQ(h.responseFor(2)->device, 1);
  EXPECT_EQ(h.responseFor(3)->device, 0);
  EXPECT_EQ(h.responseFor(4)->device, 1);

  PoolOptions fifo = kilnOptions();
  fifo.policy = PolicyKind::kFifo;
  PoolHarness f(fifo);
  f.addDevice(1000);
  f.addModel("a", 100, {{1, 10.0}});
  f.pool.start();
  f.loadNow("a", 0);
  t = microsToMillis(f.clock.now());
  f.submitAt(t, 1, "a", 1);
  f.submitAt(t, 2, "a", 1);
  f.submitAt(t + 1, 3, "a", 0);
  f.events.runAll();
  EXPECT_LT(f.responseFor(2)->finish, f.responseFor(3)->finish);
}

} // namespace

namespace {

TEST(PlacementTest, EveryModelOnceThenReplicasForTheBusiestWithinMemory) {
  PlacementInput input;
  for (int d = 0; d < 3; ++d) {
    DeviceSpec device;
    device.name = "gpu" + std::to_string(d);
    device.memoryBytes = 1000 * kMiB;
    input.devices.push_back(device);
  }
  auto model = [](const char *name, std::uint64_t mib, double ms) {
    ModelSpec spec;
    spec.name = name;
    spec.footprint.weightsBytes = mib * kMiB;
    EXPECT_TRUE(spec.profile.set(1, millisToMicros(ms)).isOk());
    return spec;
  };
  input.models = {model("hot", 300, 2), model("big", 900, 4),
                  model("cold", 300, 2)};
  input.ratePerSecond = {900, 100, 10};
  StatusOr<std::vector<ReplicaSite>> sites = planPlacement(input);
  ASSERT_TRUE(sites.isOk()) << sites.status().toString();
  std::vector<int> replicas(3, 0);
  std::vector<std::uint64_t> used(3, 0);
  for (const ReplicaSite &site : *sites) {
    ++replicas[site.model];
    used[site.device] += input.models[site.model].footprint.total();
  }
  EXPECT_EQ(replicas[1], 1) << "big fits beside nothing: one replica";
  EXPECT_EQ(replicas[0], 2) << "hot takes the two devices big leaves";
  EXPECT_EQ(replicas[2], 2) << "cold fills the remaining room";
  for (std::uint64_t bytes : used)
    EXPECT_LE(bytes, 1000 * kMiB);

  // A model that fits nowhere is named.
  input.models.push_back(model("huge", 2000, 1));
  input.ratePerSecond.push_back(1);
  StatusOr<std::vector<ReplicaSite>> refused = planPlacement(input);
  EXPECT_EQ(refused.status().code(), StatusCode::kResourceExhausted);
  EXPECT_NE(refused.status().message().find("'huge'"), std::string::npos);
}

} // namespace

namespace {

TEST(DevicePoolTest, HighPriorityStreamDoesNotDelayABatchOnItsLastStep) {
  PoolHarness h(kilnOptions());
  h.addDevice(1000);
  h.addModel("slow", 100, {{1, 20.0}}, 1, 0.5, /*stepMs=*/5.0);
  h.addModel("fast", 100, {{1, 2.0}});
  h.pool.start();
  h.loadNow("slow", 0);
  h.loadNow("fast", 0);
  double t = microsToMillis(h.clock.now());
  h.submitAt(t, 1, "slow", 1);
  h.submitAt(t + 16, 2, "fast", 0); // The last step (15..20 ms) is running.
  h.events.runAll();
  EXPECT_EQ(h.responseFor(1)->latency(), millisToMicros(20));
  EXPECT_EQ(h.responseFor(2)->latency(), millisToMicros(4 + 2));
}

} // namespace
