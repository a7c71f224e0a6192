//===- kiln-sim.cpp - Simulate the resource manager on a config -----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Runs the DevicePool and its policies in virtual time against simulated
// devices and prints the report as JSON. Deterministic: the same config,
// policy, load and seed print the same bytes.
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/serving/Simulator.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

using namespace kiln::rt;
using namespace kiln::rt::serving;

namespace {

constexpr const char *kUsage =
    "usage: kiln-sim CONFIG.json [--policy kiln|fifo|round-robin|jsq|triton] "
    "[--load X]\n"
    "                [--seed N] [--set PATH=VALUE]... [--write-arrivals FILE]\n"
    "\n"
    "Simulates several models sharing a pool of devices, in virtual time,\n"
    "and prints the report (SLO attainment, p50/p99 latency per model and\n"
    "priority, rejections by reason, device utilisation) as JSON on stdout.\n"
    "--policy, --load (fraction of batch-1 capacity) and --seed override\n"
    "the config; --set edits any config field first (e.g.\n"
    "--set pool.batching=false --set arrivals.cv=1). The config format is\n"
    "in docs/resource-manager.md. --write-arrivals also writes the run's\n"
    "arrivals as a CSV trace (time_ms,model,priority), which\n"
    "arrivals.process=trace replays exactly; a subset of its lines (e.g.\n"
    "one priority) replays that traffic alone.\n"
    "\n"
    "Exit codes: 0 success, 1 usage error, 2 bad config (or trace, or\n"
    "--set edit, or an unwritable --write-arrivals file), 4 internal\n"
    "error.\n";

int usageError(const std::string &message) {
  std::fprintf(stderr, "kiln-sim: error: %s\n%s", message.c_str(), kUsage);
  return 1;
}

} // namespace

int main(int argc, char **argv) {
  std::string configPath, policy, load, seed, arrivalsPath;
  std::vector<std::string> overrides;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&](std::string &out) {
      if (i + 1 >= argc)
        return false;
      out = argv[++i];
      return true;
    };
    if (arg == "-h" || arg == "--help") {
      std::fputs(kUsage, stdout);
      return 0;
    }
    if (arg == "--policy") {
      if (!value(policy))
        return usageError("--policy needs a value");
    } else if (arg == "--load") {
      if (!value(load))
        return usageError("--load needs a value");
    } else if (arg == "--set") {
      std::string edit;
      if (!value(edit))
        return usageError("--set needs PATH=VALUE");
      overrides.push_back(edit);
    } else if (arg == "--write-arrivals") {
      if (!value(arrivalsPath))
        return usageError("--write-arrivals needs a file");
    } else if (arg == "--seed") {
      if (!value(seed))
        return usageError("--seed needs a value");
    } else if (!arg.empty() && arg[0] == '-') {
      return usageError("unknown option '" + arg + "'");
    } else if (configPath.empty()) {
      configPath = arg;
    } else {
      return usageError("more than one config given");
    }
  }
  if (configPath.empty())
    return usageError("no config given");

  StatusOr<SimConfig> config = readSimConfig(configPath, overrides);
  if (!config.isOk()) {
    std::fprintf(stderr, "kiln-sim: error: %s\n",
                 config.status().message().c_str());
    return 2;
  }
  if (!policy.empty()) {
    std::optional<PolicyKind> kind = parsePolicyKind(policy);
    if (!kind)
      return usageError(
          "--policy must be kiln, fifo, round-robin, jsq or triton");
    config->pool.policy = *kind;
  }
  if (!load.empty()) {
    char *end = nullptr;
    double value = std::strtod(load.c_str(), &end);
    if (*end != '\0' || !(value > 0) || value > 100)
      return usageError("--load must be a number in (0, 100]");
    config->load = value;
  }
  if (!seed.empty()) {
    char *end = nullptr;
    unsigned long long value = std::strtoull(seed.c_str(), &end, 10);
    if (seed.empty() || *end != '\0')
      return usageError("--seed must be a non-negative integer");
    config->seed = value;
  }

  if (!arrivalsPath.empty()) {
    StatusOr<std::vector<Arrival>> arrivals = simulationArrivals(*config);
    if (!arrivals.isOk()) {
      std::fprintf(stderr, "kiln-sim: error: %s\n",
                   arrivals.status().message().c_str());
      return 2;
    }
    std::ofstream out(arrivalsPath, std::ios::binary);
    out << arrivalTraceCsv(*arrivals);
    if (!out.flush()) {
      std::fprintf(stderr, "kiln-sim: error: cannot write '%s'\n",
                   arrivalsPath.c_str());
      return 2;
    }
  }
  StatusOr<SimulationResult> result = simulate(*config);
  if (!result.isOk()) {
    std::fprintf(stderr, "kiln-sim: error: %s\n",
                 result.status().toString().c_str());
    return result.status().code() == StatusCode::kInternal ? 4 : 2;
  }
  std::fputs(reportToJson(result->report).c_str(), stdout);
  return 0;
}
