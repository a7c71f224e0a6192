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

/// Entries of `folder` (none when it cannot be read).
static std::vector<std::string> entries(const std::string &folder) {
  std::vector<std::string> names;
  if (DIR *dir = opendir(folder.c_str())) {
    while (dirent *entry = readdir(dir))
      names.push_back(entry->d_name);
    closedir(dir);
  }
  return names;
}

int ModelRepository::positiveNumber(const std::string &text, size_t digits) {
  if (text.empty() || text.size() > digits || text[0] == '0' ||
      !std::all_of(text.begin(), text.end(),
                   [](char c) { return c >= '0' && c <= '9'; }))
    return 0;
  return std::stoi(text);
}

/// The stamp of the regular file at `path`, if there is one.
static std::optional<FileStamp> stampOf(const std::string &path) {
  struct stat info;
  if (stat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode))
    return std::nullopt;
  FileStamp stamp;
  stamp.device = info.st_dev;
  stamp.inode = info.st_ino;
  stamp.size = info.st_size;
  stamp.modifiedNs =
      std::int64_t(info.st_mtim.tv_sec) * 1'000'000'000 + info.st_mtim.tv_nsec;
  return stamp;
}

static bool isFolder(const std::string &path) {
  struct stat info;
  return !path.empty() && stat(path.c_str(), &info) == 0 &&
         S_ISDIR(info.st_mode);
}

static bool isFile(const std::string &path) {
  struct stat info;
  return !path.empty() && stat(path.c_str(), &info) == 0 &&
         S_ISREG(info.st_mode);
}

std::string ModelRepository::inside(const std::string &path) const {
  std::string real = resolved(path);
  if (real.compare(0, folder_.size() + 1, folder_ + "/") != 0)
    return std::string();
  return real;
}

std::vector<int>
ModelRepository::availableVersions(const std::string &name) const {
  if (!isModelName(name))
    return {};
  std::string models = inside(folder_ + "/" + name);
  if (!isFolder(models))
    return isFile(inside(folder_ + "/" + name + kSuffix)) ? std::vector<int>{1}
                                                          : std::vector<int>{};
  std::vector<int> versions;
  for (const std::string &entry : entries(models)) {
    int version = positiveNumber(entry, 9);
    if (version > 0 &&
        isFile(inside(models + "/" + entry + "/model" + kSuffix)))
      versions.push_back(version);
  }
  std::sort(versions.begin(), versions.end());
  return versions;
}

int ModelRepository::servedVersion(const std::string &name) const {
  std::vector<int> versions = availableVersions(name);
  return versions.empty() ? 0 : versions.back();
}

rt::StatusOr<std::pair<std::string, std::string>>
ModelRepository::filesOf(const std::string &name, int version) const {
  if (!isModelName(name))
    return rt::invalidArgument("'" + name + "' is not a model name");
  bool flat = isFile(inside(folder_ + "/" + name + kSuffix));
  std::string models = inside(folder_ + "/" + name);
  if (isFolder(models)) {
    if (flat)
      return rt::Status(rt::StatusCode::kFailedPrecondition,
                        "model '" + name + "' is both " + name +
                            ".kiln and a folder of versions " + name +
                            "/V/model.kiln: keep one");
    std::vector<int> there = availableVersions(name);
    if (there.empty())
      return rt::notFound("model '" + name + "' has no version folder " + name +
                          "/V/ holding a model.kiln");
    if (version == 0)
      version = there.back();
    else if (!std::binary_search(there.begin(), there.end(), version))
      return rt::notFound("model '" + name + "' has no version " +
                          std::to_string(version));
    return std::make_pair(models + "/" + std::to_string(version),
                          std::string("model"));
  }
  if (!flat)
    return rt::notFound("no model '" + name + "' in the repository");
  if (version > 1)
    return rt::notFound("model '" + name + "' has no version " +
                        std::to_string(version) + " (" + name +
                        ".kiln is version 1)");
  return std::make_pair(folder_, name);
}

std::vector<std::string> ModelRepository::scan() const {
  std::vector<std::string> names;
  for (const std::string &entry : entries(folder_)) {
    std::string name = entry;
    if (entry.size() > kSuffixLength &&
        entry.compare(entry.size() - kSuffixLength, kSuffixLength, kSuffix) ==
            0)
      name = entry.substr(0, entry.size() - kSuffixLength);
    else if (!isFolder(inside(folder_ + "/" + entry)))
      continue;
    // A model both flat and in a folder is listed (once): its load
    // request says why it cannot be served.
    if (servedVersion(name) > 0 &&
        std::find(names.begin(), names.end(), name) == names.end())
      names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<int> ModelRepository::variants(const std::string &name,
                                           int version) const {
  std::vector<int> sizes;
  auto files = filesOf(name, version);
  if (!files.isOk())
    return sizes;
  std::string prefix = files->second + "@b";
  for (const std::string &file : entries(files->first)) {
    if (file.size() <= prefix.size() + kSuffixLength ||
        file.compare(0, prefix.size(), prefix) != 0 ||
        file.compare(file.size() - kSuffixLength, kSuffixLength, kSuffix) != 0)
      continue;
    int size = positiveNumber(
        file.substr(prefix.size(), file.size() - kSuffixLength - prefix.size()),
        5);
    if (size >= 2 && locate(name, size, version).isOk())
      sizes.push_back(size);
  }
  std::sort(sizes.begin(), sizes.end());
  return sizes;
}

std::map<int, FileStamp> ModelRepository::versions(const std::string &name,
                                                   int version) const {
  std::map<int, FileStamp> files;
  std::vector<int> sizes = variants(name, version);
  sizes.insert(sizes.begin(), 1);
  for (int batch : sizes) {
    rt::StatusOr<std::string> path = locate(name, batch, version);
    if (!path.isOk())
      continue;
    if (std::optional<FileStamp> stamp = stampOf(*path))
      files[batch] = *stamp;
  }
  return files;
}

std::optional<ModelRepository::ConfigFile>
ModelRepository::config(const std::string &name) const {
  if (!isModelName(name))
    return std::nullopt;
  std::string path = inside(folder_ + "/" + name + "/config.pbtxt");
  std::optional<FileStamp> stamp = isFile(path) ? stampOf(path) : std::nullopt;
  if (!stamp)
    return std::nullopt;
  return ConfigFile{path, *stamp};
}

rt::StatusOr<std::string> ModelRepository::locate(const std::string &name,
                                                  int batchSize,
                                                  int version) const {
  auto files = filesOf(name, version);
  if (!files.isOk())
    return files.status();
  std::string file = batchSize == 1
                         ? files->second
                         : files->second + "@b" + std::to_string(batchSize);
  std::string real = inside(files->first + "/" + file + kSuffix);
  if (!isFile(real))
    return rt::notFound("no model '" + name + "' in the repository");
  return real;
}

} // namespace kiln::serve
