//===- GemmTimingCache.h - Which GEMM path won, kept on disk ------*- C++
//-*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// `--gemm auto` times a contraction's generated kernel and cuBLASLt on the
// device at first load; the verdict is kept in a text file so that later
// loads (and other models with the same GEMM) skip the timing. Keyed by
// GPU, driver, and the GEMM's shape, strides, type and epilogue. One entry
// per line; a later line wins over an earlier one with the same key, so
// caches merge by concatenation (`cat a b > c`).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_SRC_CUDA_GEMMTIMINGCACHE_H
#define KILN_RUNTIME_SRC_CUDA_GEMMTIMINGCACHE_H

#include "kiln/runtime/GemmCall.h"
#include "kiln/runtime/Status.h"

#include <map>
#include <string>

namespace kiln::rt::cuda {

struct GemmTiming {
  bool blasLt = false; ///< cuBLASLt won.
  double kernelMicroseconds = 0, blasLtMicroseconds = 0;
};

class GemmTimingCache {
public:
  /// The key of `call` on a GPU (its name) with a driver version.
  static std::string key(const std::string &gpu, int driverVersion,
                         const GemmCall &call);

  /// Reads `path`; a missing file is an empty cache, and unreadable lines
  /// are skipped (a cache is only an optimisation).
  static GemmTimingCache read(const std::string &path);
  /// Appends `key`'s timing to the file (created if absent).
  Status append(const std::string &key, const GemmTiming &timing);

  const GemmTiming *find(const std::string &key) const;
  void put(const std::string &key, const GemmTiming &timing) {
    entries_[key] = timing;
  }
  size_t size() const { return entries_.size(); }

private:
  std::string path_;
  std::map<std::string, GemmTiming> entries_;
};

} // namespace kiln::rt::cuda

#endif // KILN_RUNTIME_SRC_CUDA_GEMMTIMINGCACHE_H
