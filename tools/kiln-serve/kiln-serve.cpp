//===- kiln-serve.cpp - Serve a model repository over KServe v2 -----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// kiln-serve --model-repository DIR [--port P] [options]
//
// Exit codes: 0 stopped by SIGINT/SIGTERM, 1 usage, 2 bad repository or
// options, 3 cannot listen.
//
//===----------------------------------------------------------------------===//

#include "Server.h"

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <pthread.h>
#include <string>
#include <thread>

using namespace kiln;

static const char kUsage[] =
    "usage: kiln-serve --model-repository DIR [options]\n"
    "  --port P                 listen on P (8000; 0: any free port)\n"
    "  --host H                 address to listen on (127.0.0.1)\n"
    "  --port-file F            write the port to F once listening\n"
    "  --devices N              CPU devices (1)\n"
    "  --threads-per-device T   threads per execution (1)\n"
    "  --pin                    pin device D to cores D*T .. D*T+T-1\n"
    "  --cores LIST             with --pin: the cores to use, in order\n"
    "                           (e.g. 2,3; default 0,1,2,...)\n"
    "  --device-memory-mib M    memory each device offers models (4096)\n"
    "  --policy kiln|fifo|round-robin|jsq|triton\n"
    "                           scheduling policy (kiln)\n"
    "  --priority-levels N      priority levels, 0 the highest (2)\n"
    "  --default-priority L     level of requests that do not say (lowest)\n"
    "  --queue-capacity N       queued requests per level (1024)\n"
    "  --aging-ms X             a waiting request rises a level per X ms (0)\n"
    "  --slo-x X                deadline of requests without a timeout, in\n"
    "                           unloaded latencies (0: none)\n"
    "  --batch-window-ms X      wait up to X ms to fill a batch (0)\n"
    "  --max-body-mib M         largest request body (64)\n"
    "  --http-threads N         connections served at once (16)\n"
    "  --timing-runs N          timed runs per model at registration (5)\n"
    "  --latency-window N       refine a model's latency every N measured\n"
    "                           executions (128; 0: never)\n"
    "  --request-log F          one CSV line per answered request\n"
    "  --powercap DIR           CPU energy counters (/sys/class/powercap)\n"
    "  --write-sim-config F     a kiln-sim config of this server (devices,\n"
    "                           measured models, pool options)\n"
    "  --model-control-mode none|explicit|poll\n"
    "                           load every model at start (none), only\n"
    "                           through the repository API (explicit), or\n"
    "                           at start and as the folder changes (poll)\n"
    "  --repository-poll-secs S seconds between looks at the folder in poll\n"
    "                           mode (15); a change inotify reports is\n"
    "                           looked at at once\n"
    "  --version-policy P       versions served of a model in folders\n"
    "                           NAME/V/: latest, latest:N, all or\n"
    "                           specific:V[,V...] (latest: the highest)\n"
    "  --model-version-policy NAME=P\n"
    "                           the policy of model NAME (repeatable)\n";

static int usage(const std::string &message) {
  std::fprintf(stderr, "kiln-serve: %s\n%s", message.c_str(), kUsage);
  return 1;
}

static bool parseNumber(const char *text, double &out) {
  char *end = nullptr;
  out = std::strtod(text, &end);
  return end != text && *end == '\0';
}

int main(int argc, char **argv) {
  serve::ServerOptions options;
  std::string portFile;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::printf("%s", kUsage);
      return 0;
    }
    if (arg == "--pin") {
      options.pin = true;
      continue;
    }
    if (i + 1 >= argc)
      return usage("missing value for " + arg);
    const char *value = argv[++i];
    double number = 0;
    bool numeric = parseNumber(value, number);
    auto needs = [&](double low, double high) {
      return numeric && number >= low && number <= high;
    };
    if (arg == "--model-repository") {
      options.repository = value;
    } else if (arg == "--host") {
      options.host = value;
    } else if (arg == "--port-file") {
      portFile = value;
    } else if (arg == "--cores") {
      options.pin = true;
      std::string list = value;
      for (size_t start = 0; start <= list.size();) {
        size_t comma = list.find(',', start);
        std::string item = list.substr(start, comma - start);
        double core = 0;
        if (!parseNumber(item.c_str(), core) || core < 0 || core > 4095 ||
            core != double(int(core)))
          return usage("--cores needs a list of core numbers, got '" + list +
                       "'");
        options.cores.push_back(int(core));
        if (comma == std::string::npos)
          break;
        start = comma + 1;
      }
    } else if (arg == "--powercap") {
      options.powercapRoot = value;
    } else if (arg == "--request-log") {
      options.requestLog = value;
    } else if (arg == "--write-sim-config") {
      options.simConfig = value;
    } else if (arg == "--port" && needs(0, 65535)) {
      options.port = int(number);
    } else if (arg == "--devices" && needs(1, 1024)) {
      options.devices = int(number);
    } else if (arg == "--threads-per-device" && needs(1, 1024)) {
      options.threadsPerDevice = unsigned(number);
    } else if (arg == "--device-memory-mib" && needs(1, 1 << 24)) {
      options.deviceMemoryBytes = uint64_t(number) << 20;
    } else if (arg == "--policy") {
      auto policy = rt::serving::parsePolicyKind(value);
      if (!policy)
        return usage("unknown policy '" + std::string(value) + "'");
      options.pool.policy = *policy;
    } else if (arg == "--priority-levels" && needs(1, 16)) {
      options.pool.queue.priorityLevels = int(number);
    } else if (arg == "--default-priority" && needs(0, 15)) {
      options.defaultPriority = int(number);
    } else if (arg == "--queue-capacity" && needs(1, 1 << 20)) {
      options.pool.queue.capacityPerLevel = size_t(number);
    } else if (arg == "--aging-ms" && needs(0, 1e6)) {
      options.pool.queue.agingStep = rt::serving::millisToMicros(number);
    } else if (arg == "--slo-x" && needs(0, 1e6)) {
      options.sloMultiple = number;
    } else if (arg == "--batch-window-ms" && needs(0, 1e4)) {
      options.pool.batchWindow = rt::serving::millisToMicros(number);
    } else if (arg == "--max-body-mib" && needs(1, 4096)) {
      options.maxBodyBytes = size_t(number) << 20;
    } else if (arg == "--latency-window" && needs(0, 1e6)) {
      options.latencyWindow = size_t(number);
    } else if (arg == "--timing-runs" && needs(1, 1000)) {
      options.timingRuns = int(number);
    } else if (arg == "--http-threads" && needs(1, 1024)) {
      options.httpThreads = int(number);
    } else if (arg == "--model-control-mode" &&
               (!std::strcmp(value, "none") ||
                !std::strcmp(value, "explicit") ||
                !std::strcmp(value, "poll"))) {
      options.loadAtStart = std::strcmp(value, "explicit") != 0;
      options.poll = !std::strcmp(value, "poll");
    } else if (arg == "--repository-poll-secs" && needs(0.01, 86400)) {
      options.pollSeconds = number;
    } else if (arg == "--version-policy") {
      auto policy = kiln::serve::VersionPolicy::parse(value);
      if (!policy.isOk())
        return usage(policy.status().message());
      options.versionPolicy = *policy;
    } else if (arg == "--model-version-policy") {
      std::string text = value;
      size_t equals = text.find('=');
      std::string model = text.substr(0, equals);
      if (equals == std::string::npos ||
          !kiln::serve::ModelRepository::isModelName(model))
        return usage("--model-version-policy needs NAME=POLICY, got '" + text +
                     "'");
      auto policy = kiln::serve::VersionPolicy::parse(text.substr(equals + 1));
      if (!policy.isOk())
        return usage(policy.status().message());
      options.modelVersionPolicies[model] = *policy;
    } else {
      return usage("bad option or value: " + arg + " " + value);
    }
  }
  if (options.repository.empty())
    return usage("--model-repository is required");

  // Signals go to one thread, which stops the server; every other thread
  // (pool, devices, HTTP workers) inherits the blocked mask.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  std::signal(SIGPIPE, SIG_IGN);

  auto server = serve::Server::create(options);
  if (!server.isOk()) {
    std::fprintf(stderr, "kiln-serve: %s\n",
                 server.status().message().c_str());
    return 2;
  }
  auto port = (*server)->bind();
  if (!port.isOk()) {
    std::fprintf(stderr, "kiln-serve: %s\n", port.status().message().c_str());
    return 3;
  }
  if (!portFile.empty()) {
    std::ofstream(portFile + ".tmp") << *port << "\n";
    std::rename((portFile + ".tmp").c_str(), portFile.c_str());
  }
  std::printf("kiln-serve: listening on http://%s:%d\n", options.host.c_str(),
              *port);
  std::fflush(stdout);

  serve::Server *running = server->get();
  std::thread waiter([&signals, running] {
    int signal = 0;
    sigwait(&signals, &signal);
    running->stop();
  });
  running->serve();
  // serve() also returns if listening fails; wake the waiter either way.
  pthread_kill(waiter.native_handle(), SIGTERM);
  waiter.join();
  return 0;
}
