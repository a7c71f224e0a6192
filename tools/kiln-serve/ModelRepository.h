//===- ModelRepository.h - The folder of NAME.kiln files --------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// kiln-serve serves model NAME from DIR/NAME.kiln, and its batch-size
// variants from DIR/NAME@bN.kiln (the same model compiled for N rows on
// axis 0; '@' is not a model-name character). Names come from the
// network, so they are checked before they touch a path: letters, digits,
// '_', '-' and '.', not starting with '.', and the file must resolve to a
// regular file inside DIR (a symbolic link out of it is refused).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_KILN_SERVE_MODELREPOSITORY_H
#define KILN_TOOLS_KILN_SERVE_MODELREPOSITORY_H

#include "kiln/runtime/Status.h"
#include <cstdint>
#include <map>
#include <sys/types.h>

#include <string>
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
  /// The artifact of model `name`: INVALID_ARGUMENT for a name that is not
  /// a model name, NOT_FOUND when there is no such model inside the folder.
  rt::StatusOr<std::string> locate(const std::string &name,
                                   int batchSize = 1) const;
  /// Batch sizes of NAME's variants in the folder (NAME@bN.kiln, N >= 2),
  /// ascending.
  std::vector<int> variants(const std::string &name) const;
  /// The files of model `name` now, by batch size (1: NAME.kiln, N:
  /// NAME@bN.kiln), with their stamps; a file that is not there (or not
  /// inside the folder) is left out.
  std::map<int, FileStamp> versions(const std::string &name) const;

  static bool isModelName(const std::string &name);

private:
  explicit ModelRepository(std::string folder) : folder_(std::move(folder)) {}
  std::string folder_; ///< Absolute, symbolic links resolved.
};

} // namespace kiln::serve

#endif // KILN_TOOLS_KILN_SERVE_MODELREPOSITORY_H
