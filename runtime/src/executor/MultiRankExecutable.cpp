//===- MultiRankExecutable.cpp - Every rank of a sharded model ------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/MultiRankExecutable.h"

#include "PipelineStage.h"

#include "kiln/runtime/InProcessGroup.h"

#include <chrono>
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
  size_t ranks = artifact.ranks.size();
  if (ranks == 0)
    return invalidArgument(name + ": no ranks to load");
  auto communicators = InProcessGroup::create(int(ranks), options.communicator);
  if (!communicators.isOk())
    return communicators.status();
  auto executable = std::make_unique<MultiRankExecutable>();
  executable->communicators_ = std::move(*communicators);
  executable->pipeline_ = artifact.isPipeline();
  executable->microBatches_ = artifact.microBatches;
  executable->model_ = modelInterface(artifact);
  if (executable->pipeline_)
    executable->interface_ =
        withInterface(artifact.ranks.front().program, executable->model_);
  ExecutableOptions load;
  load.threads = options.threadsPerRank;
  for (size_t rank = 0; rank < ranks; ++rank) {
    const Program &program = artifact.ranks[rank].program;
    if (program.devices.size() != 1 ||
        program.devices[0].kind != DeviceProgram::Kind::kCpu)
      return unimplemented(name + ": rank " + std::to_string(rank) +
                           " is not one CPU program; ranks run on CPUs only "
                           "for now");
    for (const Step &step : program.devices[0].steps)
      if (step.kind == Step::Kind::kCollective && step.ranks != ranks)
        return invalidArgument(name + ": rank " + std::to_string(rank) +
                               " has a collective over " +
                               std::to_string(step.ranks) + " ranks in a " +
                               std::to_string(ranks) + "-rank artifact");
    auto loaded =
        loadExecutable(std::move(artifact.ranks[rank]),
                       name + " (rank " + std::to_string(rank) + ")", load);
    if (!loaded.isOk())
      return loaded.status();
    executable->executables_.push_back(std::move(*loaded));
    executable->hooks_.push_back(std::make_unique<CommunicatorCollectives>(
        *executable->communicators_[rank]));
    executable->wrapped_.push_back(
        options.wrapCollectives
            ? options.wrapCollectives(rank, *executable->hooks_.back())
            : nullptr);
  }
  return executable;
}

Status MultiRankExecutable::run(const std::vector<HostTensor> &inputs,
                                std::vector<HostTensor> &outputs) {
  if (broken_)
    return Status(StatusCode::kFailedPrecondition,
                  "a rank failed in an earlier run; load the artifact again");
  size_t ranks = executables_.size();
  std::vector<Status> statuses(ranks);
  std::vector<std::vector<HostTensor>> rankOutputs(ranks);
  if (pipeline_)
    timings_.assign(ranks, PipelineTiming());
  auto start = std::chrono::steady_clock::now();
  auto runRank = [&](size_t rank) {
    CollectivesHook *collectives =
        wrapped_[rank] ? wrapped_[rank].get() : hooks_[rank].get();
    if (pipeline_) {
      PipelineStageContext context{executables_[rank].get(),
                                   collectives,
                                   rank,
                                   ranks,
                                   microBatches_,
                                   &model_};
      statuses[rank] =
          runPipelineStage(context, inputs, rankOutputs[rank], timings_[rank]);
      timings_[rank].wallSeconds = std::chrono::duration<double>(
                                       std::chrono::steady_clock::now() - start)
                                       .count();
    } else {
      RunOptions options;
      options.collectives = collectives;
      statuses[rank] =
          executables_[rank]->run(inputs, rankOutputs[rank], options);
    }
    // Peers blocked in a collective with this rank must not wait for it.
    if (!statuses[rank].isOk())
      communicators_[rank]->abort();
  };
  std::vector<std::thread> threads;
  for (size_t rank = 1; rank < ranks; ++rank)
    threads.emplace_back(runRank, rank);
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
  outputs = std::move(rankOutputs[0]);
  return Status::ok();
}

std::string MultiRankExecutable::description() const {
  return std::to_string(ranks()) + " CPU ranks in-process";
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

StatusOr<std::unique_ptr<RankExecutable>>
RankExecutable::load(RankedArtifact artifact, const std::string &name,
                     std::unique_ptr<Communicator> communicator,
                     unsigned threads,
                     const CollectivesWrapper &wrapCollectives) {
  int rank = communicator->rank();
  if (size_t(communicator->size()) != artifact.ranks.size())
    return invalidArgument(
        name + " has " + std::to_string(artifact.ranks.size()) +
        " ranks; launched with " + std::to_string(communicator->size()));
  ExecutableOptions options;
  options.threads = threads;
  ModelInterface model = modelInterface(artifact);
  auto loaded =
      loadExecutable(std::move(artifact.ranks[size_t(rank)]),
                     name + " (rank " + std::to_string(rank) + ")", options);
  if (!loaded.isOk())
    return loaded.status();
  auto executable = std::make_unique<RankExecutable>();
  executable->pipeline_ = artifact.isPipeline();
  executable->microBatches_ = artifact.microBatches;
  executable->ranks_ = artifact.ranks.size();
  executable->model_ = std::move(model);
  if (executable->pipeline_)
    executable->interface_ =
        withInterface((*loaded)->program(), executable->model_);
  executable->executable_ = std::move(*loaded);
  executable->communicator_ = std::move(communicator);
  executable->hook_ =
      std::make_unique<CommunicatorCollectives>(*executable->communicator_);
  if (wrapCollectives)
    executable->wrapped_ = wrapCollectives(size_t(rank), *executable->hook_);
  return executable;
}

Status RankExecutable::run(const std::vector<HostTensor> &inputs,
                           std::vector<HostTensor> &outputs) {
  CollectivesHook *collectives = wrapped_ ? wrapped_.get() : hook_.get();
  Status status;
  if (pipeline_) {
    timing_ = PipelineTiming();
    auto start = std::chrono::steady_clock::now();
    PipelineStageContext context{executable_.get(), collectives,
                                 size_t(rank()),    ranks_,
                                 microBatches_,     &model_};
    status = runPipelineStage(context, inputs, outputs, timing_);
    timing_.wallSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
  } else {
    RunOptions options;
    options.collectives = collectives;
    status = executable_->run(inputs, outputs, options);
  }
  if (!status.isOk())
    communicator_->abort();
  return status;
}

} // namespace kiln::rt
