//===- MpiPlugin.cpp - Entry points of libkiln_collectives_mpi.so ---------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "../MpiPluginApi.h"
#include "MpiCommunicator.h"

using namespace kiln::rt;

extern "C" __attribute__((visibility("default"))) int
kiln_mpi_plugin_api_version() {
  return KILN_MPI_PLUGIN_API_VERSION;
}

extern "C" __attribute__((visibility("default"))) Communicator *
kiln_mpi_plugin_create_world(const CommunicatorOptions *options,
                             Status *error) {
  auto session = std::make_shared<MpiSession>();
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) {
    int provided = 0;
    if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_MULTIPLE, &provided) !=
        MPI_SUCCESS) {
      *error = Status(StatusCode::kUnavailable, "MPI_Init_thread failed");
      return nullptr;
    }
    session->initializedHere = true;
    // Each communicator is used by one thread at a time, but abort() may
    // come from another: SERIALIZED is the least that works.
    if (provided < MPI_THREAD_SERIALIZED) {
      *error = Status(StatusCode::kUnavailable,
                      "MPI provides thread level " + std::to_string(provided) +
                          ", the runtime needs MPI_THREAD_SERIALIZED");
      return nullptr;
    }
  }
  return new MpiCommunicator(session, MPI_COMM_WORLD, *options);
}
