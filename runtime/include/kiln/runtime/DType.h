//===- DType.h - Element types known to the runtime -------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_DTYPE_H
#define KILN_RUNTIME_DTYPE_H

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace kiln::rt {

/// Tensor element types. The numeric values are part of the artifact format:
/// never renumber, only append.
enum class DType : uint8_t {
  kF32 = 1,
  kF16 = 2,
  kBF16 = 3,
  kF64 = 4,
  kI1 = 5,
  kI8 = 6,
  kI16 = 7,
  kI32 = 8,
  kI64 = 9,
  kU8 = 10,
  kU16 = 11,
  kU32 = 12,
  kU64 = 13,
};

/// Size in bytes of one element (i1 is stored as one byte).
size_t dtypeSize(DType type);

/// Short name, matching MLIR's spelling: "f32", "bf16", "i1", "ui8".
const char *dtypeName(DType type);

/// Parses a name produced by dtypeName().
std::optional<DType> parseDType(const std::string &name);

} // namespace kiln::rt

#endif // KILN_RUNTIME_DTYPE_H
