//===- SharedChecker.cpp - Races and uninitialised reads in __shared__ ----===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "SharedChecker.h"

#include <cstring>

namespace kiln::emu {

void SharedChecker::attach(uint8_t *begin, uint8_t *end) {
  begin_ = begin;
  end_ = end;
  shadow_.assign(end - begin, Shadow{});
}

void SharedChecker::beginBlock() {
  std::memset(begin_, 0xff, end_ - begin_);
  ++block_;
  ++interval_;
  unwrittenRead_.reset();
}

std::optional<SharedFinding> SharedChecker::barrier() {
  ++interval_;
  std::optional<SharedFinding> finding = unwrittenRead_;
  unwrittenRead_.reset();
  return finding;
}

std::optional<SharedFinding> SharedChecker::access(const uint8_t *address,
                                                   unsigned size, bool write,
                                                   int thread) {
  for (unsigned i = 0; i < size; ++i) {
    const uint8_t *byte = address + i;
    if (!contains(byte))
      continue;
    uint64_t offset = byte - begin_;
    Shadow &s = shadow_[offset];
    if (s.interval != interval_) {
      s.interval = interval_;
      s.writer = s.reader = -1;
    }
    if (s.writer >= 0 && s.writer != thread)
      return SharedFinding{
          SharedFinding::Kind::kRace, offset, thread, write, s.writer, true};
    if (!write) {
      if (s.writtenInBlock != block_ && !unwrittenRead_)
        unwrittenRead_ = SharedFinding{SharedFinding::Kind::kUninitialisedRead,
                                       offset, thread, false};
      if (s.reader == -1)
        s.reader = thread;
      else if (s.reader != thread)
        s.reader = kMany;
      continue;
    }
    if (s.reader == kMany || (s.reader >= 0 && s.reader != thread))
      // kMany: some reader other than this thread; name none in particular.
      return SharedFinding{
          SharedFinding::Kind::kRace,        offset, thread, true,
          s.reader == kMany ? -1 : s.reader, false};
    s.writer = thread;
    s.writtenInBlock = block_;
  }
  return std::nullopt;
}

} // namespace kiln::emu
