//===- MpiLoader.cpp - Open the MPI communicator plugin -------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The plugin stays loaded for the life of the process: MPI cannot be
// initialised twice, and communicators from it may outlive any handle.
//
//===----------------------------------------------------------------------===//

#include "MpiPluginApi.h"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>
#include <limits.h>
#include <vector>

namespace kiln::rt {

namespace {
std::string programDirectory() {
  char path[PATH_MAX];
  ssize_t length = readlink("/proc/self/exe", path, sizeof(path) - 1);
  if (length <= 0)
    return "";
  std::string program(path, size_t(length));
  size_t slash = program.rfind('/');
  return slash == std::string::npos ? "" : program.substr(0, slash);
}

std::vector<std::string> candidates(const std::string &pluginPath) {
  if (!pluginPath.empty())
    return {pluginPath};
  if (const char *fromEnvironment = std::getenv("KILN_MPI_PLUGIN");
      fromEnvironment && *fromEnvironment)
    return {fromEnvironment};
  std::vector<std::string> paths;
  std::string directory = programDirectory();
  if (!directory.empty()) {
    paths.push_back(directory + "/" + kMpiPluginName);
    paths.push_back(directory + "/../lib/" + kMpiPluginName);
  }
  paths.push_back(kMpiPluginName);
  return paths;
}
} // namespace

StatusOr<std::unique_ptr<Communicator>>
openMpiCommunicator(const CommunicatorOptions &options,
                    const std::string &pluginPath) {
  if (options.timeout.count() <= 0)
    return invalidArgument("a communicator needs a positive timeout");
  void *handle = nullptr;
  std::string errors;
  for (const std::string &path : candidates(pluginPath)) {
    // Global: Open MPI's own components resolve libmpi's symbols.
    handle = dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
    if (handle)
      break;
    const char *error = dlerror();
    errors += std::string("\n  ") + (error ? error : path.c_str());
  }
  if (!handle)
    return Status(StatusCode::kUnavailable,
                  std::string("cannot load the MPI communicator plugin ") +
                      kMpiPluginName + " (build with MPI, or set " +
                      "KILN_MPI_PLUGIN):" + errors);
  auto version = reinterpret_cast<KilnMpiPluginVersionFn>(
      dlsym(handle, KILN_MPI_PLUGIN_VERSION_SYMBOL));
  auto createWorld = reinterpret_cast<KilnMpiPluginCreateWorldFn>(
      dlsym(handle, KILN_MPI_PLUGIN_CREATE_WORLD_SYMBOL));
  if (!version || !createWorld)
    return Status(StatusCode::kFailedPrecondition,
                  "the MPI plugin lacks its entry points");
  if (version() != KILN_MPI_PLUGIN_API_VERSION)
    return Status(StatusCode::kFailedPrecondition,
                  "the MPI plugin has API version " +
                      std::to_string(version()) + ", this runtime needs " +
                      std::to_string(KILN_MPI_PLUGIN_API_VERSION));
  Status error;
  Communicator *world = createWorld(&options, &error);
  if (!world)
    return error.isOk() ? internalError("the MPI plugin made no communicator")
                        : error;
  return std::unique_ptr<Communicator>(world);
}

} // namespace kiln::rt
