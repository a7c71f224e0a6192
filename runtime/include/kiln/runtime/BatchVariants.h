//===- BatchVariants.h - A model compiled for several batches --*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// `kilnc compile --batch-sizes 1,4,16` writes one artifact: the smallest
// size is the artifact itself (what kiln-run runs), the others are complete
// artifacts of the same model with more rows on axis 0, packed into its
// optional section kind 10. kiln-serve batches requests into them. The
// reader checks each one as it checks a file, and that it is the base
// model with `batch` rows (docs/artifact-format.md, "Batch variants").
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_BATCHVARIANTS_H
#define KILN_RUNTIME_BATCHVARIANTS_H

#include "kiln/runtime/Status.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace kiln::rt {

struct Artifact;
struct Program;

struct BatchVariant {
  /// Rows on axis 0 of every input and output.
  uint32_t batch = 0;
  /// Never holds variants of its own.
  std::shared_ptr<const Artifact> artifact;
};

/// At most this many variants in one artifact.
inline constexpr size_t kMaxBatchVariants = 16;

std::vector<uint8_t>
encodeBatchVariants(const std::vector<BatchVariant> &variants);

/// Decodes and validates kind 10 against the base artifact's program and
/// target: batches ascending and above the base's rows, each variant a valid
/// artifact for the same target with the same interface at its batch.
StatusOr<std::vector<BatchVariant>>
decodeBatchVariants(const uint8_t *bytes, size_t size, const Program &base,
                    const std::string &target, const std::string &name);

/// The rows every input and output of `program` has on axis 0: the
/// program's batch. INVALID_ARGUMENT when a tensor is a scalar or the rows
/// differ between tensors.
StatusOr<int64_t> programBatch(const Program &program);

/// OK when `variant` is `base` with `batch` rows on axis 0 of each input and
/// output (same names, types and other dimensions, in the same order).
Status checkBatchVariant(const Program &base, const Program &variant,
                         int64_t batch);

} // namespace kiln::rt

#endif // KILN_RUNTIME_BATCHVARIANTS_H
