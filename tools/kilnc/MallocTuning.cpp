//===- MallocTuning.cpp - glibc malloc settings for large models ----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "MallocTuning.h"

#include <cstdlib>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>

namespace kiln::tools {

namespace {
/// Huge pages for the heap and large chunks (madvise); chunks below 32 MiB
/// from the heap, not each its own mapping; freed memory kept (up to
/// 1 GiB) and the heap grown 64 MiB at a time, so that the next copy
/// reuses pages already faulted in.
constexpr const char *kTunables =
    "glibc.malloc.hugetlb=1:glibc.malloc.mmap_threshold=33554432:"
    "glibc.malloc.trim_threshold=1073741824:glibc.malloc.top_pad=67108864";

/// Set in the restarted process: never restart twice.
constexpr const char *kRestartedVariable = "KILN_MALLOC_TUNED";
} // namespace

std::optional<std::string> tunedMallocTunables(const char *current) {
  if (!current || !*current)
    return std::string(kTunables);
  if (std::strstr(current, "glibc.malloc."))
    return std::nullopt;
  return std::string(current) + ":" + kTunables;
}

std::string modelArgument(int argc, char **argv) {
  for (int i = 2; i < argc; ++i) {
    std::string argument = argv[i];
    // The output file, not the model (every other option kilnc has with a
    // file value is spelled NAME=VALUE or names a folder).
    if (argument == "-o" || argument == "--o") {
      ++i;
      continue;
    }
    if (argument[0] != '-')
      return argument;
  }
  return "";
}

void restartWithTunedMalloc(int argc, char **argv) {
#if defined(__linux__) && defined(__GLIBC__)
  if (argc < 2 || std::getenv(kRestartedVariable) ||
      std::getenv("KILN_NO_MALLOC_TUNING"))
    return;
  std::string command = argv[1];
  if (command != "compile" && command != "run" && command != "bench" &&
      command != "profile")
    return;
  struct stat model;
  std::string path = modelArgument(argc, argv);
  if (path.empty() || stat(path.c_str(), &model) != 0 ||
      static_cast<uint64_t>(model.st_size) < kTunedMallocModelBytes)
    return;
  const char *current = std::getenv("GLIBC_TUNABLES");
  std::optional<std::string> tunables = tunedMallocTunables(current);
  if (!tunables)
    return;
  std::optional<std::string> previous;
  if (current)
    previous = current;
  setenv("GLIBC_TUNABLES", tunables->c_str(), 1);
  setenv(kRestartedVariable, "1", 1);
  execv("/proc/self/exe", argv);
  // Not restarted: go on untuned, with the environment as it was.
  if (previous)
    setenv("GLIBC_TUNABLES", previous->c_str(), 1);
  else
    unsetenv("GLIBC_TUNABLES");
  unsetenv(kRestartedVariable);
#else
  (void)argc;
  (void)argv;
#endif
}

} // namespace kiln::tools
