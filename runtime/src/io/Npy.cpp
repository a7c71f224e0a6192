//===- Npy.cpp - NumPy .npy files in and out ------------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Format: "\x93NUMPY", major, minor, header length (u16 for 1.x, u32 for
// 2.x/3.x, little-endian), then an ASCII Python dict literal with 'descr',
// 'fortran_order' and 'shape', padded so the data starts aligned.
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/Npy.h"

#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>

namespace kiln::rt {

namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicSize = 6;
// Headers are small dicts; anything bigger is corrupt (NumPy caps at 10 KB
// by default for untrusted files).
constexpr size_t kMaxHeaderSize = 1 << 16;

struct DescrInfo {
  const char *descr;
  DType type;
};
// NumPy writes '|' for one-byte types and '<' for little-endian ones.
constexpr DescrInfo kDescrs[] = {
    {"<f4", DType::kF32}, {"<f2", DType::kF16}, {"<f8", DType::kF64},
    {"|b1", DType::kI1},  {"|i1", DType::kI8},  {"<i2", DType::kI16},
    {"<i4", DType::kI32}, {"<i8", DType::kI64}, {"|u1", DType::kU8},
    {"<u2", DType::kU16}, {"<u4", DType::kU32}, {"<u8", DType::kU64},
};

Status headerError(const std::string &name, const std::string &what) {
  return invalidArgument(name + ": malformed .npy header: " + what);
}

/// Finds the value text after `'key':` in the header dict.
bool findValue(const std::string &header, const std::string &key,
               size_t &position) {
  size_t at = header.find("'" + key + "'");
  if (at == std::string::npos)
    return false;
  at = header.find(':', at);
  if (at == std::string::npos)
    return false;
  position = at + 1;
  while (position < header.size() && header[position] == ' ')
    ++position;
  return position < header.size();
}

/// Parses "(2, 3)" / "(4,)" / "()" into dimensions.
bool parseShape(const std::string &header, size_t position,
                std::vector<int64_t> &shape) {
  if (header[position] != '(')
    return false;
  ++position;
  while (true) {
    while (position < header.size() && header[position] == ' ')
      ++position;
    if (position >= header.size())
      return false;
    if (header[position] == ')')
      return true;
    if (header[position] < '0' || header[position] > '9')
      return false;
    int64_t dim = 0;
    while (position < header.size() && header[position] >= '0' &&
           header[position] <= '9') {
      int digit = header[position++] - '0';
      if (dim > (std::numeric_limits<int64_t>::max() - digit) / 10)
        return false;
      dim = dim * 10 + digit;
    }
    shape.push_back(dim);
    while (position < header.size() && header[position] == ' ')
      ++position;
    if (position < header.size() && header[position] == ',')
      ++position;
  }
}

} // namespace

StatusOr<HostTensor> parseNpy(const uint8_t *bytes, size_t size,
                              const std::string &name) {
  if (size < kMagicSize + 4 || std::memcmp(bytes, kMagic, kMagicSize) != 0)
    return invalidArgument(name + ": not a .npy file (bad magic)");
  uint8_t major = bytes[6];
  size_t headerLength, headerStart;
  if (major == 1) {
    headerLength = bytes[8] | (size_t(bytes[9]) << 8);
    headerStart = 10;
  } else if (major == 2 || major == 3) {
    if (size < 12)
      return dataLoss(name + ": truncated .npy header");
    headerLength = bytes[8] | (size_t(bytes[9]) << 8) |
                   (size_t(bytes[10]) << 16) | (size_t(bytes[11]) << 24);
    headerStart = 12;
  } else {
    return unimplemented(name + ": unsupported .npy format version " +
                         std::to_string(major));
  }
  if (headerLength > kMaxHeaderSize)
    return headerError(name, "header of " + std::to_string(headerLength) +
                                 " bytes is implausibly large");
  if (headerStart + headerLength > size)
    return dataLoss(name + ": truncated .npy header");
  std::string header(reinterpret_cast<const char *>(bytes) + headerStart,
                     headerLength);

  HostTensor tensor;
  size_t position;
  if (!findValue(header, "descr", position) || header[position] != '\'')
    return headerError(name, "no 'descr'");
  size_t end = header.find('\'', position + 1);
  if (end == std::string::npos)
    return headerError(name, "unterminated 'descr'");
  std::string descr = header.substr(position + 1, end - position - 1);
  bool known = false;
  for (const DescrInfo &info : kDescrs) {
    if (descr == info.descr) {
      tensor.dtype = info.type;
      known = true;
    }
  }
  if (!known)
    return unimplemented(name + ": unsupported .npy dtype '" + descr +
                         "' (little-endian float, int, uint and bool only)");

  if (!findValue(header, "fortran_order", position))
    return headerError(name, "no 'fortran_order'");
  if (header.compare(position, 4, "True") == 0)
    return unimplemented(name + ": Fortran-ordered arrays are not supported; "
                                "save with np.ascontiguousarray");
  if (header.compare(position, 5, "False") != 0)
    return headerError(name, "bad 'fortran_order'");

  if (!findValue(header, "shape", position) ||
      !parseShape(header, position, tensor.shape))
    return headerError(name, "bad 'shape'");

  size_t count = 1;
  for (int64_t dim : tensor.shape) {
    if (dim != 0 && count > std::numeric_limits<size_t>::max() / size_t(dim))
      return headerError(name, "shape overflows");
    count *= size_t(dim);
  }
  size_t elementSize = dtypeSize(tensor.dtype);
  if (count > std::numeric_limits<size_t>::max() / elementSize)
    return headerError(name, "shape overflows");
  size_t dataSize = count * elementSize;
  size_t dataStart = headerStart + headerLength;
  if (size - dataStart != dataSize)
    return dataLoss(name + ": expected " + std::to_string(dataSize) +
                    " data bytes for the shape, found " +
                    std::to_string(size - dataStart));
  tensor.data.assign(bytes + dataStart, bytes + size);
  return tensor;
}

StatusOr<HostTensor> readNpyFile(const std::string &path) {
  std::ifstream file(path, std::ios::binary);
  if (!file)
    return notFound(path + ": cannot open file");
  std::string contents((std::istreambuf_iterator<char>(file)),
                       std::istreambuf_iterator<char>());
  return parseNpy(reinterpret_cast<const uint8_t *>(contents.data()),
                  contents.size(), path);
}

StatusOr<std::string> encodeNpy(const HostTensor &tensor) {
  const char *descr = nullptr;
  for (const DescrInfo &info : kDescrs)
    if (info.type == tensor.dtype)
      descr = info.descr;
  if (!descr)
    return unimplemented(std::string("dtype ") + dtypeName(tensor.dtype) +
                         " has no .npy equivalent");
  std::string shape = "(";
  for (int64_t dim : tensor.shape)
    shape += std::to_string(dim) + ", ";
  if (tensor.shape.size() > 1)
    shape.resize(shape.size() - 2);
  else if (tensor.shape.size() == 1)
    shape.resize(shape.size() - 1);
  shape += ")";
  std::string header = std::string("{'descr': '") + descr +
                       "', 'fortran_order': False, 'shape': " + shape + ", }";
  // Pad with spaces so magic + length + header + '\n' is a multiple of 64.
  size_t total = kMagicSize + 4 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::string out(kMagic, kMagicSize);
  out += char(1);
  out += char(0);
  out += char(header.size() & 0xff);
  out += char((header.size() >> 8) & 0xff);
  out += header;
  out.append(reinterpret_cast<const char *>(tensor.data.data()),
             tensor.data.size());
  return out;
}

Status writeNpyFile(const std::string &path, const HostTensor &tensor) {
  StatusOr<std::string> encoded = encodeNpy(tensor);
  if (!encoded.isOk())
    return encoded.status();
  std::ofstream file(path, std::ios::binary);
  if (!file)
    return notFound(path + ": cannot create file");
  file.write(encoded->data(), encoded->size());
  if (!file)
    return dataLoss(path + ": write failed");
  return Status::ok();
}

} // namespace kiln::rt
