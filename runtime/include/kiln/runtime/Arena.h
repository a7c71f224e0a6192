//===- Arena.h - One aligned block of working memory ------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The memory a compiled program's kernels use for intermediate buffers: one
// allocation per loaded executable, at offsets the compiler chose, reused by
// every run. Move-only; thread-compatible.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_ARENA_H
#define KILN_RUNTIME_ARENA_H

#include "kiln/runtime/Status.h"

#include <cstddef>
#include <cstdint>

namespace kiln::rt {

class Arena {
public:
  /// Alignment of the arena's start (offsets inside are aligned by the
  /// compiler to the same boundary).
  static constexpr size_t kAlignment = 64;

  Arena() = default;
  ~Arena();
  Arena(Arena &&other) noexcept;
  Arena &operator=(Arena &&other) noexcept;
  Arena(const Arena &) = delete;
  Arena &operator=(const Arena &) = delete;

  /// Allocates `bytes` (zero-filled); fails cleanly when memory is short.
  Status allocate(uint64_t bytes);

  /// The start of the arena; a valid (aligned, non-null) pointer even when
  /// it holds 0 bytes, since kernels take it as an argument regardless.
  void *data() { return data_; }
  uint64_t size() const { return size_; }

private:
  void *data_ = nullptr;
  uint64_t size_ = 0;
};

} // namespace kiln::rt

#endif // KILN_RUNTIME_ARENA_H
