//===- SimulatedDevice.h - A device that exists in virtual time -*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Completes every batch exactly at its profiled latency (scaled by the
// device's speed), as Clockwork's worker_dummy does; lets the real scheduler
// run against many "GPUs" on a laptop, deterministically.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_SERVING_SIMULATEDDEVICE_H
#define KILN_RUNTIME_SERVING_SIMULATEDDEVICE_H

#include "kiln/runtime/serving/Device.h"
#include "kiln/runtime/serving/EventQueue.h"

namespace kiln::rt::serving {

/// Thread-compatible; driven by one EventQueue.
class SimulatedDevice final : public Device {
public:
  SimulatedDevice(DeviceSpec spec, EventQueue &events)
      : spec_(std::move(spec)), events_(events) {}

  const DeviceSpec &spec() const override { return spec_; }
  void beginLoad(const ModelSpec &model, bool fromHost, Done done) override;
  void unload(const ModelSpec &) override {}
  void beginBatch(const ModelSpec &model, const std::vector<Request> &requests,
                  Stream stream, Done done) override;
  Micros highStreamDelay() const override;
  Micros predictBatch(const ModelSpec &model, int requests) const override;
  Micros predictLoad(const ModelSpec &model, bool fromHost) const override;

  /// Virtual time spent executing batches: utilisation's numerator.
  Micros busyTime() const { return busyTime_; }
  /// Batches started on this device.
  std::uint64_t batches() const { return batches_; }

private:
  /// The kNormal stream's batch: it makes progress except while a kHigh
  /// batch runs, and ends at start + latency + paused.
  struct NormalBatch {
    bool active = false;
    Micros start = 0, latency = 0, step = 0, paused = 0;
    Done done;
  };
  void finishNormal();
  /// The normal batch completes within `delay` from now.
  bool normalEndsWithin(Micros delay) const;

  DeviceSpec spec_;
  EventQueue &events_;
  NormalBatch normal_;
  Micros busyTime_ = 0;
  std::uint64_t batches_ = 0;
};

} // namespace kiln::rt::serving

#endif // KILN_RUNTIME_SERVING_SIMULATEDDEVICE_H
