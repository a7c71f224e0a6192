//===- RankedArtifact.cpp - One artifact per rank in one file -------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/RankedArtifact.h"

#include "ByteIO.h"
#include "FileBytes.h"

#include <cstring>

namespace kiln::rt {

namespace {

constexpr char kMagic[8] = {'K', 'I', 'L', 'N', 'R', 'A', 'N', 'K'};
constexpr uint32_t kVersion = 1;

bool sameSpecs(const std::vector<TensorSpec> &a,
               const std::vector<TensorSpec> &b) {
  if (a.size() != b.size())
    return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].name != b[i].name || a[i].dtype != b[i].dtype ||
        a[i].shape != b[i].shape)
      return false;
  return true;
}

} // namespace

bool isRankedArtifact(const uint8_t *bytes, size_t size) {
  return size >= sizeof(kMagic) && std::memcmp(bytes, kMagic, 8) == 0;
}

std::vector<uint8_t> encodeRankedArtifact(const RankedArtifact &artifact) {
  ByteWriter w;
  w.raw(kMagic, sizeof(kMagic));
  w.u32(kVersion);
  w.u32(uint32_t(artifact.ranks.size()));
  w.string(artifact.strategy);
  for (const Artifact &rank : artifact.ranks) {
    std::vector<uint8_t> bytes = encodeArtifact(rank);
    w.u64(bytes.size());
    w.raw(bytes.data(), bytes.size());
  }
  std::vector<uint8_t> &bytes = w.bytes();
  w.u32(crc32(bytes.data(), bytes.size()));
  return std::move(w.bytes());
}

StatusOr<RankedArtifact> decodeRankedArtifact(const uint8_t *bytes, size_t size,
                                              const std::string &name) {
  if (!isRankedArtifact(bytes, size))
    return invalidArgument(name + ": not a ranked .kiln artifact (bad magic)");
  if (size < sizeof(kMagic) + 12)
    return dataLoss(name + ": truncated ranked artifact header");
  const uint8_t *tail = bytes + size - 4;
  uint32_t stored = uint32_t(tail[0]) | uint32_t(tail[1]) << 8 |
                    uint32_t(tail[2]) << 16 | uint32_t(tail[3]) << 24;
  if (crc32(bytes, size - 4) != stored)
    return dataLoss(name + ": ranked artifact checksum mismatch (the file "
                           "is corrupt or truncated)");
  ByteReader r(bytes + sizeof(kMagic), size - sizeof(kMagic) - 4);
  uint32_t version = r.u32();
  if (r.ok() && version != kVersion)
    return unimplemented(name + ": ranked artifact version " +
                         std::to_string(version) + ", this runtime reads " +
                         std::to_string(kVersion));
  uint32_t ranks = r.u32();
  RankedArtifact artifact;
  artifact.strategy = r.string(64);
  if (!r.ok())
    return dataLoss(name + ": truncated ranked artifact header");
  if (ranks == 0 || ranks > kMaxRanks)
    return dataLoss(name + ": " + std::to_string(ranks) +
                    " ranks (expected 1 to " + std::to_string(kMaxRanks) + ")");
  for (uint32_t rank = 0; rank < ranks; ++rank) {
    std::string part = name + " (rank " + std::to_string(rank) + ")";
    uint64_t length = r.u64();
    if (!r.ok() || length > r.remaining())
      return dataLoss(part + ": truncated");
    // Decoded where it lies: a rank holds its share of the model's weights.
    const uint8_t *contents = r.take(length);
    StatusOr<Artifact> decoded = decodeArtifact(contents, length, part);
    if (!decoded.isOk())
      return decoded.status();
    artifact.ranks.push_back(std::move(*decoded));
    const Program &first = artifact.ranks.front().program;
    const Program &program = artifact.ranks.back().program;
    if (!sameSpecs(first.inputs, program.inputs) ||
        !sameSpecs(first.outputs, program.outputs))
      return dataLoss(part + ": its inputs or outputs differ from rank 0's");
  }
  if (r.remaining() != 0)
    return dataLoss(name + ": " + std::to_string(r.remaining()) +
                    " unexpected bytes after the last rank");
  return artifact;
}

StatusOr<RankedArtifact> readRankedArtifactFile(const std::string &path) {
  StatusOr<std::vector<uint8_t>> contents = readFileBytes(path);
  if (!contents.isOk())
    return contents.status();
  if (isRankedArtifact(contents->data(), contents->size()))
    return decodeRankedArtifact(contents->data(), contents->size(), path);
  StatusOr<Artifact> single =
      decodeArtifact(contents->data(), contents->size(), path);
  if (!single.isOk())
    return single.status();
  RankedArtifact artifact;
  artifact.ranks.push_back(std::move(*single));
  return artifact;
}

Status writeRankedArtifactFile(const std::string &path,
                               const RankedArtifact &artifact) {
  return writeFileBytes(path, encodeRankedArtifact(artifact));
}

} // namespace kiln::rt
