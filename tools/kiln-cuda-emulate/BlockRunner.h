//===- BlockRunner.h - Run a kernel's grid on CPU threads -------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The tool's half of CudaHostShim.h: runs a compiled kernel over its grid
// and implements __syncthreads() and __shfl_xor_sync() for it.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_KILN_CUDA_EMULATE_BLOCKRUNNER_H
#define KILN_TOOLS_KILN_CUDA_EMULATE_BLOCKRUNNER_H

#include <cstdint>

namespace kiln::emu {

/// A kernel entry point of the host library: arguments, then the 12
/// indices (threadIdx, blockIdx, blockDim, gridDim).
using KernelEntry = void (*)(void **args, const unsigned *ids);

/// Mirrors KilnEmuHooks in CudaHostShim.h.
struct Hooks {
  void (*syncthreads)();
  uint64_t (*shuffleXor)(uint64_t value, int laneMask, int width);
};

/// The hooks to hand to the library's kiln_emu_init.
const Hooks &hooks();

/// Runs `entry` over grid x block, blocks one after another. `threaded`:
/// the block's threads as concurrent OS threads (needed when they
/// synchronise or share memory); else one after another on this thread.
void launch(KernelEntry entry, void **args, const uint32_t grid[3],
            const uint32_t block[3], bool threaded);

} // namespace kiln::emu

#endif // KILN_TOOLS_KILN_CUDA_EMULATE_BLOCKRUNNER_H
