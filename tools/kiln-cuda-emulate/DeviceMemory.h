//===- DeviceMemory.h - The emulator's "device" buffers ---------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_KILN_CUDA_EMULATE_DEVICEMEMORY_H
#define KILN_TOOLS_KILN_CUDA_EMULATE_DEVICEMEMORY_H

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

namespace kiln::emu {

/// A "device" buffer: 256-byte aligned like cudaMalloc's, never null.
struct DeviceBuffer {
  struct Free {
    void operator()(uint8_t *p) const { std::free(p); }
  };
  /// For messages: "input 0", "arena", ...
  std::string name;
  std::unique_ptr<uint8_t, Free> data;
  uint64_t bytes = 0;

  /// `fill`: 0xff bytes (NaN, -1) like uninitialised device memory, else
  /// zeros.
  DeviceBuffer(std::string name, uint64_t size, bool fill)
      : name(std::move(name)), bytes(size) {
    uint64_t rounded = std::max<uint64_t>(256, (size + 255) / 256 * 256);
    data.reset(static_cast<uint8_t *>(std::aligned_alloc(256, rounded)));
    std::memset(data.get(), fill ? 0xff : 0, rounded);
  }
};

} // namespace kiln::emu

#endif // KILN_TOOLS_KILN_CUDA_EMULATE_DEVICEMEMORY_H
