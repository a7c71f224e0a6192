//===- RankedArtifact.h - One artifact per rank in one file -----*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// What `kilnc compile --devices N` writes: every rank's program (with its
// slices of the weights) in one file. Each rank's part is a complete,
// checksummed artifact (docs/artifact-format.md), wrapped with the number
// of ranks and the strategy:
//
//   "KILNRANK" | u32 version | u32 ranks | string strategy
//   | (version 2: u32 micro-batches | u32 replicas)
//   | (version 3: u32 micro-batches | u32 replicas | u32 stage ranks)
//   | ranks x (u64 size | artifact bytes) | u32 CRC-32 of all before it
//
// Version 1 holds tensor- and data-parallel artifacts, whose ranks share
// the model's interface. Version 2 adds pipelines, whose rank r is stage
// r: it takes the model's inputs (one micro-batch of them) and what stage
// r - 1 sends, and sends its results to stage r + 1 (the last stage
// returns the model's outputs, one micro-batch of them); and data-parallel
// replicas of either kind (a 2-D mesh, data x tensor or data x pipeline):
// the `ranks` programs run `replicas` times, each replica on its slice of
// the batch, split and stacked again by the runtime. Version 3 adds
// pipelines whose stages are tensor-parallel (pipeline x tensor): rank
// p * stageRanks + t is stage p's tensor rank t; the stage's tensor ranks
// share its interface, and tensor rank t of each stage sends to tensor
// rank t of the next.
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
  /// "tensor", "sequence" or "data" (informative), or "pipeline".
  std::string strategy;
  /// Pipeline parallelism: the slices of the batch each stage runs in turn.
  uint32_t microBatches = 1;
  /// Data-parallel replicas of the ranks' programs (the data axis of a
  /// 2-D mesh): replica d runs on the d-th slice of the batch.
  uint32_t replicas = 1;
  /// Rank r's program. Tensor and data parallelism: every rank has the
  /// model's whole interface. Pipeline: stage r's (see above).
  std::vector<Artifact> ranks;

  /// Pipeline x tensor: the tensor ranks of each stage (ranks[p *
  /// stageRanks + t] is stage p's rank t); 1 otherwise.
  uint32_t stageRanks = 1;

  bool isPipeline() const {
    return strategy == "pipeline" || strategy == "data,pipeline" ||
           strategy == "pipeline,tensor";
  }
  /// Pipeline stages (1 without a pipeline).
  size_t stages() const { return isPipeline() ? ranks.size() / stageRanks : 1; }
  /// Processes or threads a run takes: replicas x ranks.
  size_t worldSize() const { return size_t(replicas) * ranks.size(); }
};

inline constexpr uint32_t kMaxRanks = 4096;
inline constexpr uint32_t kMaxMicroBatches = 4096;

/// The model's interface: rank 0's; for a pipeline, stage 0's model inputs
/// and the last stage's outputs; the first dimension times the
/// micro-batches and the replicas.
struct ModelInterface {
  std::vector<TensorSpec> inputs;
  std::vector<TensorSpec> outputs;
};
ModelInterface modelInterface(const RankedArtifact &artifact);
/// What one replica computes: modelInterface without the replicas factor.
ModelInterface replicaInterface(const RankedArtifact &artifact);

std::vector<uint8_t> encodeRankedArtifact(const RankedArtifact &artifact);

/// Validates (magic, version, bounds, checksum, each rank's artifact, equal
/// interfaces or, for a pipeline, stages that chain) and decodes; `name` is
/// used in messages.
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
