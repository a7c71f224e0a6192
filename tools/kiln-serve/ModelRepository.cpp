//===- ModelRepository.cpp - The folder of NAME.kiln files ----------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "ModelRepository.h"

#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <algorithm>
#include <memory>

namespace kiln::serve {

static const char kSuffix[] = ".kiln";
static constexpr size_t kSuffixLength = sizeof(kSuffix) - 1;

static std::string resolved(const std::string &path) {
  std::unique_ptr<char, decltype(&free)> real(realpath(path.c_str(), nullptr),
                                              &free);
  return real ? std::string(real.get()) : std::string();
}

rt::StatusOr<ModelRepository> ModelRepository::open(const std::string &folder) {
  std::string real = resolved(folder);
  struct stat info;
  if (real.empty() || stat(real.c_str(), &info) != 0 || !S_ISDIR(info.st_mode))
    return rt::notFound("model repository '" + folder + "' is not a folder");
  return ModelRepository(real);
}

bool ModelRepository::isModelName(const std::string &name) {
  if (name.empty() || name.size() > 128 || name[0] == '.')
    return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
  });
}

std::vector<std::string> ModelRepository::scan() const {
  std::vector<std::string> names;
  DIR *dir = opendir(folder_.c_str());
  if (!dir)
    return names;
  while (dirent *entry = readdir(dir)) {
    std::string file = entry->d_name;
    if (file.size() <= kSuffixLength ||
        file.compare(file.size() - kSuffixLength, kSuffixLength, kSuffix) != 0)
      continue;
    std::string name = file.substr(0, file.size() - kSuffixLength);
    if (isModelName(name) && locate(name).isOk())
      names.push_back(name);
  }
  closedir(dir);
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<int> ModelRepository::variants(const std::string &name) const {
  std::vector<int> sizes;
  if (!isModelName(name))
    return sizes;
  DIR *dir = opendir(folder_.c_str());
  if (!dir)
    return sizes;
  std::string prefix = name + "@b";
  while (dirent *entry = readdir(dir)) {
    std::string file = entry->d_name;
    if (file.size() <= prefix.size() + kSuffixLength ||
        file.compare(0, prefix.size(), prefix) != 0 ||
        file.compare(file.size() - kSuffixLength, kSuffixLength, kSuffix) != 0)
      continue;
    std::string digits =
        file.substr(prefix.size(), file.size() - kSuffixLength - prefix.size());
    if (digits.empty() || digits.size() > 5 || digits[0] == '0' ||
        !std::all_of(digits.begin(), digits.end(),
                     [](char c) { return c >= '0' && c <= '9'; }))
      continue;
    int size = std::stoi(digits);
    if (size >= 2 && locate(name, size).isOk())
      sizes.push_back(size);
  }
  closedir(dir);
  std::sort(sizes.begin(), sizes.end());
  return sizes;
}

std::map<int, FileStamp>
ModelRepository::versions(const std::string &name) const {
  std::map<int, FileStamp> files;
  std::vector<int> sizes = variants(name);
  sizes.insert(sizes.begin(), 1);
  for (int batch : sizes) {
    rt::StatusOr<std::string> path = locate(name, batch);
    struct stat info;
    if (!path.isOk() || stat(path->c_str(), &info) != 0)
      continue;
    FileStamp &stamp = files[batch];
    stamp.device = info.st_dev;
    stamp.inode = info.st_ino;
    stamp.size = info.st_size;
    stamp.modifiedNs = std::int64_t(info.st_mtim.tv_sec) * 1'000'000'000 +
                       info.st_mtim.tv_nsec;
  }
  return files;
}

rt::StatusOr<std::string> ModelRepository::locate(const std::string &name,
                                                  int batchSize) const {
  if (!isModelName(name))
    return rt::invalidArgument("'" + name + "' is not a model name");
  std::string file =
      batchSize == 1 ? name : name + "@b" + std::to_string(batchSize);
  std::string real = resolved(folder_ + "/" + file + kSuffix);
  struct stat info;
  if (real.empty() || real.compare(0, folder_.size() + 1, folder_ + "/") != 0 ||
      stat(real.c_str(), &info) != 0 || !S_ISREG(info.st_mode))
    return rt::notFound("no model '" + name + "' in the repository");
  return real;
}

} // namespace kiln::serve
