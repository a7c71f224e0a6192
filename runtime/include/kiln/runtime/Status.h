//===- Status.h - Errors as values for the Kiln runtime ---------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The runtime never aborts and never throws: every fallible call returns a
// Status (or a StatusOr<T>) carrying a code and a message that names what
// failed and where.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_STATUS_H
#define KILN_RUNTIME_STATUS_H

#include <cassert>
#include <optional>
#include <string>
#include <utility>

namespace kiln::rt {

/// Broad classes of failure; tools map them to documented exit codes.
enum class StatusCode {
  kOk = 0,
  kInvalidArgument,    ///< The caller passed something malformed.
  kNotFound,           ///< A file, symbol or name does not exist.
  kDataLoss,           ///< A file is truncated or corrupt.
  kUnimplemented,      ///< Valid, but not supported (yet).
  kFailedPrecondition, ///< The system is not in a state to do this.
  kUnavailable,        ///< A device or driver is missing.
  kResourceExhausted,  ///< Out of (device) memory or another hard limit.
  kInternal,           ///< A bug in Kiln.
  kAborted,            ///< A rank aborted a collective group (or a peer died).
  kDeadlineExceeded,   ///< A call did not finish in time (a peer is late).
};

/// Name of a status code, e.g. "INVALID_ARGUMENT".
const char *statusCodeName(StatusCode code);

/// The result of a fallible operation: OK, or a code and a message.
/// Thread-compatible value type.
class [[nodiscard]] Status {
public:
  Status() = default;
  Status(StatusCode code, std::string message)
      : code_(code), message_(std::move(message)) {}

  static Status ok() { return Status(); }

  bool isOk() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string &message() const { return message_; }

  /// Prefixes the message with context ("loading model.kiln: ...").
  Status withContext(const std::string &context) const;

  /// "INVALID_ARGUMENT: message", or "OK".
  std::string toString() const;

private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

inline Status invalidArgument(std::string message) {
  return Status(StatusCode::kInvalidArgument, std::move(message));
}
inline Status notFound(std::string message) {
  return Status(StatusCode::kNotFound, std::move(message));
}
inline Status dataLoss(std::string message) {
  return Status(StatusCode::kDataLoss, std::move(message));
}
inline Status unimplemented(std::string message) {
  return Status(StatusCode::kUnimplemented, std::move(message));
}
inline Status internalError(std::string message) {
  return Status(StatusCode::kInternal, std::move(message));
}
inline Status aborted(std::string message) {
  return Status(StatusCode::kAborted, std::move(message));
}
inline Status deadlineExceeded(std::string message) {
  return Status(StatusCode::kDeadlineExceeded, std::move(message));
}

/// A value or the Status explaining why there is none.
template <typename T> class [[nodiscard]] StatusOr {
public:
  /// Implicit from an error status; `status` must not be OK.
  StatusOr(Status status) : status_(std::move(status)) {
    assert(!status_.isOk() && "StatusOr needs a value or an error");
    if (status_.isOk())
      status_ = internalError("StatusOr constructed from an OK status");
  }
  StatusOr(T value) : value_(std::move(value)) {}

  bool isOk() const { return status_.isOk(); }
  const Status &status() const { return status_; }

  /// The value; only valid when isOk().
  T &value() & { return *value_; }
  const T &value() const & { return *value_; }
  T &&value() && { return std::move(*value_); }
  T *operator->() { return &*value_; }
  const T *operator->() const { return &*value_; }
  T &operator*() & { return *value_; }
  const T &operator*() const & { return *value_; }

private:
  Status status_;
  std::optional<T> value_;
};

} // namespace kiln::rt

/// Returns from the enclosing function when `expr` yields a non-OK Status.
#define KILN_RETURN_IF_ERROR(expr)                                             \
  do {                                                                         \
    ::kiln::rt::Status kilnStatus_ = (expr);                                   \
    if (!kilnStatus_.isOk())                                                   \
      return kilnStatus_;                                                      \
  } while (false)

#endif // KILN_RUNTIME_STATUS_H
