//===- PipelineStage.cpp - One stage of a pipeline-parallel run -----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "PipelineStage.h"

#include <chrono>
#include <cstring>

namespace kiln::rt {

namespace {

/// Sends or receives `tensor` as a collective step on `hook`.
class Transfers {
public:
  Transfers(const PipelineStageContext &context) : context_(context) {}

  Status send(HostTensor &tensor, size_t peer, const std::string &what) {
    return run(Step::CollectiveKind::kSend, tensor, peer, what);
  }
  Status recv(HostTensor &tensor, size_t peer, const std::string &what) {
    return run(Step::CollectiveKind::kRecv, tensor, peer, what);
  }

private:
  Status run(Step::CollectiveKind kind, HostTensor &tensor, size_t peer,
             const std::string &what) {
    if (tensor.data.empty())
      return Status::ok(); // Both sides know the size: nothing to move.
    Step step;
    step.kind = Step::Kind::kCollective;
    step.collective = kind;
    step.ranks = uint32_t(context_.ranks);
    step.peer = uint32_t(peer);
    step.element = tensor.dtype;
    KernelArg binding;
    binding.base = KernelArg::Base::kInput;
    binding.bytes = tensor.data.size();
    binding.access = kind == Step::CollectiveKind::kSend
                         ? KernelArg::Access::kRead
                         : KernelArg::Access::kWrite;
    step.args = {binding};
    std::vector<uint8_t *> pointers = {tensor.data.data()};
    RunBuffers buffers;
    buffers.inputs = &pointers;
    StepEvent event;
    event.index = next_++;
    event.step = &step;
    event.buffers = &buffers;
    Status status = context_.transfers->run(event);
    if (!status.isOk())
      return status.withContext("stage " + std::to_string(context_.rank) +
                                ", " + what);
    return status;
  }

  const PipelineStageContext &context_;
  uint32_t next_ = 0;
};

HostTensor emptyLike(const TensorSpec &spec) {
  return {spec.dtype, spec.shape, std::vector<uint8_t>(tensorBytes(spec))};
}

} // namespace

Status runPipelineStage(const PipelineStageContext &context,
                        const std::vector<HostTensor> &inputs,
                        std::vector<HostTensor> &outputs,
                        PipelineTiming &timing) {
  const Program &program = context.stage->program();
  const ModelInterface &model = *context.model;
  size_t rank = context.rank, last = context.ranks - 1;
  uint32_t microBatches = context.microBatches;
  if (inputs.size() != model.inputs.size())
    return invalidArgument("the model takes " +
                           std::to_string(model.inputs.size()) +
                           " inputs, got " + std::to_string(inputs.size()));
  for (size_t i = 0; i < inputs.size(); ++i)
    if (inputs[i].data.size() != tensorBytes(model.inputs[i]))
      return invalidArgument("input '" + model.inputs[i].name + "' has " +
                             std::to_string(inputs[i].data.size()) +
                             " bytes, the model reads " +
                             std::to_string(tensorBytes(model.inputs[i])));
  Transfers transfers(context);
  if (rank == last) {
    outputs.clear();
    for (const TensorSpec &spec : model.outputs)
      outputs.push_back(emptyLike(spec));
  }
  std::vector<HostTensor> stageInputs, stageOutputs;
  for (const TensorSpec &spec : program.inputs)
    stageInputs.push_back(emptyLike(spec));
  for (uint32_t micro = 0; micro < microBatches; ++micro) {
    std::string at = "micro-batch " + std::to_string(micro);
    for (size_t i = 0; i < stageInputs.size(); ++i) {
      HostTensor &input = stageInputs[i];
      if (i < inputs.size()) {
        size_t bytes = input.data.size();
        std::memcpy(input.data.data(), inputs[i].data.data() + micro * bytes,
                    bytes);
        continue;
      }
      KILN_RETURN_IF_ERROR(
          transfers.recv(input, rank - 1,
                         at + ", receiving '" + program.inputs[i].name + "'"));
    }
    auto start = std::chrono::steady_clock::now();
    // A tensor-parallel stage's collectives go through the same hook (its
    // stage group); a plain stage has none.
    RunOptions options;
    options.collectives = context.transfers;
    KILN_RETURN_IF_ERROR(
        context.stage->run(stageInputs, stageOutputs, options)
            .withContext("stage " + std::to_string(rank) + ", " + at));
    timing.busySeconds +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    for (size_t k = 0; k < stageOutputs.size(); ++k) {
      HostTensor &output = stageOutputs[k];
      if (rank != last) {
        KILN_RETURN_IF_ERROR(
            transfers.send(output, rank + 1,
                           at + ", sending '" + program.outputs[k].name + "'"));
        continue;
      }
      size_t bytes = output.data.size();
      if (bytes * microBatches != outputs[k].data.size())
        return invalidArgument(
            "stage " + std::to_string(rank) + " output " + std::to_string(k) +
            " has " + std::to_string(bytes) + " bytes per micro-batch");
      std::memcpy(outputs[k].data.data() + micro * bytes, output.data.data(),
                  bytes);
    }
  }
  // Rank 0 holds the model's outputs, as in the other strategies.
  if (last != 0) {
    if (rank == last)
      for (HostTensor &output : outputs)
        KILN_RETURN_IF_ERROR(
            transfers.send(output, 0, "sending the outputs to rank 0"));
    if (rank == 0) {
      outputs.clear();
      for (const TensorSpec &spec : model.outputs) {
        outputs.push_back(emptyLike(spec));
        KILN_RETURN_IF_ERROR(transfers.recv(
            outputs.back(), last, "receiving output '" + spec.name + "'"));
      }
    }
  }
  return Status::ok();
}

} // namespace kiln::rt
