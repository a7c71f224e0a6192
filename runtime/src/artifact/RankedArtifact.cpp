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
/// Version 1 for what older runtimes can read; 2 for pipelines; 3 for
/// pipelines of tensor-parallel stages.
constexpr uint32_t kVersion = 1, kPipelineVersion = 2, kStageRanksVersion = 3;

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

std::string describe(const TensorSpec &spec) {
  std::string text = "'" + spec.name + "' " + dtypeName(spec.dtype) + " [";
  for (size_t i = 0; i < spec.shape.size(); ++i)
    text += (i ? "," : "") + std::to_string(spec.shape[i]);
  return text + "]";
}

/// Stages chain: every stage starts with stage 0's inputs (the model's),
/// then takes what the stage before returns; the model's inputs and
/// outputs have a first dimension to slice into micro-batches.
Status checkPipeline(const RankedArtifact &artifact, const std::string &name) {
  const std::vector<TensorSpec> &model = artifact.ranks.front().program.inputs;
  size_t width = artifact.stageRanks;
  // The tensor ranks of a stage share its interface.
  for (size_t rank = 0; rank < artifact.ranks.size(); ++rank) {
    const Program &first = artifact.ranks[rank / width * width].program;
    const Program &program = artifact.ranks[rank].program;
    if (!sameSpecs(first.inputs, program.inputs) ||
        !sameSpecs(first.outputs, program.outputs))
      return dataLoss(name + " (rank " + std::to_string(rank) +
                      "): its inputs or outputs differ from those of stage " +
                      std::to_string(rank / width) + "'s tensor rank 0");
  }
  for (size_t stage = 1; stage < artifact.stages(); ++stage) {
    size_t rank = stage * width;
    const std::vector<TensorSpec> &inputs = artifact.ranks[rank].program.inputs;
    const std::vector<TensorSpec> &sent =
        artifact.ranks[rank - width].program.outputs;
    std::string part = name + " (stage " + std::to_string(stage) + ")";
    if (inputs.size() != model.size() + sent.size())
      return dataLoss(part + " takes " + std::to_string(inputs.size()) +
                      " inputs; the model's " + std::to_string(model.size()) +
                      " and the " + std::to_string(sent.size()) + " stage " +
                      std::to_string(stage - 1) + " sends make " +
                      std::to_string(model.size() + sent.size()));
    for (size_t i = 0; i < inputs.size(); ++i) {
      const TensorSpec &want =
          i < model.size() ? model[i] : sent[i - model.size()];
      const TensorSpec &have = inputs[i];
      if (have.name != want.name || have.dtype != want.dtype ||
          have.shape != want.shape)
        return dataLoss(part + ": input " + std::to_string(i) + " is " +
                        describe(have) + ", expected " + describe(want));
    }
  }
  return Status::ok();
}

/// Micro-batches and replicas are slices of the batch: the model's inputs
/// and outputs need a first dimension.
Status checkBatched(const RankedArtifact &artifact, const std::string &name) {
  ModelInterface model = modelInterface(artifact);
  for (const auto &[what, specs] :
       {std::pair{"input", &model.inputs}, {"output", &model.outputs}})
    for (const TensorSpec &spec : *specs)
      if (spec.shape.empty())
        return dataLoss(name + ": model " + what + " " + describe(spec) +
                        " has no batch dimension to split");
  return Status::ok();
}

/// Pipelines and replicated programs need version 2's fields; the rest
/// stays version 1, which older runtimes read.
bool needsVersion2(const RankedArtifact &artifact) {
  return artifact.isPipeline() || artifact.replicas != 1 ||
         artifact.strategy.rfind("data,", 0) == 0;
}

uint32_t versionOf(const RankedArtifact &artifact) {
  if (artifact.strategy == "pipeline,tensor")
    return kStageRanksVersion;
  return needsVersion2(artifact) ? kPipelineVersion : kVersion;
}

} // namespace

ModelInterface replicaInterface(const RankedArtifact &artifact) {
  ModelInterface interface = modelInterface(artifact);
  for (auto *specs : {&interface.inputs, &interface.outputs})
    for (TensorSpec &spec : *specs)
      if (!spec.shape.empty())
        spec.shape[0] /= int64_t(artifact.replicas);
  return interface;
}

ModelInterface modelInterface(const RankedArtifact &artifact) {
  ModelInterface interface;
  if (artifact.ranks.empty())
    return interface;
  interface.inputs = artifact.ranks.front().program.inputs;
  // A pipeline's outputs are its last stage's (tensor rank 0's).
  interface.outputs =
      artifact.isPipeline()
          ? artifact.ranks[artifact.ranks.size() - artifact.stageRanks]
                .program.outputs
          : artifact.ranks.front().program.outputs;
  int64_t slices = int64_t(artifact.replicas) *
                   (artifact.isPipeline() ? artifact.microBatches : 1);
  for (auto *specs : {&interface.inputs, &interface.outputs})
    for (TensorSpec &spec : *specs)
      if (!spec.shape.empty())
        spec.shape[0] *= slices;
  return interface;
}

bool isRankedArtifact(const uint8_t *bytes, size_t size) {
  return size >= sizeof(kMagic) && std::memcmp(bytes, kMagic, 8) == 0;
}

std::vector<uint8_t> encodeRankedArtifact(const RankedArtifact &artifact) {
  ByteWriter w;
  w.raw(kMagic, sizeof(kMagic));
  uint32_t version = versionOf(artifact);
  w.u32(version);
  w.u32(uint32_t(artifact.ranks.size()));
  w.string(artifact.strategy);
  if (version >= kPipelineVersion) {
    w.u32(artifact.microBatches);
    w.u32(artifact.replicas);
  }
  if (version >= kStageRanksVersion)
    w.u32(artifact.stageRanks);
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
  if (r.ok() && (version < kVersion || version > kStageRanksVersion))
    return unimplemented(name + ": ranked artifact version " +
                         std::to_string(version) + ", this runtime reads " +
                         std::to_string(kVersion) + " to " +
                         std::to_string(kStageRanksVersion));
  uint32_t ranks = r.u32();
  RankedArtifact artifact;
  artifact.strategy = r.string(64);
  if (version >= kPipelineVersion) {
    artifact.microBatches = r.u32();
    artifact.replicas = r.u32();
  }
  if (version >= kStageRanksVersion)
    artifact.stageRanks = r.u32();
  if (!r.ok())
    return dataLoss(name + ": truncated ranked artifact header");
  if (version != versionOf(artifact))
    return dataLoss(name + ": a version " + std::to_string(version) +
                    " ranked artifact with strategy '" + artifact.strategy +
                    "'");
  if (artifact.stageRanks < 1 || ranks % artifact.stageRanks != 0 ||
      (artifact.stageRanks > 1 && artifact.replicas != 1))
    return dataLoss(name + ": " + std::to_string(artifact.stageRanks) +
                    " ranks per stage of " + std::to_string(ranks) +
                    " ranks and " + std::to_string(artifact.replicas) +
                    " replicas");
  if (artifact.microBatches < 1 || artifact.microBatches > kMaxMicroBatches)
    return dataLoss(name + ": " + std::to_string(artifact.microBatches) +
                    " micro-batches (expected 1 to " +
                    std::to_string(kMaxMicroBatches) + ")");
  if (artifact.replicas < 1 || uint64_t(artifact.replicas) * ranks > kMaxRanks)
    return dataLoss(name + ": " + std::to_string(artifact.replicas) +
                    " replicas of " + std::to_string(ranks) +
                    " ranks (expected 1 to " + std::to_string(kMaxRanks) +
                    " in all)");
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
    if (artifact.isPipeline())
      continue;
    if (!sameSpecs(first.inputs, program.inputs) ||
        !sameSpecs(first.outputs, program.outputs))
      return dataLoss(part + ": its inputs or outputs differ from rank 0's");
  }
  if (r.remaining() != 0)
    return dataLoss(name + ": " + std::to_string(r.remaining()) +
                    " unexpected bytes after the last rank");
  if (artifact.isPipeline())
    KILN_RETURN_IF_ERROR(checkPipeline(artifact, name));
  if (artifact.isPipeline() || artifact.replicas > 1)
    KILN_RETURN_IF_ERROR(checkBatched(artifact, name));
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
