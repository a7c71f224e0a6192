//===- FileBytes.cpp - Whole files in and out -----------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "FileBytes.h"

#include <fstream>
#include <iterator>

namespace kiln::rt {

StatusOr<std::vector<uint8_t>> readFileBytes(const std::string &path) {
  std::ifstream file(path, std::ios::binary);
  if (!file)
    return notFound(path + ": cannot open file");
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(file)),
                              std::istreambuf_iterator<char>());
}

Status writeFileBytes(const std::string &path,
                      const std::vector<uint8_t> &bytes) {
  std::ofstream file(path, std::ios::binary);
  if (!file)
    return notFound(path + ": cannot create file");
  file.write(reinterpret_cast<const char *>(bytes.data()),
             std::streamsize(bytes.size()));
  if (!file)
    return dataLoss(path + ": write failed");
  return Status::ok();
}

} // namespace kiln::rt
