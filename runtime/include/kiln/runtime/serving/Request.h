//===- Request.h - Inference requests and their responses -------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Every request the pool accepts gets exactly one Response: completed,
// rejected (with a reason) or cancelled. Tests count on that to prove that
// nothing is lost or answered twice.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_SERVING_REQUEST_H
#define KILN_RUNTIME_SERVING_REQUEST_H

#include "kiln/runtime/serving/Clock.h"

#include <cstdint>
#include <limits>
#include <memory>
#include <string>

namespace kiln::rt::serving {

struct InferenceData;

using RequestId = std::uint64_t;

/// A deadline that never expires.
constexpr Micros kNoDeadline = std::numeric_limits<Micros>::max();

struct Request {
  RequestId id = 0;
  std::string model;
  /// Priority level: 0 is the highest; levels bypass the ones below.
  int priority = 0;
  Micros arrival = 0;
  /// Absolute time the response is due (the SLO), or kNoDeadline.
  Micros deadline = kNoDeadline;
  /// The pool's index of `model`; DevicePool::submit fills it in.
  int modelIndex = -1;
  /// Tensors in and out, for devices that really run models (null in the
  /// simulator). The pool hands it to the device and then to the Response.
  std::shared_ptr<InferenceData> data;
};

enum class Outcome { kCompleted, kRejected, kCancelled };

/// Why a request was turned away; reports count rejections by reason.
enum class RejectReason {
  kNone,
  kUnknownModel,       ///< No such model in the pool.
  kInvalidPriority,    ///< A priority outside the pool's levels.
  kQueueFull,          ///< Back-pressure: its priority level's queue is full.
  kDeadlineInfeasible, ///< Predicted to miss its deadline at admission.
  kDeadlineExpired,    ///< Became infeasible while queued; dropped.
  kNoCapacity,         ///< No device can hold the model now.
};

/// Stable, snake_case name ("queue_full"), as reports print it.
const char *rejectReasonName(RejectReason reason);
const char *outcomeName(Outcome outcome);

struct Response {
  RequestId id = 0;
  std::string model;
  int priority = 0;
  Outcome outcome = Outcome::kCompleted;
  RejectReason reason = RejectReason::kNone;
  Micros arrival = 0;
  Micros deadline = kNoDeadline;
  /// When it was answered (completion, rejection or cancellation).
  Micros finish = 0;
  /// Requests in the batch that served it (completed only).
  int batchSize = 0;
  /// Index of the device that served it, or -1.
  int device = -1;
  /// The request's tensors, outputs filled in when completed.
  std::shared_ptr<InferenceData> data;

  Micros latency() const { return finish - arrival; }
  bool metDeadline() const {
    return outcome == Outcome::kCompleted && finish <= deadline;
  }
};

} // namespace kiln::rt::serving

#endif // KILN_RUNTIME_SERVING_REQUEST_H
