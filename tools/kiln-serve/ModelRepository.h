//===- ModelRepository.h - The folder of NAME.kiln files --------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// kiln-serve serves model NAME from DIR/NAME.kiln, and its batch-size
// variants from DIR/NAME@bN.kiln (the same model compiled for N rows on
// axis 0; '@' is not a model-name character): version 1. Or, laid out as
// Triton's repositories are, from DIR/NAME/V/model.kiln (and
// model@bN.kiln) for versions V = 1, 2, ...: the highest version with a
// model.kiln is served (Triton's default policy, latest 1), so adding a
// version folder rolls the model forward and removing it rolls back.
// Other policies serve several versions at once (VersionPolicy.h).
// Names come from the network, so they are checked before they touch a
// path: letters, digits, '_', '-' and '.', not starting with '.', and the
// file must resolve to a regular file inside DIR (a symbolic link out of
// it is refused).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_KILN_SERVE_MODELREPOSITORY_H
#define KILN_TOOLS_KILN_SERVE_MODELREPOSITORY_H

#include "kiln/runtime/Status.h"
#include <cstdint>
#include <map>
#include <optional>
#include <sys/types.h>

#include <string>
#include <utility>
#include <vector>

namespace kiln::serve {

/// A file's identity (device, inode) and version (size, modification
/// time): a model file replaced (renamed over) or rewritten in place no
/// longer has the stamp it was measured with.
struct FileStamp {
  dev_t device = 0;
  ino_t inode = 0;
  off_t size = 0;
  std::int64_t modifiedNs = 0;
  bool operator==(const FileStamp &other) const {
    return device == other.device && inode == other.inode &&
           size == other.size && modifiedNs == other.modifiedNs;
  }
  bool operator!=(const FileStamp &other) const { return !(*this == other); }
};

/// Thread-safe (no mutable state).
class ModelRepository {
public:
  /// NOT_FOUND when `folder` is not a readable folder.
  static rt::StatusOr<ModelRepository> open(const std::string &folder);

  const std::string &folder() const { return folder_; }
  /// Models in the folder now, by name, sorted.
  std::vector<std::string> scan() const;
  /// The artifact of model `name` (of its served version): INVALID_ARGUMENT
  /// for a name that is not a model name, NOT_FOUND when there is no such
  /// model inside the folder, FAILED_PRECONDITION when it is there both as
  /// NAME.kiln and as a NAME/ folder.
  /// `version` 0 is the highest one (what servedVersion() says); another
  /// that is not there is NOT_FOUND.
  rt::StatusOr<std::string> locate(const std::string &name, int batchSize = 1,
                                   int version = 0) const;
  /// The version of `name` that is served: 1 for NAME.kiln, the highest
  /// V of NAME/V/model.kiln; 0 when there is none.
  int servedVersion(const std::string &name) const;
  /// Every version of `name` there is, ascending: {1} for NAME.kiln, each
  /// V of NAME/V/model.kiln; none for a name that is not a model.
  std::vector<int> availableVersions(const std::string &name) const;
  /// Batch sizes of NAME's variants in the folder (NAME@bN.kiln, N >= 2),
  /// ascending; of `version` (0: the highest).
  std::vector<int> variants(const std::string &name, int version = 0) const;
  /// The files of model `name` now, by batch size (1: NAME.kiln, N:
  /// NAME@bN.kiln), with their stamps; a file that is not there (or not
  /// inside the folder) is left out. Of `version` (0: the highest).
  std::map<int, FileStamp> versions(const std::string &name,
                                    int version = 0) const;

  /// Model `name`'s Triton configuration, DIR/NAME/config.pbtxt
  /// (ModelConfig.h), when its folder has one: the path and its stamp.
  struct ConfigFile {
    std::string path;
    FileStamp stamp;
  };
  std::optional<ConfigFile> config(const std::string &name) const;

  static bool isModelName(const std::string &name);
  /// A positive decimal number without leading zeros, up to `digits`
  /// long (a version folder, a batch size); 0 otherwise.
  static int positiveNumber(const std::string &text, size_t digits);

private:
  explicit ModelRepository(std::string folder) : folder_(std::move(folder)) {}
  /// Where `name`'s files are and what they are called: (DIR, NAME) or
  /// (DIR/NAME/V, model); errors as for locate().
  rt::StatusOr<std::pair<std::string, std::string>>
  filesOf(const std::string &name, int version) const;
  /// A path inside the folder, resolved, if it names an existing entry.
  std::string inside(const std::string &path) const;
  std::string folder_; ///< Absolute, symbolic links resolved.
};

} // namespace kiln::serve

#endif // KILN_TOOLS_KILN_SERVE_MODELREPOSITORY_H
