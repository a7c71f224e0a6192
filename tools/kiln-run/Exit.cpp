//===- Exit.cpp - kiln-run's exit codes -----------------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Exit.h"

#include <cstdio>

namespace kiln::rt {
int exitCodeFor(const Status &status) {
  switch (status.code()) {
  case StatusCode::kOk:
    return 0;
  case StatusCode::kUnimplemented:
    return 3;
  case StatusCode::kInternal:
    return 4;
  case StatusCode::kUnavailable:
  case StatusCode::kResourceExhausted:
    return 5;
  case StatusCode::kAborted:
  case StatusCode::kDeadlineExceeded:
    return 7;
  default:
    return 2;
  }
}

int fail(int code, const std::string &message) {
  std::fprintf(stderr, "kiln-run: error: %s\n", message.c_str());
  return code;
}

} // namespace kiln::rt
