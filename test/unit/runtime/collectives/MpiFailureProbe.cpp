//===- MpiFailureProbe.cpp - A rank that fails, under mpirun --------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//   MpiFailureProbe exit RANK CODE      rank RANK exits with CODE at the
//                                        second all-reduce
//   MpiFailureProbe sleep RANK MS TIMEOUT_MS
//                                        rank RANK sleeps MS before it; the
//                                        others time out after TIMEOUT_MS,
//                                        print the status and abort
//
// run-mpi-failure.sh checks the job's exit code, time and output.
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/Communicator.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

using namespace kiln::rt;

int main(int argc, char **argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: %s exit RANK CODE | sleep RANK MS TIMEOUT\n",
                 argv[0]);
    return 1;
  }
  std::string mode = argv[1];
  int target = std::atoi(argv[2]);
  CommunicatorOptions options;
  options.checkFingerprints = true;
  options.timeout = std::chrono::milliseconds(
      mode == "sleep" && argc > 4 ? std::atoi(argv[4]) : 30000);
  auto opened = openMpiCommunicator(options, KILN_MPI_PLUGIN_PATH);
  if (!opened.isOk()) {
    std::fprintf(stderr, "%s\n", opened.status().toString().c_str());
    return 1;
  }
  Communicator &comm = **opened;
  for (int i = 0; i < 3; ++i) {
    if (comm.rank() == target && i == 1) {
      if (mode == "exit") {
        std::fprintf(stderr, "rank %d: exiting with %s\n", target, argv[3]);
        std::_Exit(std::atoi(argv[3]));
      }
      std::this_thread::sleep_for(
          std::chrono::milliseconds(std::atoi(argv[3])));
    }
    float value = 1.0f;
    Status status =
        comm.allReduce(&value, &value, 1, DType::kF32, ReduceOp::kSum);
    if (!status.isOk()) {
      std::fprintf(stderr, "rank %d: %s\n", comm.rank(),
                   status.toString().c_str());
      comm.abort();
    }
  }
  return 0;
}
