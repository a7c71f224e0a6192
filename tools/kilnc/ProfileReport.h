//===- ProfileReport.h - Step timings as tables, traces, rooflines -*- C++
//-*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// What `kilnc profile` prints and writes, from a program's steps (their
// kernels, bindings and debug information), the slices a StepProfiler
// recorded and this machine's peaks. Runtime types only: no MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_KILNC_PROFILEREPORT_H
#define KILN_TOOLS_KILNC_PROFILEREPORT_H

#include "kiln/runtime/Artifact.h"
#include "kiln/runtime/Roofline.h"
#include "kiln/runtime/StepProfiler.h"

#include <string>
#include <vector>

namespace kiln::tools {

/// One step over every profiled run.
struct StepProfile {
  uint32_t step = 0;
  std::string kernel;
  std::string source;
  uint64_t flops = 0;
  /// Bytes its bindings name, each read and each write counted once.
  uint64_t bytes = 0;
  double medianMs = 0;
  double meanMs = 0;
  double gflops = 0;          ///< flops / median time.
  double gbytesPerSecond = 0; ///< bytes / median time.
  /// Achieved over attainable: min(peak FMA rate, intensity x bandwidth).
  double roofFraction = 0;
};

struct ProfileSummary {
  std::vector<StepProfile> steps; ///< Slowest first.
  unsigned runs = 0;
  double medianRunMs = 0;
  double meanRunMs = 0;
  double stepSumMs = 0;     ///< Sum of the steps' medians.
  double stepMeanSumMs = 0; ///< Sum of their means: the mean run's steps.
  rt::MachinePeaks peaks;
};

ProfileSummary summarize(const rt::DeviceProgram &program,
                         const std::vector<rt::ProfileSlice> &slices,
                         const rt::MachinePeaks &peaks);

/// The `top` slowest steps as a table, then the totals.
std::string formatProfileTable(const ProfileSummary &summary, size_t top);

/// Chrome/Perfetto trace-event JSON: a host track with one slice per run,
/// a device track per thread with one slice per step.
std::string formatTrace(const rt::DeviceProgram &program,
                        const std::vector<rt::ProfileSlice> &slices);

/// A roofline chart: the two roofs and one point per step.
std::string formatRooflineSvg(const ProfileSummary &summary);

} // namespace kiln::tools

#endif // KILN_TOOLS_KILNC_PROFILEREPORT_H
