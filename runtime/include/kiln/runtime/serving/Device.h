//===- Device.h - A device slice the pool schedules onto --------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The scheduler's view of a device: a whole GPU, a MIG instance, a set of CPU
// cores or a simulated device. It runs one batch at a time (the predictable
// mode), loads replicas asynchronously and reports completion through
// callbacks, so DevicePool never blocks and never knows which kind it drives.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_SERVING_DEVICE_H
#define KILN_RUNTIME_SERVING_DEVICE_H

#include "kiln/runtime/serving/Clock.h"
#include "kiln/runtime/serving/ModelSpec.h"
#include "kiln/runtime/serving/Request.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace kiln::rt::serving {

struct DeviceSpec {
  std::string name;
  std::uint64_t memoryBytes = 0;
  /// Memory the driver/context keeps for itself: never given to models.
  std::uint64_t contextReserveBytes = 0;
  /// Relative speed: a latency profile's times are divided by it.
  double speed = 1.0;
};

/// CUDA streams of two priorities (a CPU device: two worker queues).
enum class Stream { kNormal, kHigh };

/// A device the pool can load models onto and run batches on. Completion
/// callbacks run on the thread that drives the device (the simulator's event
/// loop, or a device worker); the pool serialises them.
class Device {
public:
  using Done = std::function<void()>;
  virtual ~Device() = default;

  virtual const DeviceSpec &spec() const = 0;

  /// Starts bringing a replica of `model` up; `fromHost` when its weights
  /// are still in host memory after an eviction. Calls `done` when ready.
  virtual void beginLoad(const ModelSpec &model, bool fromHost, Done done) = 0;
  /// Drops a replica; its memory is free when this returns.
  virtual void unload(const ModelSpec &model) = 0;
  /// Starts one execution of `model` for `requests` (the smallest batch-size
  /// variant that holds them, padded). Calls `done` when the outputs are
  /// ready: devices that run real models write each request's
  /// InferenceData first; `requests` stays valid until then. At most one
  /// batch per stream: a kHigh batch started while a kNormal one runs
  /// begins at that batch's next step boundary, and the kNormal batch
  /// resumes after it (so it finishes later by the kHigh batch's time).
  virtual void beginBatch(const ModelSpec &model,
                          const std::vector<Request> &requests, Stream stream,
                          Done done) = 0;
  /// How long a kHigh batch started now would wait for the running kNormal
  /// batch to reach a step boundary (0 when none runs).
  virtual Micros highStreamDelay() const = 0;

  /// Predicted execution time of a batch on this device.
  virtual Micros predictBatch(const ModelSpec &model, int requests) const = 0;
  /// Predicted time to bring a replica up.
  virtual Micros predictLoad(const ModelSpec &model, bool fromHost) const = 0;
};

} // namespace kiln::rt::serving

#endif // KILN_RUNTIME_SERVING_DEVICE_H
