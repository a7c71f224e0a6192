//===- RankedArtifact.h - One artifact per rank in one file -----*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// What `kilnc compile --devices N` writes: every rank's program (with its
// slices of the weights) in one file. Each rank's part is a complete,
// checksummed artifact (docs/artifact-format.md), wrapped with the number
// of ranks and the strategy:
//
//   "KILNRANK" | u32 version (1) | u32 ranks | string strategy
//   | ranks x (u64 size | artifact bytes) | u32 CRC-32 of all before it
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_RANKEDARTIFACT_H
#define KILN_RUNTIME_RANKEDARTIFACT_H

#include "kiln/runtime/Artifact.h"
#include "kiln/runtime/Status.h"

#include <string>
#include <vector>

namespace kiln::rt {

struct RankedArtifact {
  std::string strategy; ///< "tensor" or "data": informative.
  /// Rank r's program. Every rank has the model's whole interface: the
  /// same inputs and outputs.
  std::vector<Artifact> ranks;
};

inline constexpr uint32_t kMaxRanks = 4096;

std::vector<uint8_t> encodeRankedArtifact(const RankedArtifact &artifact);

/// Validates (magic, version, bounds, checksum, each rank's artifact, equal
/// interfaces) and decodes; `name` is used in messages.
StatusOr<RankedArtifact> decodeRankedArtifact(const uint8_t *bytes, size_t size,
                                              const std::string &name);

/// Whether `bytes` start like a ranked artifact (its magic).
bool isRankedArtifact(const uint8_t *bytes, size_t size);

/// Reads `path`: a ranked artifact, or a plain one as a single rank.
StatusOr<RankedArtifact> readRankedArtifactFile(const std::string &path);

Status writeRankedArtifactFile(const std::string &path,
                               const RankedArtifact &artifact);

} // namespace kiln::rt

#endif // KILN_RUNTIME_RANKEDARTIFACT_H
