//===- MultiRankExecutable.h - Every rank of a sharded model ----*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Runs the ranks of a ranked artifact (RankedArtifact.h) in one process:
// one thread per rank, an in-process communicator between CPU ranks, NCCL
// between CUDA ranks (rank r on GPU r; openNcclGroup). Every rank
// takes the same inputs; rank 0's outputs are the model's. One rank per
// process under mpirun is RankExecutable below.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_MULTIRANKEXECUTABLE_H
#define KILN_RUNTIME_MULTIRANKEXECUTABLE_H

#include "kiln/runtime/CommunicatorCollectives.h"
#include "kiln/runtime/DeviceExecutable.h"
#include "kiln/runtime/RankedArtifact.h"

#include <functional>
#include <memory>
#include <vector>

namespace kiln::rt {

/// Wraps rank `rank`'s collectives hook (`inner`, owned by the executable
/// and outliving the wrapper); for fault injection in tests and for
/// tracing. Null: the hook is used as is.
using CollectivesWrapper = std::function<std::unique_ptr<CollectivesHook>(
    size_t rank, CollectivesHook &inner)>;

/// What one rank of a pipeline-parallel run did in its last run.
struct PipelineTiming {
  double busySeconds = 0; ///< Running its stage's program.
  double wallSeconds = 0; ///< The whole run, transfers and waits included.
};

/// The share of the ranks' time spent not running their stage (waiting
/// for the pipeline to fill and drain): 1 - sum(busy) / sum(wall).
double pipelineBubble(const std::vector<PipelineTiming> &timings);

struct MultiRankOptions {
  /// Threads of each rank's CPU executable (1: the rank's own thread).
  unsigned threadsPerRank = 1;
  CommunicatorOptions communicator;
  CollectivesWrapper wrapCollectives;
};

/// A DeviceExecutable whose device is N CPU ranks or N GPUs (kUnavailable
/// without NCCL or enough GPUs): whatever runs a loaded
/// artifact (kiln-run, the C++ API) runs a sharded one the same way.
class MultiRankExecutable : public DeviceExecutable {
public:
  static StatusOr<std::unique_ptr<MultiRankExecutable>>
  load(RankedArtifact artifact, const std::string &name,
       const MultiRankOptions &options = {});

  /// Rank 0's program; for a pipeline or replicas, with the model's
  /// interface.
  const Program &program() const override {
    return pipeline_ || replicas_ > 1 ? interface_
                                      : executables_.front()->program();
  }
  /// "N CPU ranks in-process", or "N CUDA ranks ..." .
  std::string description() const override;
  size_t ranks() const { return executables_.size(); }

  /// Runs every rank at once and returns the model's outputs (rank 0's;
  /// with replicas, each replica's rank 0's slices stacked). When a rank
  /// fails, the others are aborted (no rank waits forever) and the first
  /// failure that is not such an abort is returned; the executable cannot
  /// run again after that.
  Status run(const std::vector<HostTensor> &inputs,
             std::vector<HostTensor> &outputs) override;
  /// The same on caller-owned buffers (rank 0 writes `outputs`).
  Status run(const std::vector<TensorRef> &inputs,
             const std::vector<TensorRef> &outputs) override;
  using DeviceExecutable::run;

  /// Collectives rank `rank` ran, by kind, since load.
  CollectiveCounters counters(size_t rank) const {
    return hooks_[rank]->counters();
  }
  /// Pipeline parallelism: every rank's timing in the last run; empty
  /// for other strategies.
  const std::vector<PipelineTiming> &pipelineTimings() const {
    return timings_;
  }
  uint32_t microBatches() const { return microBatches_; }

private:
  bool pipeline_ = false;
  bool cuda_ = false; ///< Rank r runs on GPU r, collectives through NCCL.
  uint32_t microBatches_ = 1;
  /// Rank r of replica d is executables_[d * ranksPerReplica_ + r].
  uint32_t replicas_ = 1;
  size_t ranksPerReplica_ = 1;
  /// Pipeline x tensor: tensor ranks per stage (1 otherwise).
  size_t stageRanks_ = 1;
  ModelInterface model_, replicaModel_;
  Program interface_;
  std::vector<PipelineTiming> timings_;
  std::vector<std::unique_ptr<DeviceExecutable>> executables_;
  /// Per world rank: its group (pipeline x tensor: its column, which
  /// carries the transfers) and, for pipeline x tensor, its stage's tensor
  /// ranks.
  std::vector<std::unique_ptr<Communicator>> communicators_;
  std::vector<std::unique_ptr<Communicator>> stageCommunicators_;
  std::vector<std::unique_ptr<CommunicatorCollectives>> hooks_;
  /// What each rank's run calls: hooks_[r] or its wrapper.
  std::vector<std::unique_ptr<CollectivesHook>> wrapped_;
  bool broken_ = false;
};

/// The CUDA device of this process's rank when the launcher says which of
/// its host's ranks it is (OMPI_COMM_WORLD_LOCAL_RANK, MPI_LOCALRANKID or
/// SLURM_LOCALID); else `worldRank`.
int localCudaDevice(int worldRank);

/// One rank of a ranked artifact on a communicator made elsewhere (MPI:
/// one process per rank). A CUDA rank runs on `cudaDevice` (-1:
/// localCudaDevice) and its collectives go through an NCCL communicator
/// bootstrapped over `communicator` (its replica's group).
class RankExecutable {
public:
  static StatusOr<std::unique_ptr<RankExecutable>>
  load(RankedArtifact artifact, const std::string &name,
       std::unique_ptr<Communicator> communicator, unsigned threads = 1,
       const CollectivesWrapper &wrapCollectives = nullptr,
       int cudaDevice = -1);

  /// This rank's program; for a pipeline or replicas, with the model's
  /// interface.
  const Program &program() const {
    return pipeline_ || replicas_ > 1 ? interface_ : executable_->program();
  }
  /// The rank in the world (all replicas).
  int rank() const { return world_->rank(); }
  /// Every rank computes the outputs (a pipeline: rank 0 receives them
  /// from the last stage; the others return none).
  Status run(const std::vector<HostTensor> &inputs,
             std::vector<HostTensor> &outputs);
  CollectiveCounters counters() const { return hook_->counters(); }
  /// Pipeline parallelism: this rank's timing in the last run.
  const PipelineTiming &pipelineTiming() const { return timing_; }
  bool isPipeline() const { return pipeline_; }

private:
  /// This rank's replica's communicator (the world without replicas); for
  /// pipeline x tensor, its column (tensor rank t of every stage).
  Communicator &group() const { return group_ ? *group_ : *world_; }
  Status gatherReplicas(std::vector<HostTensor> &outputs);

  bool pipeline_ = false;
  uint32_t microBatches_ = 1;
  uint32_t replicas_ = 1;
  size_t ranks_ = 1;     ///< Per replica.
  size_t stageRanks_ = 1; ///< Pipeline x tensor: tensor ranks per stage.
  ModelInterface model_; ///< One replica's.
  Program interface_;
  PipelineTiming timing_;
  std::unique_ptr<DeviceExecutable> executable_;
  std::unique_ptr<Communicator> world_, group_;
  /// Pipeline x tensor: this rank's stage's tensor ranks.
  std::unique_ptr<Communicator> stageGroup_;
  /// CUDA ranks: NCCL over group(), which the collectives go through.
  std::unique_ptr<Communicator> nccl_;
  std::unique_ptr<CommunicatorCollectives> hook_;
  std::unique_ptr<CollectivesHook> wrapped_;
};

} // namespace kiln::rt

#endif // KILN_RUNTIME_MULTIRANKEXECUTABLE_H
