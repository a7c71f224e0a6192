//===- Sharding.h - How a value is laid out over the ranks ------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// One axis of ranks (a 1-D mesh). A value is replicated (every rank holds
// all of it), split (rank r holds the r-th of `ranks` equal slices along
// one dimension) or partial (every rank holds a full-shaped addend; the
// value is their sum). The same three states as GSPMD's and upstream
// MLIR's shardings, partial included.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_SHARDING_SHARDING_H
#define KILN_COMPILER_SHARDING_SHARDING_H

#include "mlir/IR/BuiltinTypes.h"

#include <cstdint>
#include <string>

namespace kiln::compiler::sharding {

struct Sharding {
  enum class Kind { kReplicated, kSplit, kPartial };
  Kind kind = Kind::kReplicated;
  int64_t dim = -1; ///< kSplit only.

  static Sharding replicated() { return {}; }
  static Sharding split(int64_t dim) { return {Kind::kSplit, dim}; }
  static Sharding partial() { return {Kind::kPartial, -1}; }

  bool isReplicated() const { return kind == Kind::kReplicated; }
  bool isSplit() const { return kind == Kind::kSplit; }
  bool isPartial() const { return kind == Kind::kPartial; }
  bool operator==(const Sharding &o) const {
    return kind == o.kind && (kind != Kind::kSplit || dim == o.dim);
  }
  bool operator!=(const Sharding &o) const { return !(*this == o); }

  /// "replicated", "split(1)" or "partial".
  std::string str() const;
};

/// The type rank `rank` holds of a value of `global` type: the split
/// dimension divided by `ranks`.
mlir::RankedTensorType localType(mlir::RankedTensorType global,
                                 Sharding sharding, int64_t ranks);

} // namespace kiln::compiler::sharding

#endif // KILN_COMPILER_SHARDING_SHARDING_H
