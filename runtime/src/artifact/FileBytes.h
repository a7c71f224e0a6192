//===- FileBytes.h - Whole files in and out ---------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// What the artifact readers and writers (plain and ranked) share: a file
// read whole, bytes written whole, with the file named in every error.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_SRC_ARTIFACT_FILEBYTES_H
#define KILN_RUNTIME_SRC_ARTIFACT_FILEBYTES_H

#include "kiln/runtime/Status.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kiln::rt {

/// The contents of `path` (kNotFound when it cannot be opened).
StatusOr<std::vector<uint8_t>> readFileBytes(const std::string &path);

/// Writes `bytes` to `path` (kNotFound when it cannot be created, kDataLoss
/// when the write fails).
Status writeFileBytes(const std::string &path,
                      const std::vector<uint8_t> &bytes);

/// Bytes somewhere in memory, written in place.
struct FileChunk {
  const uint8_t *data;
  size_t size;
};

/// Writes `chunks` one after the other to `path` (errors as
/// writeFileBytes).
Status writeFileChunks(const std::string &path,
                       const std::vector<FileChunk> &chunks);

} // namespace kiln::rt

#endif // KILN_RUNTIME_SRC_ARTIFACT_FILEBYTES_H
