//===- FolderWatch.h - Changes to a model repository, from inotify -*- C++ -*-//
//
// SPDX-License-Identifier: Apache-2.0
//
// In poll mode kiln-serve looks at its folder every --repository-poll-secs;
// with this it also looks as soon as something in the folder changes: a
// file written, renamed in or out, removed, or a folder made (the
// repository's NAME/ and NAME/V/ folders are watched too). A burst of
// events (a copy is a create, writes and a close) is one change, reported
// once it has been quiet for a moment, so a look does not find a file
// half written.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_KILN_SERVE_FOLDERWATCH_H
#define KILN_TOOLS_KILN_SERVE_FOLDERWATCH_H

#include <chrono>
#include <string>

namespace kiln::serve {

/// Not thread-safe: one thread waits on it.
class FolderWatch {
public:
  /// Watches `folder` and the folders in it, two levels down. Inactive
  /// (every wait only times out) when inotify is not available.
  explicit FolderWatch(std::string folder);
  ~FolderWatch();
  FolderWatch(const FolderWatch &) = delete;
  FolderWatch &operator=(const FolderWatch &) = delete;

  bool active() const { return fd_ >= 0; }
  /// Waits up to `timeout` for a change; true when there was one (the
  /// burst it began has then settled, which may take longer than
  /// `timeout`, up to a second).
  bool waitForChange(std::chrono::milliseconds timeout);
  /// Watches the folders that are there now (a new NAME/ or NAME/V/).
  void watchFolders();

private:
  /// Reads the queued events; true if there were any.
  bool drain();
  std::string folder_;
  int fd_ = -1;
};

} // namespace kiln::serve

#endif // KILN_TOOLS_KILN_SERVE_FOLDERWATCH_H
