//===- ParallelOptions.h - How a model is laid out on devices ---*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// CompileOptions' devices, parallel, mesh, micro-batches and shard,
// checked together and resolved into the plan the compiler follows: a
// 1-D mesh (tensor, data or pipeline over all devices), or a 2-D one whose
// data axis replicates a tensor- or pipeline-parallel program.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_API_PARALLELOPTIONS_H
#define KILN_COMPILER_API_PARALLELOPTIONS_H

#include "kiln/kiln.h"

#include <string>

namespace kiln {

struct ParallelPlan {
  /// Data-parallel replicas of the ranks' programs (the data axis of a
  /// 2-D mesh; 1 otherwise).
  int replicas = 1;
  /// Pipeline stages, each split over `ranks` (the pipeline axis of a
  /// pipeline x tensor mesh; 1 otherwise).
  int stages = 1;
  /// Programs per replica, and how they split the model.
  int ranks = 1;
  std::string strategy = "tensor";
};

/// Validates the parallelism options (kInvalidArgument saying what is
/// wrong); a mesh sets `options.devices` when it was left at 1.
StatusOr<ParallelPlan> planParallelism(CompileOptions &options);

} // namespace kiln

#endif // KILN_COMPILER_API_PARALLELOPTIONS_H
