//===- kiln-comm-bench.cpp - Time an all-reduce on a communicator ---------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//   kiln-comm-bench [--backend in-process|mpi|nccl] [--ranks N] [--bytes B]
//                   [--iterations N] [--warmup N] [--fingerprints]
//
// in-process runs N rank threads; mpi runs under mpirun (one process per
// rank; --ranks is ignored) with the plugin found as openMpiCommunicator()
// finds it; nccl runs one rank thread per GPU 0..N-1 on device memory
// (measureNcclAllReduce: one warm-up call). Prints, from rank 0, the median
// time per f32 all-reduce and the bus bandwidth (2 (n - 1) / n x bytes / time,
// as nccl-tests defines it).
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/Communicator.h"
#include "kiln/runtime/InProcessGroup.h"
#include "kiln/runtime/NcclCommunicator.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

using namespace kiln::rt;

namespace {

using Clock = std::chrono::steady_clock;

struct Options {
  std::string backend = "in-process";
  int ranks = 2;
  size_t bytes = 1 << 20;
  int iterations = 50, warmup = 5;
  bool fingerprints = false;
};

/// Runs the loop on one rank; rank 0's per-iteration times come back.
Status timeRank(Communicator &comm, const Options &options,
                std::vector<double> &seconds) {
  size_t count = options.bytes / 4;
  std::vector<float> send(count, float(comm.rank() + 1)), recv(count);
  for (int i = 0; i < options.warmup + options.iterations; ++i) {
    KILN_RETURN_IF_ERROR(comm.barrier());
    Clock::time_point start = Clock::now();
    KILN_RETURN_IF_ERROR(comm.allReduce(send.data(), recv.data(), count,
                                        DType::kF32, ReduceOp::kSum));
    // The slowest rank defines the time: agree on it.
    double elapsed =
        std::chrono::duration<double>(Clock::now() - start).count();
    KILN_RETURN_IF_ERROR(
        comm.allReduce(&elapsed, &elapsed, 1, DType::kF64, ReduceOp::kMax));
    if (i >= options.warmup)
      seconds.push_back(elapsed);
  }
  int n = comm.size();
  float expected = float(n) * float(n + 1) / 2;
  if (count && (recv[0] != expected || recv[count - 1] != expected))
    return internalError("wrong all-reduce result");
  return Status::ok();
}

void report(const Options &options, int ranks, std::vector<double> seconds,
            const char *backend) {
  std::sort(seconds.begin(), seconds.end());
  double median = seconds[seconds.size() / 2];
  double busBytes = 2.0 * (ranks - 1) / ranks * double(options.bytes);
  std::printf("%s: %d ranks, %zu bytes f32 all-reduce, %d iterations: "
              "median %.3f ms (min %.3f ms), busBw %.2f GB/s\n",
              backend, ranks, options.bytes, options.iterations, median * 1e3,
              seconds.front() * 1e3, busBytes / median / 1e9);
}

int fail(const Status &status) {
  std::fprintf(stderr, "kiln-comm-bench: error: %s\n",
               status.toString().c_str());
  return 1;
}

} // namespace

int main(int argc, char **argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto next = [&]() -> const char * { return i + 1 < argc ? argv[++i] : ""; };
    if (arg == "--backend")
      options.backend = next();
    else if (arg == "--ranks")
      options.ranks = std::atoi(next());
    else if (arg == "--bytes")
      options.bytes = size_t(std::atoll(next()));
    else if (arg == "--iterations")
      options.iterations = std::max(1, std::atoi(next()));
    else if (arg == "--warmup")
      options.warmup = std::max(0, std::atoi(next()));
    else if (arg == "--fingerprints")
      options.fingerprints = true;
    else {
      std::fprintf(stderr,
                   "usage: kiln-comm-bench [--backend in-process|mpi|nccl] "
                   "[--ranks N] [--bytes B] [--iterations N] [--warmup N] "
                   "[--fingerprints]\n");
      return 1;
    }
  }
  CommunicatorOptions communicatorOptions;
  communicatorOptions.checkFingerprints = options.fingerprints;
  std::vector<double> seconds;
  if (options.backend == "mpi") {
    auto world = openMpiCommunicator(communicatorOptions);
    if (!world.isOk())
      return fail(world.status());
    Status status = timeRank(**world, options, seconds);
    if (!status.isOk())
      return fail(status);
    if ((*world)->rank() == 0)
      report(options, (*world)->size(), seconds, "mpi");
    return 0;
  }
  if (options.backend == "nccl") {
    std::vector<int> devices;
    for (int d = 0; d < options.ranks; ++d)
      devices.push_back(d);
    auto measured =
        measureNcclAllReduce(devices, options.bytes, options.iterations);
    if (!measured.isOk())
      return fail(measured.status());
    std::printf("nccl: %d ranks, %zu bytes f32 all-reduce, %d iterations: "
                "median %.3f ms, busBw %.2f GB/s\n",
                measured->ranks, measured->bytes, options.iterations,
                measured->medianMs, measured->busGBps);
    return 0;
  }
  if (options.backend != "in-process")
    return fail(invalidArgument("unknown backend '" + options.backend + "'"));
  auto group = InProcessGroup::create(options.ranks, communicatorOptions);
  if (!group.isOk())
    return fail(group.status());
  std::vector<std::thread> threads;
  std::vector<Status> statuses(size_t(options.ranks));
  std::vector<std::vector<double>> times(size_t(options.ranks));
  for (int r = 0; r < options.ranks; ++r)
    threads.emplace_back([&, r] {
      statuses[size_t(r)] =
          timeRank(*(*group)[size_t(r)], options, times[size_t(r)]);
    });
  for (std::thread &thread : threads)
    thread.join();
  for (const Status &status : statuses)
    if (!status.isOk())
      return fail(status);
  report(options, options.ranks, times[0], "in-process");
  return 0;
}
