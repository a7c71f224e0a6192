//===- Status.cpp - Errors as values for the Kiln runtime -----------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/Status.h"

namespace kiln::rt {

const char *statusCodeName(StatusCode code) {
  switch (code) {
  case StatusCode::kOk:
    return "OK";
  case StatusCode::kInvalidArgument:
    return "INVALID_ARGUMENT";
  case StatusCode::kNotFound:
    return "NOT_FOUND";
  case StatusCode::kDataLoss:
    return "DATA_LOSS";
  case StatusCode::kUnimplemented:
    return "UNIMPLEMENTED";
  case StatusCode::kFailedPrecondition:
    return "FAILED_PRECONDITION";
  case StatusCode::kUnavailable:
    return "UNAVAILABLE";
  case StatusCode::kResourceExhausted:
    return "RESOURCE_EXHAUSTED";
  case StatusCode::kInternal:
    return "INTERNAL";
  case StatusCode::kAborted:
    return "ABORTED";
  case StatusCode::kDeadlineExceeded:
    return "DEADLINE_EXCEEDED";
  }
  return "UNKNOWN";
}

Status Status::withContext(const std::string &context) const {
  if (isOk())
    return *this;
  return Status(code_, context + ": " + message_);
}

std::string Status::toString() const {
  if (isOk())
    return "OK";
  return std::string(statusCodeName(code_)) + ": " + message_;
}

} // namespace kiln::rt
