//===- ByteIO.h - Little-endian encoding with bounds checks -----*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// ByteWriter appends little-endian values; ByteReader reads them back and
// fails (rather than reading past the end) on truncated input. Used by the
// artifact container and the program encoding.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_SRC_ARTIFACT_BYTEIO_H
#define KILN_RUNTIME_SRC_ARTIFACT_BYTEIO_H

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace kiln::rt {

class ByteWriter {
public:
  void u8(uint8_t v) { bytes_.push_back(v); }
  void u32(uint32_t v) {
    for (int i = 0; i < 4; ++i)
      bytes_.push_back(uint8_t(v >> (8 * i)));
  }
  void u64(uint64_t v) {
    for (int i = 0; i < 8; ++i)
      bytes_.push_back(uint8_t(v >> (8 * i)));
  }
  void i64(int64_t v) { u64(uint64_t(v)); }
  void string(const std::string &s) {
    u32(uint32_t(s.size()));
    bytes_.insert(bytes_.end(), s.begin(), s.end());
  }
  void raw(const void *data, size_t size) {
    auto *p = static_cast<const uint8_t *>(data);
    bytes_.insert(bytes_.end(), p, p + size);
  }
  void padTo(size_t alignment) {
    while (bytes_.size() % alignment)
      bytes_.push_back(0);
  }
  std::vector<uint8_t> &bytes() { return bytes_; }

private:
  std::vector<uint8_t> bytes_;
};

/// Reads from [data, data + size). After the first failure every read
/// fails; check ok() once at the end.
class ByteReader {
public:
  ByteReader(const uint8_t *data, size_t size) : data_(data), size_(size) {}

  bool ok() const { return ok_; }
  size_t remaining() const { return ok_ ? size_ - position_ : 0; }

  uint8_t u8() {
    uint8_t v = 0;
    read(&v, 1);
    return v;
  }
  uint32_t u32() {
    uint8_t b[4] = {};
    read(b, 4);
    return uint32_t(b[0]) | uint32_t(b[1]) << 8 | uint32_t(b[2]) << 16 |
           uint32_t(b[3]) << 24;
  }
  uint64_t u64() {
    uint64_t lo = u32();
    uint64_t hi = u32();
    return lo | hi << 32;
  }
  int64_t i64() { return int64_t(u64()); }
  /// `n` raw bytes.
  void raw(void *out, size_t n) { read(out, n); }
  /// The next `n` bytes in place (skipped), or null past the end.
  const uint8_t *take(size_t n) {
    if (!ok_ || n > size_ - position_) {
      ok_ = false;
      return nullptr;
    }
    const uint8_t *at = data_ + position_;
    position_ += n;
    return at;
  }
  /// A length-prefixed string of at most `maxLength` bytes.
  std::string string(size_t maxLength) {
    uint32_t length = u32();
    if (!ok_ || length > maxLength || length > remaining()) {
      ok_ = false;
      return {};
    }
    std::string s(reinterpret_cast<const char *>(data_ + position_), length);
    position_ += length;
    return s;
  }

private:
  void read(void *out, size_t n) {
    if (!ok_ || n > size_ - position_) {
      ok_ = false;
      return;
    }
    std::memcpy(out, data_ + position_, n);
    position_ += n;
  }

  const uint8_t *data_;
  size_t size_;
  size_t position_ = 0;
  bool ok_ = true;
};

} // namespace kiln::rt

#endif // KILN_RUNTIME_SRC_ARTIFACT_BYTEIO_H
