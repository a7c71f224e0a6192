//===- Schedules.h - Run a launch under several thread schedules -*- C++
//-*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// A kernel's result must not depend on the order in which its blocks and
// threads run. Running each launch under a few seeds and comparing every
// byte it could write catches what the __shared__ checks cannot see: races
// through global memory, between blocks, or results that depend on which
// thread finished first.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_KILN_CUDA_EMULATE_SCHEDULES_H
#define KILN_TOOLS_KILN_CUDA_EMULATE_SCHEDULES_H

#include "BlockRunner.h"
#include "DeviceMemory.h"

#include "llvm/ADT/ArrayRef.h"

namespace kiln::emu {

/// Runs `launch` with `schedules` seeds (launch.seed first), restoring
/// `memory` in between. Empty when every run succeeds and all leave the
/// same bytes in `memory`; else the first defect or difference.
std::string launchUnderSchedules(Launch launch,
                                 llvm::ArrayRef<DeviceBuffer *> memory,
                                 unsigned schedules);

} // namespace kiln::emu

#endif // KILN_TOOLS_KILN_CUDA_EMULATE_SCHEDULES_H
