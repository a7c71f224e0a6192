//===- MultiRankExecutable.cpp - Every rank of a sharded model ------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/MultiRankExecutable.h"

#include "PipelineStage.h"
#include "kiln/runtime/BatchSlices.h"

#include "kiln/runtime/InProcessGroup.h"
#include "kiln/runtime/NcclCommunicator.h"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace kiln::rt {

double pipelineBubble(const std::vector<PipelineTiming> &timings) {
  double busy = 0, wall = 0;
  for (const PipelineTiming &timing : timings) {
    busy += timing.busySeconds;
    wall += timing.wallSeconds;
  }
  return wall > 0 ? 1.0 - busy / wall : 0.0;
}

namespace {

/// The device every rank's program runs on: all CPU or all CUDA, one
/// device each.
StatusOr<DeviceProgram::Kind> rankDevice(const RankedArtifact &artifact,
                                         const std::string &name) {
  DeviceProgram::Kind kind = DeviceProgram::Kind::kCpu;
  for (size_t rank = 0; rank < artifact.ranks.size(); ++rank) {
    const Program &program = artifact.ranks[rank].program;
    if (program.devices.size() != 1)
      return unimplemented(name + ": rank " + std::to_string(rank) + " has " +
                           std::to_string(program.devices.size()) +
                           " device programs; a rank runs on one device");
    if (rank == 0)
      kind = program.devices[0].kind;
    else if (program.devices[0].kind != kind)
      return invalidArgument(name + ": rank " + std::to_string(rank) +
                             " runs on another kind of device than rank 0");
  }
  return kind;
}

/// Pipeline x tensor: the communicators of `stages` stages of `width`
/// tensor ranks, in world order (rank p * width + t): each rank's stage
/// group (its stage's tensor ranks; NCCL between the GPUs of CUDA ranks)
/// and column group (tensor rank t of every stage, which the pipeline's
/// transfers of host tensors go through: in-process).
Status createMeshGroups(size_t stages, size_t width, bool cuda,
                        const CommunicatorOptions &options,
                        std::vector<std::unique_ptr<Communicator>> &columns,
                        std::vector<std::unique_ptr<Communicator>> &rows) {
  columns.resize(stages * width);
  rows.resize(stages * width);
  for (size_t stage = 0; stage < stages; ++stage) {
    std::vector<int> gpus;
    for (size_t t = 0; t < width; ++t)
      gpus.push_back(int(stage * width + t));
    auto group = cuda ? openNcclGroup(gpus, options)
                      : InProcessGroup::create(int(width), options);
    if (!group.isOk())
      return group.status();
    for (size_t t = 0; t < width; ++t)
      rows[stage * width + t] = std::move((*group)[t]);
  }
  for (size_t t = 0; t < width; ++t) {
    auto group = InProcessGroup::create(int(stages), options);
    if (!group.isOk())
      return group.status();
    for (size_t stage = 0; stage < stages; ++stage)
      columns[stage * width + t] = std::move((*group)[stage]);
  }
  return Status::ok();
}

/// The collectives of a pipeline x tensor rank: transfers (send, recv)
/// over its column, the rest over its stage's tensor ranks (group 1).
void addStageGroup(CommunicatorCollectives &hook, Communicator &stage) {
  (void)hook.addGroup(1, stage);
  hook.setGroupChooser([](const StepEvent &event) {
    Step::CollectiveKind kind = event.step->collective;
    return kind == Step::CollectiveKind::kSend ||
                   kind == Step::CollectiveKind::kRecv
               ? 0u
               : 1u;
  });
}

/// `program` with the model's interface in place of its own.
Program withInterface(const Program &program, const ModelInterface &model) {
  Program interface = program;
  interface.inputs = model.inputs;
  interface.outputs = model.outputs;
  return interface;
}

} // namespace

StatusOr<std::unique_ptr<MultiRankExecutable>>
MultiRankExecutable::load(RankedArtifact artifact, const std::string &name,
                          const MultiRankOptions &options) {
  size_t ranks = artifact.ranks.size(), replicas = artifact.replicas;
  if (ranks == 0)
    return invalidArgument(name + ": no ranks to load");
  StatusOr<DeviceProgram::Kind> device = rankDevice(artifact, name);
  if (!device.isOk())
    return device.status();
  auto executable = std::make_unique<MultiRankExecutable>();
  executable->cuda_ = *device == DeviceProgram::Kind::kCuda;
  size_t width = artifact.stageRanks;
  if (width > 1)
    KILN_RETURN_IF_ERROR(
        createMeshGroups(ranks / width, width, executable->cuda_,
                         options.communicator, executable->communicators_,
                         executable->stageCommunicators_)
            .withContext(name));
  // Each replica is its own group of `ranks` ranks (no collective crosses
  // replicas: inference needs none). CUDA ranks: world rank w on GPU w,
  // exchanging device buffers through NCCL; a pipeline's stages exchange
  // host tensors (in-process).
  for (size_t replica = 0; width == 1 && replica < replicas; ++replica) {
    std::vector<int> gpus;
    for (size_t rank = 0; rank < ranks; ++rank)
      gpus.push_back(int(replica * ranks + rank));
    auto group = executable->cuda_ && !artifact.isPipeline()
                     ? openNcclGroup(gpus, options.communicator)
                     : InProcessGroup::create(int(ranks), options.communicator);
    if (!group.isOk())
      return group.status().withContext(name);
    for (auto &communicator : *group)
      executable->communicators_.push_back(std::move(communicator));
  }
  executable->pipeline_ = artifact.isPipeline();
  executable->microBatches_ = artifact.microBatches;
  executable->replicas_ = artifact.replicas;
  executable->ranksPerReplica_ = ranks;
  executable->stageRanks_ = width;
  executable->model_ = modelInterface(artifact);
  executable->replicaModel_ = replicaInterface(artifact);
  if (executable->pipeline_ || replicas > 1)
    executable->interface_ =
        withInterface(artifact.ranks.front().program, executable->model_);
  ExecutableOptions load;
  load.threads = options.threadsPerRank;
  // A program's collectives span its stage's tensor ranks, or all ranks.
  size_t group = width > 1 ? width : ranks;
  for (size_t rank = 0; rank < ranks; ++rank) {
    const Program &program = artifact.ranks[rank].program;
    for (const Step &step : program.devices[0].steps)
      if (step.kind == Step::Kind::kCollective && step.ranks != group)
        return invalidArgument(name + ": rank " + std::to_string(rank) +
                               " has a collective over " +
                               std::to_string(step.ranks) + " ranks in a " +
                               std::to_string(group) + "-rank group");
  }
  executable->executables_.resize(replicas * ranks);
  for (size_t replica = 0; replica < replicas; ++replica)
    for (size_t rank = 0; rank < ranks; ++rank) {
      size_t world = replica * ranks + rank;
      // The last replica takes the decoded program; the others copy it.
      Artifact part = replica + 1 == replicas ? std::move(artifact.ranks[rank])
                                              : artifact.ranks[rank];
      load.device = int(world);
      auto loaded =
          loadExecutable(std::move(part),
                         name + " (rank " + std::to_string(world) + ")", load);
      if (!loaded.isOk())
        return loaded.status();
      executable->executables_[world] = std::move(*loaded);
    }
  for (size_t world = 0; world < replicas * ranks; ++world) {
    executable->hooks_.push_back(std::make_unique<CommunicatorCollectives>(
        *executable->communicators_[world]));
    if (width > 1)
      addStageGroup(*executable->hooks_.back(),
                    *executable->stageCommunicators_[world]);
    executable->wrapped_.push_back(
        options.wrapCollectives
            ? options.wrapCollectives(world, *executable->hooks_.back())
            : nullptr);
  }
  return executable;
}

Status MultiRankExecutable::run(const std::vector<HostTensor> &inputs,
                                std::vector<HostTensor> &outputs) {
  if (broken_)
    return Status(StatusCode::kFailedPrecondition,
                  "a rank failed in an earlier run; load the artifact again");
  size_t world = executables_.size(), ranks = ranksPerReplica_;
  // Replica d takes the d-th slice of the batch.
  std::vector<std::vector<HostTensor>> slices;
  for (size_t replica = 0; replica < replicas_; ++replica) {
    if (replicas_ == 1) {
      slices.push_back(inputs);
      break;
    }
    auto slice = sliceBatch(inputs, replica, replicas_);
    if (!slice.isOk())
      return slice.status();
    slices.push_back(std::move(*slice));
  }
  std::vector<Status> statuses(world);
  std::vector<std::vector<HostTensor>> rankOutputs(world);
  if (pipeline_)
    timings_.assign(world, PipelineTiming());
  auto start = std::chrono::steady_clock::now();
  auto runRank = [&](size_t global) {
    size_t replica = global / ranks, rank = global % ranks;
    const std::vector<HostTensor> &in = slices[replica];
    CollectivesHook *collectives =
        wrapped_[global] ? wrapped_[global].get() : hooks_[global].get();
    if (pipeline_) {
      PipelineStageContext context{
          executables_[global].get(), collectives,   rank / stageRanks_,
          ranks / stageRanks_,        microBatches_, &replicaModel_};
      statuses[global] =
          runPipelineStage(context, in, rankOutputs[global], timings_[global]);
      timings_[global].wallSeconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                        start)
              .count();
    } else {
      RunOptions options;
      options.collectives = collectives;
      statuses[global] =
          executables_[global]->run(in, rankOutputs[global], options);
    }
    // Peers blocked in a collective with this rank must not wait for it.
    if (!statuses[global].isOk()) {
      communicators_[global]->abort();
      if (!stageCommunicators_.empty())
        stageCommunicators_[global]->abort();
    }
  };
  std::vector<std::thread> threads;
  for (size_t global = 1; global < world; ++global)
    threads.emplace_back(runRank, global);
  runRank(0);
  for (std::thread &thread : threads)
    thread.join();
  const Status *failure = nullptr;
  for (const Status &status : statuses)
    if (!status.isOk() &&
        (!failure || (failure->code() == StatusCode::kAborted &&
                      status.code() != StatusCode::kAborted)))
      failure = &status;
  if (failure) {
    broken_ = true;
    return *failure;
  }
  // Each replica's rank 0 holds its slice of the outputs.
  std::vector<std::vector<HostTensor>> parts;
  for (size_t replica = 0; replica < replicas_; ++replica)
    parts.push_back(std::move(rankOutputs[replica * ranks]));
  auto stacked = stackBatch(parts);
  if (!stacked.isOk())
    return stacked.status();
  outputs = std::move(*stacked);
  return Status::ok();
}

std::string MultiRankExecutable::description() const {
  std::string text = std::to_string(ranks()) +
                     (cuda_ ? " CUDA ranks in-process (GPU r for rank r)"
                            : " CPU ranks in-process");
  if (replicas_ > 1)
    text += " (" + std::to_string(replicas_) + " data-parallel replicas of " +
            std::to_string(ranksPerReplica_) + ")";
  return text;
}

Status MultiRankExecutable::run(const std::vector<TensorRef> &inputs,
                                const std::vector<TensorRef> &outputs) {
  // Through host tensors: every rank reads the same inputs.
  std::vector<HostTensor> in;
  for (const TensorRef &ref : inputs) {
    const auto *bytes = static_cast<const uint8_t *>(ref.data);
    in.push_back(
        {ref.dtype, ref.shape, std::vector<uint8_t>(bytes, bytes + ref.bytes)});
  }
  std::vector<HostTensor> out;
  KILN_RETURN_IF_ERROR(run(in, out));
  if (outputs.size() != out.size())
    return invalidArgument("expected " + std::to_string(out.size()) +
                           " outputs, got " + std::to_string(outputs.size()));
  for (size_t i = 0; i < out.size(); ++i) {
    if (outputs[i].bytes != out[i].data.size())
      return invalidArgument("output " + std::to_string(i) + " has " +
                             std::to_string(outputs[i].bytes) +
                             " bytes, the model writes " +
                             std::to_string(out[i].data.size()));
    std::memcpy(outputs[i].data, out[i].data.data(), out[i].data.size());
  }
  return Status::ok();
}

int localCudaDevice(int worldRank) {
  for (const char *variable :
       {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID"})
    if (const char *value = std::getenv(variable)) {
      char *end = nullptr;
      long local = std::strtol(value, &end, 10);
      if (end != value && *end == '\0' && local >= 0 && local < (1 << 20))
        return int(local);
    }
  return worldRank;
}

StatusOr<std::unique_ptr<RankExecutable>> RankExecutable::load(
    RankedArtifact artifact, const std::string &name,
    std::unique_ptr<Communicator> communicator, unsigned threads,
    const CollectivesWrapper &wrapCollectives, int cudaDevice) {
  int worldRank = communicator->rank();
  size_t ranks = artifact.ranks.size();
  if (size_t(communicator->size()) != artifact.worldSize())
    return invalidArgument(
        name + " has " + std::to_string(artifact.worldSize()) +
        " ranks; launched with " + std::to_string(communicator->size()));
  StatusOr<DeviceProgram::Kind> device = rankDevice(artifact, name);
  if (!device.isOk())
    return device.status();
  bool cuda = *device == DeviceProgram::Kind::kCuda;
  if (cuda && cudaDevice < 0)
    cudaDevice = localCudaDevice(worldRank);
  auto executable = std::make_unique<RankExecutable>();
  executable->pipeline_ = artifact.isPipeline();
  executable->microBatches_ = artifact.microBatches;
  executable->replicas_ = artifact.replicas;
  executable->ranks_ = ranks;
  executable->model_ = replicaInterface(artifact);
  executable->world_ = std::move(communicator);
  // Replica d is world ranks d * ranks ... (d + 1) * ranks - 1: its own
  // group, split once here.
  size_t replica = size_t(worldRank) / ranks, rank = size_t(worldRank) % ranks;
  if (artifact.replicas > 1) {
    auto group = executable->world_->split(int(replica), int(rank));
    if (!group.isOk())
      return group.status();
    executable->group_ = std::move(*group);
  }
  // Pipeline x tensor: the transfers go through the column of tensor rank
  // t (one rank per stage), the stage's collectives through its row.
  size_t width = artifact.stageRanks;
  executable->stageRanks_ = width;
  if (width > 1) {
    int stage = worldRank / int(width), t = worldRank % int(width);
    auto row = executable->world_->split(stage, t);
    if (!row.isOk())
      return row.status();
    auto column = executable->world_->split(t, stage);
    if (!column.isOk())
      return column.status();
    executable->stageGroup_ = std::move(*row);
    executable->group_ = std::move(*column);
  }
  // CUDA programs with collectives (not a plain pipeline's stages).
  if (cuda && (!executable->pipeline_ || executable->stageGroup_)) {
    // Every rank of the group joins, even one that cannot: it reports
    // why to the others instead of leaving them waiting.
    auto nccl =
        openNcclCommunicator(executable->stageGroup_ ? *executable->stageGroup_
                                                     : executable->group(),
                             cudaDevice);
    if (!nccl.isOk())
      return nccl.status().withContext(name + " (rank " +
                                       std::to_string(worldRank) + ")");
    executable->nccl_ = std::move(*nccl);
  }
  ExecutableOptions options;
  options.threads = threads;
  options.device = cuda ? cudaDevice : 0;
  ModelInterface model = modelInterface(artifact);
  auto loaded = loadExecutable(
      std::move(artifact.ranks[rank]),
      name + " (rank " + std::to_string(worldRank) + ")", options);
  if (!loaded.isOk())
    return loaded.status();
  if (executable->pipeline_ || executable->replicas_ > 1)
    executable->interface_ = withInterface((*loaded)->program(), model);
  executable->executable_ = std::move(*loaded);
  // A pipeline's transfers move host tensors over the column (MPI); a
  // CUDA stage's own collectives go through NCCL.
  executable->hook_ = std::make_unique<CommunicatorCollectives>(
      executable->nccl_ && !executable->stageGroup_ ? *executable->nccl_
                                                    : executable->group());
  if (executable->stageGroup_)
    addStageGroup(*executable->hook_, executable->nccl_
                                          ? *executable->nccl_
                                          : *executable->stageGroup_);
  if (wrapCollectives)
    executable->wrapped_ =
        wrapCollectives(size_t(worldRank), *executable->hook_);
  return executable;
}

Status RankExecutable::run(const std::vector<HostTensor> &inputs,
                           std::vector<HostTensor> &outputs) {
  size_t replica = size_t(rank()) / ranks_;
  std::vector<HostTensor> slice;
  if (replicas_ > 1) {
    auto sliced = sliceBatch(inputs, replica, replicas_);
    if (!sliced.isOk())
      return sliced.status();
    slice = std::move(*sliced);
  }
  const std::vector<HostTensor> &in = replicas_ > 1 ? slice : inputs;
  CollectivesHook *collectives = wrapped_ ? wrapped_.get() : hook_.get();
  Status status;
  if (pipeline_) {
    timing_ = PipelineTiming();
    auto start = std::chrono::steady_clock::now();
    PipelineStageContext context{executable_.get(),      collectives,
                                 size_t(group().rank()), ranks_ / stageRanks_,
                                 microBatches_,          &model_};
    status = runPipelineStage(context, in, outputs, timing_);
    timing_.wallSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
  } else {
    RunOptions options;
    options.collectives = collectives;
    status = executable_->run(in, outputs, options);
  }
  if (status.isOk() && replicas_ > 1)
    status = gatherReplicas(outputs);
  if (!status.isOk()) {
    if (nccl_)
      nccl_->abort();
    if (stageGroup_)
      stageGroup_->abort();
    if (group_)
      group_->abort();
    world_->abort();
  }
  return status;
}

Status RankExecutable::gatherReplicas(std::vector<HostTensor> &outputs) {
  // Each replica's rank 0 holds its slice; world rank 0 stacks them.
  if (group().rank() != 0)
    return Status::ok();
  if (rank() != 0) {
    for (HostTensor &output : outputs)
      if (!output.data.empty())
        KILN_RETURN_IF_ERROR(
            world_->send(output.data.data(), output.data.size(), DType::kU8, 0)
                .withContext("sending replica " +
                             std::to_string(size_t(rank()) / ranks_) +
                             "'s outputs to rank 0"));
    return Status::ok();
  }
  std::vector<std::vector<HostTensor>> parts{outputs};
  for (size_t replica = 1; replica < replicas_; ++replica) {
    std::vector<HostTensor> part = outputs;
    for (HostTensor &output : part)
      if (!output.data.empty())
        KILN_RETURN_IF_ERROR(world_
                                 ->recv(output.data.data(), output.data.size(),
                                        DType::kU8, int(replica * ranks_))
                                 .withContext("receiving replica " +
                                              std::to_string(replica) +
                                              "'s outputs"));
    parts.push_back(std::move(part));
  }
  auto stacked = stackBatch(parts);
  if (!stacked.isOk())
    return stacked.status();
  outputs = std::move(*stacked);
  return Status::ok();
}

} // namespace kiln::rt
