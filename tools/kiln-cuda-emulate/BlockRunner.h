//===- BlockRunner.h - Run a kernel's grid on the CPU -----------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The tool's half of CudaHostShim.h: runs a compiled kernel over its grid
// and implements __syncthreads(), __shfl_xor_sync() and the __shared__
// memory checks for it.
//
// A block's threads are fibers on the calling thread, switched at barriers,
// shuffles and (at random) at shared-memory accesses, in an order drawn from
// a seeded generator: a run is reproducible, and another seed interleaves
// the threads differently. Whatever the order, SharedChecker reports races
// and uninitialised reads of shared memory; a barrier that not every thread
// of the block reaches at the same place is an error, not a hang.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_KILN_CUDA_EMULATE_BLOCKRUNNER_H
#define KILN_TOOLS_KILN_CUDA_EMULATE_BLOCKRUNNER_H

#include <cstdint>
#include <string>

namespace kiln::emu {

/// A kernel entry point of the host library: arguments, then the 12
/// indices (threadIdx, blockIdx, blockDim, gridDim).
using KernelEntry = void (*)(void **args, const unsigned *ids);

/// Mirrors KilnEmuHooks in CudaHostShim.h.
struct Hooks {
  void (*syncthreads)(int line);
  uint64_t (*shuffleXor)(uint64_t value, int laneMask, int width, int line);
  /// A load or store of `size` bytes of __shared__ memory.
  void (*sharedAccess)(void *address, unsigned size, int isWrite);
  /// What would fault on a GPU (a misaligned WMMA tile): ends the launch.
  void (*fault)(const char *message);
};

/// The hooks to hand to the library's kiln_emu_init.
const Hooks &hooks();

/// What the runner needs from the loaded host library.
struct Library {
  /// Sets threadIdx, blockIdx, blockDim and gridDim (12 numbers); called
  /// whenever another CUDA thread resumes.
  void (*enter)(const unsigned *ids);
  /// Every __shared__ variable of the program lies in [sharedBegin,
  /// sharedEnd).
  uint8_t *sharedBegin, *sharedEnd;
};

/// Call once the library is loaded, before any launch.
void attach(const Library &library);

struct Launch {
  const std::string *kernel;
  KernelEntry entry;
  void **args;
  uint32_t grid[3], block[3];
  /// Threads as fibers (needed when they synchronise or share memory);
  /// else each runs to its end in turn.
  bool threaded;
  /// Picks the order of blocks and the interleaving of threads.
  uint64_t seed;
  /// Report races and reads of unwritten __shared__ memory.
  bool checkShared = true;
};

/// Runs `launch`. Empty on success, else the defect, naming the kernel,
/// the block and the thread.
std::string launch(const Launch &launch);

} // namespace kiln::emu

#endif // KILN_TOOLS_KILN_CUDA_EMULATE_BLOCKRUNNER_H
