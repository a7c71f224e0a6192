//===- Arena.cpp - One aligned block of working memory --------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/Arena.h"

#include <cstdlib>
#include <cstring>
#include <utility>

namespace kiln::rt {

Arena::~Arena() { std::free(data_); }

Arena::Arena(Arena &&other) noexcept
    : data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)) {}

Arena &Arena::operator=(Arena &&other) noexcept {
  if (this != &other) {
    std::free(data_);
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
  }
  return *this;
}

Status Arena::allocate(uint64_t bytes) {
  // aligned_alloc needs a size that is a multiple of the alignment; a
  // 0-byte arena still gets one block so that data() is a real pointer.
  uint64_t rounded = (bytes + kAlignment - 1) / kAlignment * kAlignment;
  if (rounded == 0)
    rounded = kAlignment;
  if (rounded < bytes)
    return invalidArgument("arena size overflows");
  void *memory = std::aligned_alloc(kAlignment, size_t(rounded));
  if (!memory)
    return Status(StatusCode::kResourceExhausted,
                  "cannot allocate a " + std::to_string(bytes) +
                      "-byte arena: out of memory");
  std::memset(memory, 0, size_t(rounded));
  std::free(data_);
  data_ = memory;
  size_ = bytes;
  return Status::ok();
}

} // namespace kiln::rt
