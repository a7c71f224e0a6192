//===- Roofline.h - This machine's peak FMA rate and bandwidth --*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The two roofs a kernel is measured against: the peak fp32 FMA rate of
// this CPU's widest vectors and the memory bandwidth a streaming read
// reaches, both on a given number of threads. Measured by micro-benchmarks
// (about a second) and cached per CPU model and thread count.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_ROOFLINE_H
#define KILN_RUNTIME_ROOFLINE_H

#include <optional>
#include <string>

namespace kiln::rt {

struct MachinePeaks {
  double gflops = 0;          ///< fp32, multiply-add counted as two.
  double gbytesPerSecond = 0; ///< Streaming read of a buffer beyond caches.
  unsigned threads = 1;
  std::string vectors; ///< "avx512", "avx2+fma" or "scalar".
  bool cached = false; ///< Read from the cache, not measured now.
};

/// KILN_ROOFLINE=GFLOPS,GBPS from the environment (known peaks, a GPU's,
/// or fixed ones for tests), when set and valid.
std::optional<MachinePeaks> peaksFromEnvironment(unsigned threads);

/// Measures now (about a second of work).
MachinePeaks measurePeaks(unsigned threads);

/// KILN_ROOFLINE=GFLOPS,GBPS when set; else from the cache
/// ($XDG_CACHE_HOME/kiln or ~/.cache/kiln/roofline.txt) when this CPU
/// model and thread count are there, else measured and written to it (a
/// cache that cannot be written is only skipped). Delete the file to
/// measure again (say, on a quiet machine).
MachinePeaks machinePeaks(unsigned threads);

/// The CPU model as /proc/cpuinfo names it (the cache key).
std::string cpuModelName();

} // namespace kiln::rt

#endif // KILN_RUNTIME_ROOFLINE_H
