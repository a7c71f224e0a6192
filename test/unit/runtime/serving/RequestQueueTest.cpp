//===- RequestQueueTest.cpp - Priorities, aging, back-pressure ------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/serving/RequestQueue.h"

#include <gtest/gtest.h>

using namespace kiln::rt;
using namespace kiln::rt::serving;

namespace {

Request request(RequestId id, int priority, Micros arrival) {
  Request r;
  r.id = id;
  r.model = "m";
  r.priority = priority;
  r.arrival = arrival;
  return r;
}

TEST(RequestQueueTest, HigherLevelsBypassLowerOnesFifoWithin) {
  RequestQueue queue(QueueOptions{3, 100, 0});
  ASSERT_TRUE(queue.push(request(1, 2, 0)).isOk());
  ASSERT_TRUE(queue.push(request(2, 1, 1)).isOk());
  ASSERT_TRUE(queue.push(request(3, 2, 2)).isOk());
  ASSERT_TRUE(queue.push(request(4, 0, 3)).isOk());
  ASSERT_TRUE(queue.push(request(5, 0, 4)).isOk());
  std::vector<RequestId> order;
  while (auto r = queue.popBest(10))
    order.push_back(r->id);
  EXPECT_EQ(order, (std::vector<RequestId>{4, 5, 2, 1, 3}));
}

TEST(RequestQueueTest, AgingBoundsStarvation) {
  // One low-priority request against an endless stream of high-priority
  // ones, one popped per 10 us: with aging every 100 us it climbs one level
  // per step and is served within 2 steps (+ one pop) of arriving.
  const Micros aging = 100;
  RequestQueue queue(QueueOptions{3, 1000, aging});
  ASSERT_TRUE(queue.push(request(1, 2, 0)).isOk());
  RequestId next = 2;
  Micros servedAt = -1;
  for (Micros now = 0; now < 10'000 && servedAt < 0; now += 10) {
    ASSERT_TRUE(queue.push(request(next++, 0, now)).isOk());
    if (queue.popBest(now)->id == 1)
      servedAt = now;
  }
  ASSERT_GE(servedAt, 0) << "the low-priority request starved";
  EXPECT_LE(servedAt, 2 * aging + 10);
  // Without aging it would still be waiting.
  RequestQueue noAging(QueueOptions{3, 1000, 0});
  ASSERT_TRUE(noAging.push(request(1, 2, 0)).isOk());
  for (Micros now = 0; now < 10'000; now += 10) {
    ASSERT_TRUE(noAging.push(request(next++, 0, now)).isOk());
    EXPECT_NE(noAging.popBest(now)->id, 1u);
  }
}

TEST(RequestQueueTest, FullLevelIsBackPressureWithAReason) {
  RequestQueue queue(QueueOptions{2, 2, 0});
  ASSERT_TRUE(queue.push(request(1, 1, 0)).isOk());
  ASSERT_TRUE(queue.push(request(2, 1, 0)).isOk());
  Status full = queue.push(request(3, 1, 0));
  EXPECT_EQ(full.code(), StatusCode::kResourceExhausted);
  EXPECT_NE(full.message().find("full"), std::string::npos);
  // Levels are bounded separately: high priority still gets in.
  EXPECT_TRUE(queue.push(request(4, 0, 0)).isOk());
  EXPECT_EQ(queue.size(), 3u);
  EXPECT_EQ(queue.push(request(5, 7, 0)).code(), StatusCode::kInvalidArgument);
}

TEST(RequestQueueTest, CancelRemovesExactlyThatRequest) {
  RequestQueue queue(QueueOptions{2, 10, 0});
  for (RequestId id = 1; id <= 4; ++id)
    ASSERT_TRUE(queue.push(request(id, int(id % 2), Micros(id))).isOk());
  std::optional<Request> cancelled = queue.cancel(3);
  ASSERT_TRUE(cancelled);
  EXPECT_EQ(cancelled->id, 3u);
  EXPECT_FALSE(queue.cancel(3));
  EXPECT_FALSE(queue.cancel(99));
  EXPECT_EQ(queue.size(), 3u);
}

TEST(RequestQueueTest, ReturnToFrontRestoresTheQueue) {
  RequestQueue queue(QueueOptions{2, 10, 0});
  for (RequestId id = 1; id <= 6; ++id)
    ASSERT_TRUE(queue.push(request(id, int(id % 2), Micros(id))).isOk());
  std::vector<Request> taken;
  for (int i = 0; i < 4; ++i)
    taken.push_back(*queue.popBest(10));
  queue.returnToFront(taken);
  std::vector<RequestId> order;
  while (auto r = queue.popBest(10))
    order.push_back(r->id);
  EXPECT_EQ(order, (std::vector<RequestId>{2, 4, 6, 1, 3, 5}));
}

TEST(RequestQueueTest, RemoveIfKeepsOrder) {
  RequestQueue queue(QueueOptions{1, 10, 0});
  for (RequestId id = 1; id <= 6; ++id)
    ASSERT_TRUE(queue.push(request(id, 0, Micros(id))).isOk());
  auto removed = queue.removeIf([](const Request &r) { return r.id % 2; });
  ASSERT_EQ(removed.size(), 3u);
  EXPECT_EQ(removed[0].id, 1u);
  EXPECT_EQ(removed[2].id, 5u);
  EXPECT_EQ(queue.popBest(0)->id, 2u);
  EXPECT_EQ(queue.size(), 2u);
}

} // namespace
