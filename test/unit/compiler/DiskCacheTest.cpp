//===- DiskCacheTest.cpp - The on-disk compile caches' store --------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "compiler/Target/DiskCache.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <gtest/gtest.h>
#include <unistd.h>
#include <utime.h>

using kiln::compiler::DiskCache;

namespace {

class DiskCacheTest : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> folder;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("kiln-cache", folder));
    folder_ = folder.str().str();
  }
  void TearDown() override { llvm::sys::fs::remove_directories(folder_); }

  /// The files in the cache folder.
  std::vector<std::string> paths() const {
    std::vector<std::string> found;
    std::error_code ec;
    for (llvm::sys::fs::directory_iterator it(folder_, ec), end;
         !ec && it != end; it.increment(ec))
      found.push_back(it->path());
    return found;
  }
  size_t entries() const { return paths().size(); }
  /// Makes every entry look used `seconds` ago.
  void age(int seconds) const {
    time_t then = ::time(nullptr) - seconds;
    for (const std::string &path : paths()) {
      struct utimbuf times = {then, then};
      ASSERT_EQ(::utime(path.c_str(), &times), 0);
    }
  }

  std::string folder_;
};

std::vector<uint8_t> bytes(size_t size, uint8_t value) {
  return std::vector<uint8_t>(size, value);
}

TEST_F(DiskCacheTest, AHitNeedsTheWholeKey) {
  DiskCache cache(folder_);
  cache.store("key one", bytes(10, 1));
  EXPECT_EQ(cache.lookup("key one"), bytes(10, 1));
  EXPECT_FALSE(cache.lookup("key one ").has_value());
  EXPECT_FALSE(cache.lookup("key two").has_value());
  // Storing again replaces the value.
  cache.store("key one", bytes(3, 2));
  EXPECT_EQ(cache.lookup("key one"), bytes(3, 2));
  EXPECT_EQ(entries(), 1u);
}

TEST_F(DiskCacheTest, ATruncatedEntryIsAMiss) {
  DiskCache cache(folder_);
  cache.store("key", bytes(100, 7));
  ASSERT_EQ(entries(), 1u);
  ASSERT_EQ(::truncate(paths().front().c_str(), 60), 0);
  EXPECT_FALSE(cache.lookup("key").has_value());
}

TEST_F(DiskCacheTest, AChangedValueIsAMiss) {
  DiskCache cache(folder_);
  cache.store("key", bytes(100, 7));
  ASSERT_EQ(entries(), 1u);
  // The last byte is the value's.
  FILE *file = std::fopen(paths().front().c_str(), "r+b");
  ASSERT_NE(file, nullptr);
  ASSERT_EQ(std::fseek(file, -1, SEEK_END), 0);
  std::fputc(8, file);
  std::fclose(file);
  EXPECT_FALSE(cache.lookup("key").has_value());
}

TEST_F(DiskCacheTest, AKeyInPartsIsTheirConcatenation) {
  DiskCache cache(folder_);
  llvm::StringRef parts[] = {"header|", "model bytes"};
  cache.store(parts, "value");
  std::optional<DiskCache::Hit> hit = cache.lookup(parts);
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->value, "value");
  EXPECT_EQ(cache.lookup("header|model bytes"),
            std::vector<uint8_t>({'v', 'a', 'l', 'u', 'e'}));
  llvm::StringRef other[] = {"header|", "model byteZ"};
  EXPECT_FALSE(cache.lookup(other).has_value());
}

TEST_F(DiskCacheTest, TheLeastRecentlyUsedEntriesGoFirst) {
  // Room for two 1000-byte values and their keys, not three.
  DiskCache cache(folder_, 2500);
  cache.store("a", bytes(1000, 1));
  cache.store("b", bytes(1000, 2));
  age(60);
  // "a" used since: "b" is now the least recently used.
  ASSERT_TRUE(cache.lookup("a").has_value());
  cache.store("c", bytes(1000, 3));
  EXPECT_EQ(entries(), 2u);
  EXPECT_TRUE(cache.lookup("a").has_value());
  EXPECT_FALSE(cache.lookup("b").has_value());
  EXPECT_TRUE(cache.lookup("c").has_value());
}

TEST_F(DiskCacheTest, UnboundedKeepsEverything) {
  DiskCache cache(folder_);
  for (int i = 0; i < 5; ++i)
    cache.store("key " + std::to_string(i), bytes(1000, uint8_t(i)));
  EXPECT_EQ(entries(), 5u);
}

TEST_F(DiskCacheTest, OffMeansNoFolder) {
  ::setenv("KILN_CACHE_DIR", "off", 1);
  DiskCache off = DiskCache::fromEnvironment("cpu");
  EXPECT_FALSE(off.enabled());
  off.store("key", bytes(1, 1));
  EXPECT_FALSE(off.lookup("key").has_value());
  ::setenv("KILN_CACHE_DIR", folder_.c_str(), 1);
  DiskCache on = DiskCache::fromEnvironment("cpu");
  EXPECT_EQ(on.directory(), folder_ + "/cpu");
  ::unsetenv("KILN_CACHE_DIR");
}

} // namespace
