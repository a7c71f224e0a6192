//===- RaplEnergy.h - CPU package energy from the powercap interface -*- C++ -*-//
//
// SPDX-License-Identifier: Apache-2.0
//
// Linux exposes the CPU's running energy counters (Intel RAPL, and AMD's
// equivalent through the same interface) as
// /sys/class/powercap/intel-rapl:N/energy_uj, one per package, wrapping at
// max_energy_range_uj. This reads them as joules since the meter was made,
// counting wrap-arounds. Many virtual machines and unprivileged containers
// have no such files, or make them readable by root only: then the meter
// is unavailable and the server reports no energy (never a made-up one).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_SERVING_RAPLENERGY_H
#define KILN_RUNTIME_SERVING_RAPLENERGY_H

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace kiln::rt::serving {

/// Thread-safe.
class RaplEnergy {
public:
  /// Finds the package domains under `root` (the powercap folder).
  explicit RaplEnergy(std::string root = "/sys/class/powercap");

  /// True when at least one package counter could be read.
  bool available() const { return !domains_.empty(); }
  /// Package names, e.g. "package-0".
  std::vector<std::string> domainNames() const;
  /// Joules used by every package since construction; nothing when the
  /// counters cannot be read.
  std::optional<double> joules();

private:
  struct Domain {
    std::string name;
    std::string counterPath;
    std::uint64_t range = 0; ///< Microjoules at which the counter wraps.
    std::uint64_t last = 0;
    std::uint64_t total = 0; ///< Microjoules since construction.
  };
  mutable std::mutex mutex_;
  std::vector<Domain> domains_;
};

} // namespace kiln::rt::serving

#endif // KILN_RUNTIME_SERVING_RAPLENERGY_H
