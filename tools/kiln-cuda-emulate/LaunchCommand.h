//===- LaunchCommand.h - `kiln-cuda-emulate launch` -------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Runs one hand-written kernel on float buffers: how the tests show that
// the emulator catches each defect it claims to (test/e2e/cuda/defects).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_KILN_CUDA_EMULATE_LAUNCHCOMMAND_H
#define KILN_TOOLS_KILN_CUDA_EMULATE_LAUNCHCOMMAND_H

#include "HostCompile.h"

#include <string>
#include <vector>

namespace kiln::emu {

struct LaunchRequest {
  std::string file, kernel, grid, block;
  /// Elements of each float buffer, one per kernel argument.
  std::vector<uint64_t> buffers;
};

/// Prints each buffer's first elements after the launch; returns the exit
/// code (0, 1 usage, 4 internal, kKernelDefectExit).
int runLaunchCommand(const LaunchRequest &request,
                     const EmulationOptions &options);

} // namespace kiln::emu

#endif // KILN_TOOLS_KILN_CUDA_EMULATE_LAUNCHCOMMAND_H
