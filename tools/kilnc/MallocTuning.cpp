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

extern char **environ;

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

bool hasMallocVariables(char **environment) {
  for (char **variable = environment; variable && *variable; ++variable) {
    const char *equals = std::strchr(*variable, '=');
    if (std::strncmp(*variable, "MALLOC_", 7) == 0 && equals &&
        equals > *variable && equals[-1] == '_')
      return true;
  }
  return false;
}

void restartWithTunedMalloc(char **argv, const std::string &model) {
#if defined(__linux__) && defined(__GLIBC__)
  if (std::getenv(kRestartedVariable) || std::getenv("KILN_NO_MALLOC_TUNING") ||
      hasMallocVariables(environ))
    return;
  struct stat file;
  if (model.empty() || stat(model.c_str(), &file) != 0 ||
      static_cast<uint64_t>(file.st_size) < kTunedMallocModelBytes)
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
  (void)argv;
  (void)model;
#endif
}

} // namespace kiln::tools
