//===- LaunchLimits.h - CUDA's launch limits and __launch_bounds__ -*- C++
//-*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// What cuLaunchKernel would refuse: a block over 1024 threads or over a
// dimension's limit, a grid over its limits, and a block larger than the
// kernel's __launch_bounds__ (ptxas budgets registers for that many
// threads; more fail with CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_KILN_CUDA_EMULATE_LAUNCHLIMITS_H
#define KILN_TOOLS_KILN_CUDA_EMULATE_LAUNCHLIMITS_H

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace kiln::emu {

/// The maximum threads per block of every kernel whose definition carries
/// `__launch_bounds__(N)` or `__launch_bounds__(N, minBlocks)` in `source`.
llvm::StringMap<unsigned> readLaunchBounds(llvm::StringRef source);

/// Empty when a launch of `kernel` with this grid and block is valid on
/// sm_80/sm_90, else why not (naming the kernel).
std::string checkLaunch(llvm::StringRef kernel, const uint32_t grid[3],
                        const uint32_t block[3],
                        std::optional<unsigned> launchBound);

/// The same, with the bound looked up in readLaunchBounds' result.
std::string checkLaunch(llvm::StringRef kernel, const uint32_t grid[3],
                        const uint32_t block[3],
                        const llvm::StringMap<unsigned> &launchBounds);

} // namespace kiln::emu

#endif // KILN_TOOLS_KILN_CUDA_EMULATE_LAUNCHLIMITS_H
