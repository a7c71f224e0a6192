//===- KernelCache.h - Compiled CUDA modules on disk --------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// NVRTC takes tens of milliseconds per module; a model's kernels rarely
// change between compiles. Entries live in one file each, named by a
// SHA-256 of the key, and hold the whole key: a hit requires the stored key
// to equal the requested one byte for byte (a hash collision is a miss).
// The key is the full source, the options, the architecture, the output
// kind and NVRTC's version.
//
// Location: $KILN_CACHE_DIR, else $XDG_CACHE_HOME/kiln, else
// ~/.cache/kiln; `cuda/` below it. KILN_CACHE_DIR=off disables the cache.
// Writes go to a temporary file renamed into place, so concurrent
// compilers never read half an entry.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_TARGET_KERNELCACHE_H
#define KILN_COMPILER_TARGET_KERNELCACHE_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kiln::compiler {

class KernelCache {
public:
  /// The cache in its default location (disabled if none can be found).
  static KernelCache fromEnvironment();
  explicit KernelCache(std::string directory)
      : directory_(std::move(directory)) {}

  bool enabled() const { return !directory_.empty(); }
  std::optional<std::vector<uint8_t>> lookup(const std::string &key) const;
  /// Best effort: a cache that cannot be written is only slower.
  void store(const std::string &key, const std::vector<uint8_t> &image) const;

private:
  std::string pathFor(const std::string &key) const;
  std::string directory_;
};

} // namespace kiln::compiler

#endif // KILN_COMPILER_TARGET_KERNELCACHE_H
