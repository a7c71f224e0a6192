//===- Request.cpp - Inference requests and their responses --------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/serving/Request.h"

namespace kiln::rt::serving {

const char *rejectReasonName(RejectReason reason) {
  switch (reason) {
  case RejectReason::kNone:
    return "none";
  case RejectReason::kUnknownModel:
    return "unknown_model";
  case RejectReason::kInvalidPriority:
    return "invalid_priority";
  case RejectReason::kQueueFull:
    return "queue_full";
  case RejectReason::kDeadlineInfeasible:
    return "deadline_infeasible";
  case RejectReason::kDeadlineExpired:
    return "deadline_expired";
  case RejectReason::kNoCapacity:
    return "no_capacity";
  }
  return "unknown";
}

const char *outcomeName(Outcome outcome) {
  switch (outcome) {
  case Outcome::kCompleted:
    return "completed";
  case Outcome::kRejected:
    return "rejected";
  case Outcome::kCancelled:
    return "cancelled";
  }
  return "unknown";
}

} // namespace kiln::rt::serving
