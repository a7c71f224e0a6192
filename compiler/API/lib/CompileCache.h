//===- CompileCache.h - Whole compiled CPU models on disk -------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// An unchanged model should not take a minute to compile twice. The cache
// keeps whole CPU artifacts keyed by everything a compile reads: the
// model's bytes and name, every compile option, the compiler's own build
// (its ELF build ID) and the host CPU. A hit needs the stored key to equal
// the requested one byte for byte (DiskCache), and the artifact is decoded
// and validated like any other before it runs. See docs/compile-cache.md.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_API_COMPILECACHE_H
#define KILN_COMPILER_API_COMPILECACHE_H

#include "compiler/Target/DiskCache.h"
#include "kiln/kiln.h"
#include "kiln/runtime/Artifact.h"

#include <optional>
#include <string>

namespace kiln {

class CompileCache {
public:
  /// What a compile is for: the same options give different artifacts
  /// for the in-process JIT (this CPU) and for an artifact file.
  enum class Use { kJit, kArtifact };

  /// The cache in its default location (compiler/Target/DiskCache.h),
  /// `cpu/` below it; disabled by CompileOptions::compileCache = false.
  static CompileCache forOptions(const CompileOptions &options);

  /// Everything a compile reads: the options and identities (`header`)
  /// and the model's bytes (`source`, mapped from its file, not copied).
  struct Key {
    std::string header;
    std::unique_ptr<llvm::MemoryBuffer> file;
    llvm::StringRef source;
  };
  /// The key of compiling `source` with `options` for `use`, or nothing
  /// when the compile reads what the key cannot hold (then `*why` says
  /// what): pass plugins, calibration data, several devices, a CUDA
  /// target, ONNX external data, a model file that cannot be read.
  std::optional<Key> key(const ModelSource &source,
                         const CompileOptions &options, Use use,
                         std::string *why) const;

  bool enabled() const { return disk_.enabled(); }
  /// The encoded artifact stored under `key` (checked against its hash).
  std::optional<compiler::DiskCache::Hit> lookup(const Key &key) const;
  /// The same, decoded and validated; an entry that fails is a miss.
  std::optional<rt::Artifact> lookupArtifact(const Key &key,
                                             const std::string &name) const;
  void store(const Key &key, const rt::Artifact &artifact) const;

private:
  explicit CompileCache(compiler::DiskCache disk) : disk_(std::move(disk)) {}
  compiler::DiskCache disk_;
};

} // namespace kiln

#endif // KILN_COMPILER_API_COMPILECACHE_H
