//===- DiskCache.cpp - Compiled code on disk, keyed by its inputs ---------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// An entry: magic, key size, key, value size, BLAKE3 of the value, value
// (sizes as little-endian u64).
//
//===----------------------------------------------------------------------===//

#include "compiler/Target/DiskCache.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/BLAKE3.h"
#include "llvm/Support/Chrono.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <utime.h>

namespace kiln::compiler {

namespace {
constexpr char kMagic[8] = {'K', 'I', 'L', 'N', 'K', 'C', '2', '\n'};
constexpr size_t kDigestSize = 32;

void putU64(llvm::raw_ostream &out, uint64_t value) {
  for (int i = 0; i < 8; ++i)
    out << char((value >> (8 * i)) & 0xff);
}
uint64_t getU64(const char *bytes) {
  uint64_t value = 0;
  for (int i = 0; i < 8; ++i)
    value |= uint64_t(uint8_t(bytes[i])) << (8 * i);
  return value;
}
uint64_t sizeOf(llvm::ArrayRef<llvm::StringRef> parts) {
  uint64_t size = 0;
  for (llvm::StringRef part : parts)
    size += part.size();
  return size;
}
llvm::BLAKE3Result<kDigestSize> digestOf(llvm::StringRef bytes) {
  return llvm::BLAKE3::hash<kDigestSize>(llvm::arrayRefFromStringRef(bytes));
}
} // namespace

DiskCache DiskCache::fromEnvironment(const std::string &kind,
                                     uint64_t maxBytes) {
  std::string base;
  if (const char *dir = std::getenv("KILN_CACHE_DIR")) {
    if (std::strcmp(dir, "off") == 0)
      return DiskCache("");
    base = dir;
  } else if (const char *xdg = std::getenv("XDG_CACHE_HOME")) {
    base = std::string(xdg) + "/kiln";
  } else if (const char *home = std::getenv("HOME")) {
    base = std::string(home) + "/.cache/kiln";
  }
  return DiskCache(base.empty() ? "" : base + "/" + kind, maxBytes);
}

std::string DiskCache::pathFor(llvm::ArrayRef<llvm::StringRef> key) const {
  // BLAKE3 hashes a model's hundreds of megabytes in tens of milliseconds.
  llvm::BLAKE3 hasher;
  for (llvm::StringRef part : key)
    hasher.update(part);
  llvm::BLAKE3Result<32> digest = hasher.final<32>();
  return directory_ + "/" + llvm::toHex(digest, /*LowerCase=*/true) + ".bin";
}

std::optional<DiskCache::Hit>
DiskCache::lookup(llvm::ArrayRef<llvm::StringRef> key) const {
  if (!enabled())
    return std::nullopt;
  std::string path = pathFor(key);
  // Mapped, not read: a model-sized key is compared in place.
  auto file = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                          /*RequiresNullTerminator=*/false);
  if (!file)
    return std::nullopt;
  llvm::StringRef bytes = (*file)->getBuffer();
  uint64_t keySize = sizeOf(key);
  if (bytes.size() < 24 + kDigestSize ||
      std::memcmp(bytes.data(), kMagic, 8) != 0 ||
      getU64(bytes.data() + 8) != keySize ||
      keySize > bytes.size() - 24 - kDigestSize)
    return std::nullopt;
  // Full equality, not just the file name's hash.
  size_t offset = 16;
  for (llvm::StringRef part : key) {
    if (bytes.substr(offset, part.size()) != part)
      return std::nullopt;
    offset += part.size();
  }
  uint64_t valueSize = getU64(bytes.data() + offset);
  offset += 8;
  llvm::StringRef digest = bytes.substr(offset, kDigestSize);
  offset += kDigestSize;
  if (valueSize != bytes.size() - offset)
    return std::nullopt;
  llvm::StringRef value = bytes.substr(offset);
  auto actual = digestOf(value);
  if (digest != llvm::StringRef(reinterpret_cast<const char *>(actual.data()),
                                actual.size()))
    return std::nullopt; // Damaged since it was written.
  if (maxBytes_ != 0)    // Recently used: evicted last.
    (void)::utime(path.c_str(), nullptr);
  return Hit{std::move(*file), value};
}

void DiskCache::store(llvm::ArrayRef<llvm::StringRef> key,
                      llvm::StringRef value) const {
  if (!enabled() || llvm::sys::fs::create_directories(directory_))
    return;
  std::string path = pathFor(key);
  llvm::SmallString<128> temporary;
  int fd = -1;
  if (llvm::sys::fs::createUniqueFile(path + ".%%%%%%.tmp", fd, temporary))
    return;
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os.write(kMagic, sizeof(kMagic));
    putU64(os, sizeOf(key));
    for (llvm::StringRef part : key)
      os << part;
    putU64(os, value.size());
    auto digest = digestOf(value);
    os.write(reinterpret_cast<const char *>(digest.data()), digest.size());
    os << value;
    os.close();
    if (os.has_error()) {
      os.clear_error();
      llvm::sys::fs::remove(temporary);
      return;
    }
  }
  if (llvm::sys::fs::rename(temporary, path))
    llvm::sys::fs::remove(temporary);
  evict();
}

std::optional<std::vector<uint8_t>>
DiskCache::lookup(const std::string &key) const {
  llvm::StringRef part = key;
  std::optional<Hit> hit = lookup(llvm::ArrayRef<llvm::StringRef>(part));
  if (!hit)
    return std::nullopt;
  return std::vector<uint8_t>(hit->value.bytes_begin(), hit->value.bytes_end());
}

void DiskCache::store(const std::string &key,
                      const std::vector<uint8_t> &value) const {
  llvm::StringRef part = key;
  store(llvm::ArrayRef<llvm::StringRef>(part), llvm::toStringRef(value));
}

void DiskCache::evict() const {
  if (maxBytes_ == 0)
    return;
  struct Entry {
    std::string path;
    uint64_t size;
    llvm::sys::TimePoint<> used;
  };
  std::vector<Entry> entries;
  uint64_t total = 0;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(directory_, ec), end;
       !ec && it != end; it.increment(ec)) {
    if (!llvm::StringRef(it->path()).ends_with(".bin"))
      continue; // Another compiler's temporary file.
    llvm::ErrorOr<llvm::sys::fs::basic_file_status> status = it->status();
    if (!status)
      continue;
    entries.push_back(
        {it->path(), status->getSize(), status->getLastModificationTime()});
    total += status->getSize();
  }
  std::sort(entries.begin(), entries.end(),
            [](const Entry &a, const Entry &b) { return a.used < b.used; });
  for (const Entry &entry : entries) {
    if (total <= maxBytes_)
      break;
    if (!llvm::sys::fs::remove(entry.path))
      total -= entry.size;
  }
}

} // namespace kiln::compiler
