//===- EventQueueTest.cpp - Discrete events in virtual time ---------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/serving/EventQueue.h"

#include <gtest/gtest.h>

#include <string>

using namespace kiln::rt::serving;

namespace {

TEST(EventQueueTest, RunsInTimeOrderTiesInSchedulingOrder) {
  VirtualClock clock;
  EventQueue events(clock);
  std::string trace;
  events.scheduleAt(20, [&] { trace += "c"; });
  events.scheduleAt(10, [&] { trace += "a"; });
  events.scheduleAt(10, [&] { trace += "b"; });
  events.scheduleAt(20, [&] { trace += "d"; });
  events.runAll();
  EXPECT_EQ(trace, "abcd");
  EXPECT_EQ(clock.now(), 20);
}

TEST(EventQueueTest, EventsMayScheduleEventsAndNeverRunInThePast) {
  VirtualClock clock;
  EventQueue events(clock);
  std::vector<Micros> times;
  events.scheduleAt(5, [&] {
    times.push_back(clock.now());
    events.scheduleAt(1, [&] { times.push_back(clock.now()); }); // Clamped.
    events.scheduleAfter(10, [&] { times.push_back(clock.now()); });
  });
  events.runAll();
  EXPECT_EQ(times, (std::vector<Micros>{5, 5, 15}));
}

TEST(EventQueueTest, RunUntilStopsAtTheGivenTime) {
  VirtualClock clock;
  EventQueue events(clock);
  int ran = 0;
  events.scheduleAt(10, [&] { ++ran; });
  events.scheduleAt(30, [&] { ++ran; });
  events.runUntil(20);
  EXPECT_EQ(ran, 1);
  EXPECT_EQ(clock.now(), 20);
  EXPECT_EQ(events.size(), 1u);
}

} // namespace
