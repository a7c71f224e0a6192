//===- RankedRun.cpp - kiln-run for sharded (ranked) artifacts ------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "RankedRun.h"

#include "Exit.h"
#include "FaultInjection.h"

#include "kiln/runtime/MultiRankExecutable.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>

namespace kiln::rt {

namespace {

/// "all_reduce 4 (1048576 bytes)" per kind, for the collectives of a run.
std::string describe(const CollectiveCounters &counters, unsigned runs) {
  std::string text;
  for (uint32_t kind = 1; kind <= 6; ++kind) {
    auto k = Step::CollectiveKind(kind);
    const CollectiveCounters::Kind &figures = counters.of(k);
    if (figures.calls == 0)
      continue;
    text += std::string(text.empty() ? "" : ", ") + collectiveKindName(k) +
            " " + std::to_string(figures.calls / runs) + " (" +
            std::to_string(figures.bytes / runs) + " bytes)";
  }
  return text.empty() ? "none" : text;
}

/// Pipeline timings summed over the timed runs.
struct PipelineTotals {
  std::vector<PipelineTiming> ranks;

  void add(const std::vector<PipelineTiming> &run) {
    ranks.resize(run.size());
    for (size_t r = 0; r < run.size(); ++r) {
      ranks[r].busySeconds += run[r].busySeconds;
      ranks[r].wallSeconds += run[r].wallSeconds;
    }
  }

  /// "pipeline: 2 stage(s) x 4 micro-batches; busy 41.2, 40.8 ms of 50.3
  /// ms a run; bubble 0.19 (GPipe's (p-1)/(m+p-1): 0.20)". Under MPI a
  /// rank knows only its own timing: "pipeline: stage 0 of 2 x ...; idle".
  std::string describe(uint32_t microBatches, size_t stages,
                       unsigned runs) const {
    bool own = ranks.size() == 1 && stages > 1;
    std::string busy;
    double wall = 0;
    for (size_t r = 0; r < ranks.size(); ++r) {
      char figure[32];
      std::snprintf(figure, sizeof(figure), "%s%.3f", r ? ", " : "",
                    ranks[r].busySeconds * 1e3 / runs);
      busy += figure;
      wall = std::max(wall, ranks[r].wallSeconds);
    }
    char text[256];
    std::snprintf(text, sizeof(text),
                  "pipeline: %s%zu stage(s) x %u micro-batches; busy %s ms of "
                  "%.3f ms a run; %s %.3f (GPipe's (p-1)/(m+p-1): %.3f)\n",
                  own ? "stage 0 of " : "", stages, microBatches, busy.c_str(),
                  wall * 1e3 / runs, own ? "idle" : "bubble",
                  pipelineBubble(ranks),
                  (stages - 1.0) / (microBatches + stages - 1.0));
    return text;
  }
};

/// Warm-up and timed runs of `runOnce`, then rank 0's report. A pipeline
/// reports its timings too (`pipelineTimings` after each timed run).
int runAndReport(
    const RankedRunOptions &options, const Program &program, bool reporter,
    const std::function<Status(const std::vector<HostTensor> &,
                               std::vector<HostTensor> &)> &runOnce,
    const std::function<CollectiveCounters()> &counters,
    const std::string &where,
    const std::function<std::vector<PipelineTiming>()> &pipelineTimings,
    uint32_t microBatches, size_t ranks) {
  StatusOr<std::vector<HostTensor>> tensors =
      loadInputs(options.inputs, program.inputs, /*synthesizeMissing=*/false);
  if (!tensors.isOk())
    return fail(2, tensors.status().message());
  std::vector<HostTensor> outputs;
  for (unsigned i = 0; i < options.warmup; ++i)
    if (Status status = runOnce(*tensors, outputs); !status.isOk())
      return fail(exitCodeFor(status), status.message());
  std::vector<double> times;
  PipelineTotals pipeline;
  for (unsigned i = 0; i < options.iterations; ++i) {
    auto start = std::chrono::steady_clock::now();
    if (Status status = runOnce(*tensors, outputs); !status.isOk())
      return fail(exitCodeFor(status), status.message());
    times.push_back(std::chrono::duration<double, std::milli>(
                        std::chrono::steady_clock::now() - start)
                        .count());
    if (pipelineTimings)
      pipeline.add(pipelineTimings());
  }
  if (!reporter)
    return 0;
  std::fputs(summarizeOutputs(program.outputs, outputs).c_str(), stdout);
  std::printf(
      "collectives per run %s: %s\n", where.c_str(),
      describe(counters(), options.warmup + options.iterations).c_str());
  if (pipelineTimings && options.iterations > 0)
    std::fputs(
        pipeline.describe(microBatches, ranks, options.iterations).c_str(),
        stdout);
  if (!options.outputDir.empty())
    if (Status status =
            writeOutputs(options.outputDir, program.outputs, outputs);
        !status.isOk())
      return fail(1, status.message());
  std::sort(times.begin(), times.end());
  auto at = [&](double p) {
    return times[std::min(times.size() - 1, size_t(p * times.size()))];
  };
  if (times.size() == 1)
    std::printf("ran in %.3f ms\n", times[0]);
  else
    std::printf("latency over %zu runs: median %.4f ms, p10 %.4f ms, p90 "
                "%.4f ms\n",
                times.size(), at(0.5), at(0.1), at(0.9));
  return 0;
}

} // namespace

bool launchedByMpi() {
  return std::getenv("OMPI_COMM_WORLD_SIZE") || std::getenv("PMI_SIZE");
}

int runRanked(RankedArtifact artifact, const RankedRunOptions &options) {
  size_t ranks = artifact.worldSize(), stages = artifact.stages();
  bool pipelined = artifact.isPipeline();
  uint32_t microBatches = artifact.microBatches;
  CommunicatorOptions communicator;
  communicator.timeout = std::chrono::milliseconds(options.timeoutMs);
  StatusOr<CollectivesWrapper> faults =
      faultInjectionFromEnvironment(options.timeoutMs);
  if (!faults.isOk())
    return fail(1, faults.status().message());
  if (launchedByMpi()) {
    StatusOr<std::unique_ptr<Communicator>> world =
        openMpiCommunicator(communicator);
    if (!world.isOk())
      return fail(exitCodeFor(world.status()), world.status().message());
    auto executable = RankExecutable::load(std::move(artifact), options.model,
                                           std::move(*world),
                                           options.threadsPerRank, *faults);
    if (!executable.isOk())
      return fail(exitCodeFor(executable.status()),
                  executable.status().message());
    RankExecutable &rank = **executable;
    // Rank 0 reports and writes the outputs; every rank computes them.
    return runAndReport(
        options, rank.program(), rank.rank() == 0,
        [&](const std::vector<HostTensor> &in, std::vector<HostTensor> &out) {
          return rank.run(in, out);
        },
        [&] { return rank.counters(); },
        "(rank 0 of " + std::to_string(ranks) + ", MPI)",
        // Under MPI a rank knows its own timing only.
        pipelined ? std::function<std::vector<PipelineTiming>()>([&] {
          return std::vector<PipelineTiming>{rank.pipelineTiming()};
        })
                  : nullptr,
        microBatches, stages);
  }
  if (options.ranks != 0 && options.ranks != ranks)
    return fail(2, options.model + " holds " + std::to_string(ranks) +
                       " ranks; --ranks says " + std::to_string(options.ranks));
  MultiRankOptions load;
  load.threadsPerRank = options.threadsPerRank;
  load.communicator = communicator;
  load.wrapCollectives = *faults;
  auto executable =
      MultiRankExecutable::load(std::move(artifact), options.model, load);
  if (!executable.isOk())
    return fail(exitCodeFor(executable.status()),
                executable.status().message());
  MultiRankExecutable &all = **executable;
  return runAndReport(
      options, all.program(), true,
      [&](const std::vector<HostTensor> &in, std::vector<HostTensor> &out) {
        return all.run(in, out);
      },
      [&] { return all.counters(0); },
      "(rank 0 of " + std::to_string(ranks) + ", in-process)",
      pipelined ? std::function<std::vector<PipelineTiming>()>(
                      [&] { return all.pipelineTimings(); })
                : nullptr,
      microBatches, stages);
}

} // namespace kiln::rt
