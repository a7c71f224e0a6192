//===- RankedRun.h - kiln-run for sharded (ranked) artifacts ----*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_KILNRUN_RANKEDRUN_H
#define KILN_TOOLS_KILNRUN_RANKEDRUN_H

#include "kiln/runtime/ModelIO.h"
#include "kiln/runtime/RankedArtifact.h"

#include <string>
#include <vector>

namespace kiln::rt {

struct RankedRunOptions {
  std::string model;
  std::vector<InputFile> inputs;
  std::string outputDir;
  unsigned iterations = 1, warmup = 0;
  unsigned threadsPerRank = 1;
  /// --ranks: 0 when not given (then the artifact's count).
  unsigned ranks = 0;
  unsigned timeoutMs = 60000;
};

/// Whether this process was started by mpirun (one rank per process).
bool launchedByMpi();

/// Runs every rank in this process (threads, in-process communicator), or
/// this process's rank when launched by mpirun; prints and writes rank 0's
/// outputs. Returns the exit code.
int runRanked(RankedArtifact artifact, const RankedRunOptions &options);

} // namespace kiln::rt

#endif // KILN_TOOLS_KILNRUN_RANKEDRUN_H
