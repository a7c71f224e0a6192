//===- PoolHarness.h - A DevicePool on simulated devices for tests -*- C++ -*-//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TEST_UNIT_RUNTIME_SERVING_POOLHARNESS_H
#define KILN_TEST_UNIT_RUNTIME_SERVING_POOLHARNESS_H

#include "kiln/runtime/serving/DevicePool.h"
#include "kiln/runtime/serving/EventQueue.h"
#include "kiln/runtime/serving/SimulatedDevice.h"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <vector>

namespace kiln::rt::serving::testing {

constexpr std::uint64_t kMiB = 1024 * 1024;

/// A pool in virtual time; every response is kept.
struct PoolHarness {
  explicit PoolHarness(PoolOptions options = {})
      : pool(
            clock, options,
            [this](const Response &response) { responses.push_back(response); },
            &events) {}

  int addDevice(std::uint64_t memoryMiB, const std::string &name = "") {
    DeviceSpec spec;
    spec.name = name.empty() ? "dev" + std::to_string(devices.size()) : name;
    spec.memoryBytes = memoryMiB * kMiB;
    devices.push_back(std::make_unique<SimulatedDevice>(spec, events));
    return pool.addDevice(*devices.back());
  }

  /// A model of `memoryMiB` (all weights) with latencies in milliseconds.
  void addModel(const std::string &name, std::uint64_t memoryMiB,
                const std::map<int, double> &latencyMs, double loadMs = 1,
                double reloadMs = 0.5, double stepMs = 0) {
    ModelSpec spec;
    spec.name = name;
    spec.footprint.weightsBytes = memoryMiB * kMiB;
    spec.coldLoadTime = millisToMicros(loadMs);
    spec.reloadTime = millisToMicros(reloadMs);
    spec.stepTime = millisToMicros(stepMs);
    for (const auto &[batch, ms] : latencyMs)
      EXPECT_TRUE(spec.profile.set(batch, millisToMicros(ms)).isOk());
    ASSERT_TRUE(pool.addModel(spec).isOk());
  }

  /// Loads and waits until the replica is ready.
  void loadNow(const std::string &model, int device) {
    ASSERT_TRUE(pool.loadModel(model, device).isOk());
    events.runUntil(clock.now() + 1'000'000);
  }

  /// Submits at virtual time `at` (ms); `sloMs` < 0: no deadline.
  void submitAt(double atMs, RequestId id, const std::string &model,
                int priority = 0, double sloMs = -1) {
    Request request;
    request.id = id;
    request.model = model;
    request.priority = priority;
    request.arrival = millisToMicros(atMs);
    request.deadline =
        sloMs < 0 ? kNoDeadline : request.arrival + millisToMicros(sloMs);
    events.scheduleAt(request.arrival,
                      [this, request] { pool.submit(request); });
  }

  const Response *responseFor(RequestId id) const {
    const Response *found = nullptr;
    for (const Response &response : responses)
      if (response.id == id) {
        EXPECT_EQ(found, nullptr) << "request " << id << " answered twice";
        found = &response;
      }
    return found;
  }

  VirtualClock clock;
  EventQueue events{clock};
  std::vector<Response> responses;
  std::vector<std::unique_ptr<SimulatedDevice>> devices;
  DevicePool pool;
};

} // namespace kiln::rt::serving::testing

#endif // KILN_TEST_UNIT_RUNTIME_SERVING_POOLHARNESS_H
