//===- MallocTuning.h - glibc malloc settings for large models -*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Compiling a model copies its weights several times (protobuf, MLIR
// attributes, packed layouts, objects, the artifact), each copy into fresh
// memory. On our VMs a page fault costs microseconds, so ResNet-50's
// 100 MB took a second in faults alone. glibc can back its heap with
// transparent huge pages and keep freed memory for reuse, but reads those
// settings (GLIBC_TUNABLES) only at start-up: `kilnc compile` starts itself
// again with them when the model is large enough for that to pay.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_KILNC_MALLOCTUNING_H
#define KILN_TOOLS_KILNC_MALLOCTUNING_H

#include <cstdint>
#include <optional>
#include <string>

namespace kiln::tools {

/// Models from this size on are worth a second start (about 80 ms).
constexpr uint64_t kTunedMallocModelBytes = 32ull << 20;

/// The GLIBC_TUNABLES value to start again with, given the current one
/// (null: unset); nullopt when the caller already tunes glibc's malloc.
std::optional<std::string> tunedMallocTunables(const char *current);

/// Whether the environment already sets one of glibc's older malloc
/// variables (MALLOC_TRIM_THRESHOLD_ and the like), which the caller chose.
bool hasMallocVariables(char **environment);

/// Starts kilnc again (same arguments) with tuned malloc settings when
/// `model` is at least kTunedMallocModelBytes, glibc's malloc is not tuned
/// by the caller and KILN_NO_MALLOC_TUNING is unset. Returns (and kilnc
/// goes on as it is) when it does not apply or the new start fails.
void restartWithTunedMalloc(char **argv, const std::string &model);

} // namespace kiln::tools

#endif // KILN_TOOLS_KILNC_MALLOCTUNING_H
