//===- DType.cpp - Element types known to the runtime ---------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/DType.h"

namespace kiln::rt {

namespace {
struct DTypeInfo {
  DType type;
  const char *name;
  size_t size;
};
constexpr DTypeInfo kDTypes[] = {
    {DType::kF32, "f32", 4}, {DType::kF16, "f16", 2}, {DType::kBF16, "bf16", 2},
    {DType::kF64, "f64", 8}, {DType::kI1, "i1", 1},   {DType::kI8, "i8", 1},
    {DType::kI16, "i16", 2}, {DType::kI32, "i32", 4}, {DType::kI64, "i64", 8},
    {DType::kU8, "ui8", 1},  {DType::kU16, "ui16", 2}, {DType::kU32, "ui32", 4},
    {DType::kU64, "ui64", 8},
};
} // namespace

size_t dtypeSize(DType type) {
  for (const DTypeInfo &info : kDTypes)
    if (info.type == type)
      return info.size;
  return 0;
}

const char *dtypeName(DType type) {
  for (const DTypeInfo &info : kDTypes)
    if (info.type == type)
      return info.name;
  return "unknown";
}

std::optional<DType> parseDType(const std::string &name) {
  for (const DTypeInfo &info : kDTypes)
    if (name == info.name)
      return info.type;
  return std::nullopt;
}

} // namespace kiln::rt
