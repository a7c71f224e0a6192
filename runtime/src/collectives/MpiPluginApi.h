//===- MpiPluginApi.h - Between the runtime and its MPI plugin ---*- C++
//-*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// libkiln_collectives_mpi.so is built from this tree with the runtime's
// compiler, so it hands back a C++ Communicator; the version guards against
// a plugin of another build. KilnRuntime dlopens it and never links libmpi.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_COLLECTIVES_MPIPLUGINAPI_H
#define KILN_RUNTIME_COLLECTIVES_MPIPLUGINAPI_H

#include "kiln/runtime/Communicator.h"

/// Bump on any change to the entry points or to Communicator's layout.
#define KILN_MPI_PLUGIN_API_VERSION 1

extern "C" {
/// KILN_MPI_PLUGIN_API_VERSION of the plugin.
typedef int (*KilnMpiPluginVersionFn)();
/// Initialises MPI if needed and returns the world communicator (owned by
/// the caller), or null with `*error` set.
typedef kiln::rt::Communicator *(*KilnMpiPluginCreateWorldFn)(
    const kiln::rt::CommunicatorOptions *options, kiln::rt::Status *error);
}

#define KILN_MPI_PLUGIN_VERSION_SYMBOL "kiln_mpi_plugin_api_version"
#define KILN_MPI_PLUGIN_CREATE_WORLD_SYMBOL "kiln_mpi_plugin_create_world"

#endif // KILN_RUNTIME_COLLECTIVES_MPIPLUGINAPI_H
