//===- FaultInjection.h - Test-only faults in collectives -------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// KILN_TEST_COLLECTIVE_FAULT=RANK:INDEX:ACTION makes rank RANK, at its
// INDEX-th collective (0-based, counted over all runs), fail (an error),
// hang (sleep four times the collective timeout, then go on) or exit (the
// process ends with status 3, as a crashed rank would). The failure tests
// of docs/sharding.md use it; nothing else should.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_KILNRUN_FAULTINJECTION_H
#define KILN_TOOLS_KILNRUN_FAULTINJECTION_H

#include "kiln/runtime/MultiRankExecutable.h"

namespace kiln::rt {

/// The wrapper the environment asks for (null without the variable);
/// kInvalidArgument for a malformed value.
StatusOr<CollectivesWrapper> faultInjectionFromEnvironment(unsigned timeoutMs);

} // namespace kiln::rt

#endif // KILN_TOOLS_KILNRUN_FAULTINJECTION_H
