//===- FolderWatch.cpp - Changes to a model repository, from inotify ------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "FolderWatch.h"

#include <dirent.h>
#include <poll.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace kiln::serve {

namespace {
constexpr uint32_t kEvents = IN_CREATE | IN_DELETE | IN_MOVED_TO |
                             IN_MOVED_FROM | IN_CLOSE_WRITE | IN_ATTRIB;
/// Quiet time that ends a burst, and the longest a burst is waited out.
constexpr int kSettleMs = 100;
constexpr int kMaxSettleMs = 1000;

bool isFolder(const std::string &path) {
  struct stat info;
  return stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode);
}
} // namespace

FolderWatch::FolderWatch(std::string folder) : folder_(std::move(folder)) {
  fd_ = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  watchFolders();
}

FolderWatch::~FolderWatch() {
  if (fd_ >= 0)
    close(fd_);
}

void FolderWatch::watchFolders() {
  if (fd_ < 0)
    return;
  // Adding a watch a folder already has only returns it again.
  auto watch = [&](const std::string &path) {
    return inotify_add_watch(fd_, path.c_str(), kEvents | IN_ONLYDIR) >= 0;
  };
  auto children = [](const std::string &path) {
    std::vector<std::string> found;
    if (DIR *dir = opendir(path.c_str())) {
      while (dirent *entry = readdir(dir)) {
        std::string name = entry->d_name;
        if (name != "." && name != ".." && isFolder(path + "/" + name))
          found.push_back(path + "/" + name);
      }
      closedir(dir);
    }
    return found;
  };
  if (!watch(folder_))
    return;
  for (const std::string &model : children(folder_))
    if (watch(model))
      for (const std::string &version : children(model))
        watch(version);
}

bool FolderWatch::drain() {
  alignas(inotify_event) char buffer[4096];
  bool any = false;
  while (read(fd_, buffer, sizeof buffer) > 0)
    any = true;
  return any;
}

bool FolderWatch::waitForChange(std::chrono::milliseconds timeout) {
  if (fd_ < 0) {
    usleep(useconds_t(timeout.count()) * 1000);
    return false;
  }
  pollfd one{fd_, POLLIN, 0};
  if (poll(&one, 1, int(timeout.count())) <= 0 || !drain())
    return false;
  for (int waited = 0; waited < kMaxSettleMs; waited += kSettleMs)
    if (poll(&one, 1, kSettleMs) <= 0 || !drain())
      break;
  return true;
}

} // namespace kiln::serve
