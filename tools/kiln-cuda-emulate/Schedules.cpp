//===- Schedules.cpp - Run a launch under several thread schedules --------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Schedules.h"

#include <vector>

namespace kiln::emu {

namespace {

using Snapshot = std::vector<std::vector<uint8_t>>;

Snapshot take(llvm::ArrayRef<DeviceBuffer *> memory) {
  Snapshot snapshot;
  for (DeviceBuffer *buffer : memory)
    snapshot.emplace_back(buffer->data.get(),
                          buffer->data.get() + buffer->bytes);
  return snapshot;
}

void restore(llvm::ArrayRef<DeviceBuffer *> memory, const Snapshot &from) {
  for (size_t i = 0; i < memory.size(); ++i)
    std::copy(from[i].begin(), from[i].end(), memory[i]->data.get());
}

/// A seed unrelated to its neighbours, so that schedules differ widely.
uint64_t mix(uint64_t seed, unsigned run) {
  uint64_t z = seed + 0x9e3779b97f4a7c15ull * (run + 1);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

} // namespace

std::string launchUnderSchedules(Launch launch,
                                 llvm::ArrayRef<DeviceBuffer *> memory,
                                 unsigned schedules) {
  if (schedules <= 1)
    return emu::launch(launch);
  Snapshot before = take(memory);
  const uint64_t firstSeed = launch.seed;
  if (std::string error = emu::launch(launch); !error.empty())
    return error;
  Snapshot first = take(memory);
  for (unsigned run = 1; run < schedules; ++run) {
    restore(memory, before);
    launch.seed = mix(firstSeed, run);
    if (std::string error = emu::launch(launch); !error.empty())
      return error + " (seed " + std::to_string(launch.seed) + ")";
    for (size_t i = 0; i < memory.size(); ++i) {
      const uint8_t *now = memory[i]->data.get();
      for (uint64_t b = 0; b < memory[i]->bytes; ++b)
        if (now[b] != first[i][b])
          return "kernel " + *launch.kernel +
                 ": the result depends on the order in which threads and "
                 "blocks run (a race): " +
                 memory[i]->name + " differs at byte " + std::to_string(b) +
                 " between seeds " + std::to_string(firstSeed) + " and " +
                 std::to_string(launch.seed);
    }
  }
  return "";
}

} // namespace kiln::emu
