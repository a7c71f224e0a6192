//===- StepHooks.h - Callbacks around each step of a run --------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// What profilers, numerics checkers and debuggers attach to a run. With no
// hooks a run pays one null check per step.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_STEPHOOKS_H
#define KILN_RUNTIME_STEPHOOKS_H

#include "kiln/runtime/Artifact.h"
#include "kiln/runtime/Status.h"

#include <cstdint>

namespace kiln::rt {

/// The buffers of one run: each binding of a step resolves to host memory.
/// On a GPU these are host copies: what a step wrote is copied back before
/// its `afterStep`.
struct RunBuffers {
  const std::vector<uint8_t *> *inputs = nullptr;
  const std::vector<uint8_t *> *outputs = nullptr;
  uint8_t *arena = nullptr;
  const uint8_t *constants = nullptr;

  /// The first byte `binding` names.
  uint8_t *address(const KernelArg &binding) const;
};

/// A step as a hook sees it.
struct StepEvent {
  uint32_t index = 0; ///< In its device program.
  const Step *step = nullptr;
  const RunBuffers *buffers = nullptr;
  /// In `afterStep` on devices that time steps themselves (CUDA events):
  /// the step's device time in nanoseconds; -1 elsewhere.
  int64_t deviceNanoseconds = -1;
};

/// Callbacks before and after every step. On several threads, hooks of
/// independent steps may run concurrently (and `afterStep` on another
/// thread than `beforeStep`): implementations must be thread-safe. A step's
/// `afterStep` is called after all of its work is done and before any step
/// that waits for it starts, so the step's outputs can be read there.
class StepHooks {
public:
  virtual ~StepHooks();
  virtual void beforeStep(const StepEvent &event) {}
  virtual void afterStep(const StepEvent &event) {}
};

/// Runs collective steps (a communicator between ranks). Thread-safe. On
/// CUDA the event's buffers are device addresses: the hook's communicator
/// must work on device memory (NCCL).
class CollectivesHook {
public:
  virtual ~CollectivesHook();
  virtual Status run(const StepEvent &event) = 0;
};

/// Per-run options.
struct RunOptions {
  StepHooks *hooks = nullptr;
  /// Needed by programs with collective steps.
  CollectivesHook *collectives = nullptr;
};

} // namespace kiln::rt

#endif // KILN_RUNTIME_STEPHOOKS_H
