//===- Arrivals.h - Synthetic and replayed request arrivals -----*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Open-loop load: Poisson, bursty Gamma (shape 1/CV^2, as AlpaServe scales
// burstiness independently of rate) and replay of recorded arrival times.
// Everything is drawn from a seeded generator of our own, so a seed gives
// the same arrivals with every standard library.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_SERVING_ARRIVALS_H
#define KILN_RUNTIME_SERVING_ARRIVALS_H

#include "kiln/runtime/Status.h"
#include "kiln/runtime/serving/Clock.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kiln::rt::serving {

/// A small deterministic random source (xoshiro256** seeded by splitmix64).
/// Thread-compatible.
class Rng {
public:
  explicit Rng(std::uint64_t seed);
  std::uint64_t next();
  /// Uniform in (0, 1): never exactly 0, so logs stay finite.
  double uniform();
  double normal();
  double exponential(double mean);
  /// Gamma(shape, scale) by Marsaglia and Tsang (2000); shape < 1 through
  /// Gamma(shape + 1) * U^(1/shape).
  double gamma(double shape, double scale);

private:
  std::uint64_t state_[4];
};

struct Arrival {
  Micros time = 0;
  std::string model;
  int priority = 0;
  /// Time allowed from arrival to response, when the source states one.
  std::optional<Micros> slo;
};

/// One model's share of the load.
struct ArrivalStream {
  std::string model;
  double ratePerSecond = 0;
  /// Fraction of requests at each priority level (normalised).
  std::vector<double> priorityShares = {1.0};
};

enum class ArrivalProcess { kPoisson, kGamma };

struct ArrivalOptions {
  ArrivalProcess process = ArrivalProcess::kPoisson;
  /// Coefficient of variation of inter-arrival times (Gamma only); 1 is
  /// Poisson-like, 4 is bursty.
  double cv = 1.0;
  std::uint64_t seed = 1;
  Micros duration = 0;
};

/// Arrivals of every stream over [0, duration), merged in time order (ties
/// by stream order). Each stream draws from its own generator, so adding a
/// model leaves the others' arrivals unchanged.
std::vector<Arrival> generateArrivals(const std::vector<ArrivalStream> &streams,
                                      const ArrivalOptions &options);

/// Parses a trace: one arrival per line, `time_ms,model,priority[,slo_ms]`;
/// an optional header line starting with `time_ms`, blank lines and `#`
/// comments are skipped. Errors name `sourceName:line`.
StatusOr<std::vector<Arrival>> parseArrivalTrace(const std::string &csv,
                                                 const std::string &sourceName);
/// Reads and parses a trace file.
StatusOr<std::vector<Arrival>> readArrivalTrace(const std::string &path);

/// `arrivals` as a trace parseArrivalTrace reads back exactly: a header,
/// then `time_ms,model,priority[,slo_ms]` with times to the microsecond.
std::string arrivalTraceCsv(const std::vector<Arrival> &arrivals);

} // namespace kiln::rt::serving

#endif // KILN_RUNTIME_SERVING_ARRIVALS_H
