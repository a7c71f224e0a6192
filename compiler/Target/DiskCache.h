//===- DiskCache.h - Compiled code on disk, keyed by its inputs -*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// NVRTC takes tens of milliseconds per module and a whole CPU compile up to
// a minute; what they compile rarely changes between runs. Entries live in
// one file each, named by a BLAKE3 hash of the key, and hold the whole key:
// a hit requires the stored key to equal the requested one byte for byte
// (a hash collision is a miss). Callers put every input of the compile in
// the key (source, options, compiler and target identity). An entry also
// holds the BLAKE3 hash of its value, checked on every hit, so a damaged
// entry is a miss.
//
// A key may come in parts (a short header and a model's hundreds of
// megabytes, mapped from its file) and a hit's value is the entry's mapped
// bytes: a large key or value is never copied.
//
// Location: $KILN_CACHE_DIR, else $XDG_CACHE_HOME/kiln, else
// ~/.cache/kiln; one folder per kind below it (`cuda/` for NVRTC modules,
// `cpu/` for whole CPU artifacts). KILN_CACHE_DIR=off disables the cache.
// Writes go to a temporary file renamed into place, so concurrent
// compilers never read half an entry. A kind may be bounded in size: the
// least recently used entries go first.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_TARGET_DISKCACHE_H
#define KILN_COMPILER_TARGET_DISKCACHE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kiln::compiler {

class DiskCache {
public:
  /// The cache folder of `kind` in its default location (disabled if none
  /// can be found), holding at most `maxBytes` (0: unbounded).
  static DiskCache fromEnvironment(const std::string &kind,
                                   uint64_t maxBytes = 0);
  explicit DiskCache(std::string directory, uint64_t maxBytes = 0)
      : directory_(std::move(directory)), maxBytes_(maxBytes) {}

  bool enabled() const { return !directory_.empty(); }
  const std::string &directory() const { return directory_; }

  /// A hit: the entry's file, mapped, and the value inside it.
  struct Hit {
    std::unique_ptr<llvm::MemoryBuffer> entry;
    llvm::StringRef value;
  };
  /// The value stored under exactly the concatenation of `key`; a hit
  /// marks the entry used.
  std::optional<Hit> lookup(llvm::ArrayRef<llvm::StringRef> key) const;
  /// Best effort: a cache that cannot be written is only slower. Then
  /// removes the least recently used entries beyond the size bound.
  void store(llvm::ArrayRef<llvm::StringRef> key, llvm::StringRef value) const;

  /// Single-part keys and copied values, for small entries.
  std::optional<std::vector<uint8_t>> lookup(const std::string &key) const;
  void store(const std::string &key, const std::vector<uint8_t> &value) const;

private:
  std::string pathFor(llvm::ArrayRef<llvm::StringRef> key) const;
  void evict() const;
  std::string directory_;
  uint64_t maxBytes_ = 0;
};

} // namespace kiln::compiler

#endif // KILN_COMPILER_TARGET_DISKCACHE_H
