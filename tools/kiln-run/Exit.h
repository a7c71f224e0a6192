//===- Exit.h - kiln-run's exit codes ---------------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// kiln-run links only the runtime, so it cannot use kiln::exitCodeFor (the
// C++ API's). Its mapping differs in one place on purpose: a failed
// precondition here comes from the artifact or the ranks (a collective over
// another number of ranks than the group's), so it is exit 2, not kilnc's
// usage error 1.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_KILNRUN_EXIT_H
#define KILN_TOOLS_KILNRUN_EXIT_H

#include "kiln/runtime/Status.h"

#include <string>

namespace kiln::rt {

/// 2 invalid artifact or inputs, 3 unsupported, 4 internal, 5 device
/// unavailable, 7 a collective failed.
int exitCodeFor(const Status &status);

/// Prints "kiln-run: error: MESSAGE" and returns `code`.
int fail(int code, const std::string &message);

} // namespace kiln::rt

#endif // KILN_TOOLS_KILNRUN_EXIT_H
