//===- FileBytes.cpp - Whole files in and out -----------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "FileBytes.h"

#include <filesystem>
#include <fstream>
#include <iterator>

namespace kiln::rt {

StatusOr<std::vector<uint8_t>> readFileBytes(const std::string &path) {
  std::error_code ec;
  std::filesystem::file_status status = std::filesystem::status(path, ec);
  if (std::filesystem::is_directory(status))
    return notFound(path + ": is a directory, not a file");
  std::ifstream file(path, std::ios::binary);
  if (!file)
    return notFound(path + ": cannot open file");
  if (!std::filesystem::is_regular_file(status))
    // A pipe or device: read until it ends.
    return std::vector<uint8_t>((std::istreambuf_iterator<char>(file)),
                                std::istreambuf_iterator<char>());
  // One read of the whole size: artifacts hold the weights (100 MB and
  // more), too many for a byte at a time.
  uintmax_t size = std::filesystem::file_size(path, ec);
  if (ec)
    return dataLoss(path + ": cannot tell its size");
  std::vector<uint8_t> bytes(size);
  if (!file.read(reinterpret_cast<char *>(bytes.data()), std::streamsize(size)))
    return dataLoss(path + ": read failed");
  return bytes;
}

Status writeFileBytes(const std::string &path,
                      const std::vector<uint8_t> &bytes) {
  return writeFileChunks(path, {{bytes.data(), bytes.size()}});
}

Status writeFileChunks(const std::string &path,
                       const std::vector<FileChunk> &chunks) {
  std::ofstream file(path, std::ios::binary);
  if (!file)
    return notFound(path + ": cannot create file");
  for (const FileChunk &chunk : chunks)
    file.write(reinterpret_cast<const char *>(chunk.data),
               std::streamsize(chunk.size));
  if (!file)
    return dataLoss(path + ": write failed");
  return Status::ok();
}

} // namespace kiln::rt
