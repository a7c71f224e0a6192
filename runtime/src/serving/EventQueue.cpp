//===- EventQueue.cpp - Discrete events in virtual time -------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/serving/EventQueue.h"

#include <algorithm>

namespace kiln::rt::serving {

void EventQueue::scheduleAt(Micros time, Action action) {
  events_.push(
      Event{std::max(time, clock_.now()), nextSequence_++, std::move(action)});
}

bool EventQueue::runNext() {
  if (events_.empty())
    return false;
  // Move the action out before popping: running it may schedule more events.
  Event event = std::move(const_cast<Event &>(events_.top()));
  events_.pop();
  clock_.advanceTo(event.time);
  event.action();
  return true;
}

void EventQueue::runUntil(Micros time) {
  while (!events_.empty() && events_.top().time <= time)
    runNext();
  clock_.advanceTo(time);
}

void EventQueue::runAll() {
  while (runNext()) {
  }
}

} // namespace kiln::rt::serving
