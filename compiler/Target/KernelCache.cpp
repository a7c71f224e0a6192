//===- KernelCache.cpp - Compiled CUDA modules on disk --------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "compiler/Target/KernelCache.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <cstring>

namespace kiln::compiler {

namespace {
constexpr char kMagic[8] = {'K', 'I', 'L', 'N', 'K', 'C', '1', '\n'};

void putU64(std::string &out, uint64_t value) {
  for (int i = 0; i < 8; ++i)
    out += char((value >> (8 * i)) & 0xff);
}
uint64_t getU64(const char *bytes) {
  uint64_t value = 0;
  for (int i = 0; i < 8; ++i)
    value |= uint64_t(uint8_t(bytes[i])) << (8 * i);
  return value;
}
} // namespace

KernelCache KernelCache::fromEnvironment() {
  std::string base;
  if (const char *dir = std::getenv("KILN_CACHE_DIR")) {
    if (std::strcmp(dir, "off") == 0)
      return KernelCache("");
    base = dir;
  } else if (const char *xdg = std::getenv("XDG_CACHE_HOME")) {
    base = std::string(xdg) + "/kiln";
  } else if (const char *home = std::getenv("HOME")) {
    base = std::string(home) + "/.cache/kiln";
  }
  return KernelCache(base.empty() ? "" : base + "/cuda");
}

std::string KernelCache::pathFor(const std::string &key) const {
  std::array<uint8_t, 32> digest = llvm::SHA256::hash(
      llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(key.data()),
                              key.size()));
  return directory_ + "/" + llvm::toHex(digest, /*LowerCase=*/true) + ".bin";
}

std::optional<std::vector<uint8_t>>
KernelCache::lookup(const std::string &key) const {
  if (!enabled())
    return std::nullopt;
  auto file = llvm::MemoryBuffer::getFile(pathFor(key), /*IsText=*/false,
                                          /*RequiresNullTerminator=*/false);
  if (!file)
    return std::nullopt;
  llvm::StringRef bytes = (*file)->getBuffer();
  if (bytes.size() < 24 || std::memcmp(bytes.data(), kMagic, 8) != 0)
    return std::nullopt;
  uint64_t keySize = getU64(bytes.data() + 8);
  if (keySize > bytes.size() - 24 || keySize != key.size())
    return std::nullopt;
  // Full equality, not just the file name's hash.
  if (bytes.substr(16, keySize) != key)
    return std::nullopt;
  uint64_t imageSize = getU64(bytes.data() + 16 + keySize);
  if (imageSize != bytes.size() - 24 - keySize)
    return std::nullopt;
  const char *image = bytes.data() + 24 + keySize;
  return std::vector<uint8_t>(image, image + imageSize);
}

void KernelCache::store(const std::string &key,
                        const std::vector<uint8_t> &image) const {
  if (!enabled() || llvm::sys::fs::create_directories(directory_))
    return;
  std::string entry(kMagic, 8);
  putU64(entry, key.size());
  entry += key;
  putU64(entry, image.size());
  entry.append(reinterpret_cast<const char *>(image.data()), image.size());
  std::string path = pathFor(key);
  llvm::SmallString<128> temporary;
  int fd = -1;
  if (llvm::sys::fs::createUniqueFile(path + ".%%%%%%.tmp", fd, temporary))
    return;
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << entry;
    if (os.has_error()) {
      os.clear_error();
      llvm::sys::fs::remove(temporary);
      return;
    }
  }
  if (llvm::sys::fs::rename(temporary, path))
    llvm::sys::fs::remove(temporary);
}

} // namespace kiln::compiler
