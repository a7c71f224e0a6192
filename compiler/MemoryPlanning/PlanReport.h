//===- PlanReport.h - Memory plans for people and tools ---------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Renders a device's memory plan (as stored in a .kiln artifact) as the
// `kilnc inspect` summary, the `--stats-json` object and the
// `--memory-plan` SVG picture. docs/memory-planning.md shows all three.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_MEMORYPLANNING_PLANREPORT_H
#define KILN_COMPILER_MEMORYPLANNING_PLANREPORT_H

#include "kiln/runtime/Artifact.h"

#include <string>

namespace kiln::plan {

/// A few lines: figures, ratios, and the largest buffers.
std::string formatPlanSummary(const rt::MemoryPlan &plan,
                              size_t largestBuffers = 5);

/// A JSON object with `kernels`, `peak_bytes`, `lower_bound_bytes`,
/// `unplanned_bytes` (null when unknown), `unplanned_kernel_buffers_bytes`
/// and a few more (see docs/memory-planning.md).
std::string formatStatsJson(const rt::MemoryPlan &plan, uint64_t arenaBytes);

/// An SVG picture: one rectangle per buffer, x = execution step, y = arena
/// offset (0 at the bottom), labelled with the producing op.
std::string renderPlanSvg(const rt::MemoryPlan &plan, const std::string &title);

/// The label of a buffer: its op's source location, else the op's name.
std::string bufferLabel(const rt::PlannedBuffer &buffer);

} // namespace kiln::plan

#endif // KILN_COMPILER_MEMORYPLANNING_PLANREPORT_H
