//===- PipelineStage.h - One stage of a pipeline-parallel run ---*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// GPipe's schedule for inference: stage r runs micro-batch 0, 1, ... in
// turn, each on that slice of the model's inputs and what stage r - 1 sent
// for it, and sends its results to stage r + 1 while it goes on with the
// next micro-batch. The last stage gathers the model's outputs and sends
// them to rank 0. Transfers are send/recv collective steps on the rank's
// collectives hook, so they are counted, fingerprinted and time out like
// the compiled ones.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_EXECUTOR_PIPELINESTAGE_H
#define KILN_RUNTIME_EXECUTOR_PIPELINESTAGE_H

#include "kiln/runtime/DeviceExecutable.h"
#include "kiln/runtime/MultiRankExecutable.h"

namespace kiln::rt {

struct PipelineStageContext {
  DeviceExecutable *stage = nullptr;
  /// Sends, receives and (pipeline x tensor) the stage's own collectives.
  CollectivesHook *transfers = nullptr;
  /// The stage and the number of stages.
  size_t rank = 0, ranks = 1;
  uint32_t microBatches = 1;
  /// The model's interface (whole batch).
  const ModelInterface *model = nullptr;
};

/// Runs every micro-batch of stage `context.rank` on the model's whole
/// `inputs`; rank 0 receives the model's whole `outputs`. Adds the time
/// spent running the stage's program to `timing.busySeconds`.
Status runPipelineStage(const PipelineStageContext &context,
                        const std::vector<HostTensor> &inputs,
                        std::vector<HostTensor> &outputs,
                        PipelineTiming &timing);

} // namespace kiln::rt

#endif // KILN_RUNTIME_EXECUTOR_PIPELINESTAGE_H
