//===- StepProfiler.cpp - Wall time of every step of every run ------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/StepProfiler.h"

#include <algorithm>

namespace kiln::rt {

StepProfiler::StepProfiler(size_t steps)
    : epoch_(std::chrono::steady_clock::now()),
      starts_(new std::atomic<int64_t>[steps]),
      startThreads_(new std::atomic<uint32_t>[steps]), steps_(steps) {
  for (size_t i = 0; i < steps; ++i) {
    starts_[i] = 0;
    startThreads_[i] = 0;
  }
}

int64_t StepProfiler::now() const {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now() - epoch_)
      .count();
}

uint32_t StepProfiler::threadNumber() {
  std::thread::id self = std::this_thread::get_id();
  std::lock_guard<std::mutex> lock(mutex_);
  auto found = std::find(threads_.begin(), threads_.end(), self);
  if (found != threads_.end())
    return uint32_t(found - threads_.begin());
  threads_.push_back(self);
  return uint32_t(threads_.size() - 1);
}

void StepProfiler::beginRun() {
  threadNumber(); // The caller's thread is thread 0.
  runBegin_ = now();
}

void StepProfiler::endRun() {
  ProfileSlice slice{kRunSlice, run_, threadNumber(), runBegin_, now()};
  std::lock_guard<std::mutex> lock(mutex_);
  slices_.push_back(slice);
  ++run_;
}

void StepProfiler::beforeStep(const StepEvent &event) {
  if (event.index >= steps_)
    return;
  startThreads_[event.index].store(threadNumber(), std::memory_order_relaxed);
  starts_[event.index].store(now(), std::memory_order_release);
}

void StepProfiler::afterStep(const StepEvent &event) {
  if (event.index >= steps_)
    return;
  int64_t end = now();
  // The step's work, including its own workgroups on other threads, is
  // done: the slice is on the thread that started it.
  ProfileSlice slice{event.index, run_,
                     startThreads_[event.index].load(std::memory_order_relaxed),
                     starts_[event.index].load(std::memory_order_acquire), end};
  std::lock_guard<std::mutex> lock(mutex_);
  slices_.push_back(slice);
  if (event.deviceNanoseconds >= 0) {
    ProfileSlice device = slice;
    device.begin = end - event.deviceNanoseconds;
    device.device = true;
    slices_.push_back(device);
  }
}

std::vector<ProfileSlice> StepProfiler::slices() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return slices_;
}

} // namespace kiln::rt
