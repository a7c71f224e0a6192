//===- Arrivals.cpp - Synthetic and replayed request arrivals -------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/serving/Arrivals.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <numeric>
#include <sstream>

namespace kiln::rt::serving {

namespace {

std::uint64_t splitmix64(std::uint64_t &x) {
  std::uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::uint64_t rotl(std::uint64_t x, int k) {
  return (x << k) | (x >> (64 - k));
}

} // namespace

Rng::Rng(std::uint64_t seed) {
  for (auto &word : state_)
    word = splitmix64(seed);
}

std::uint64_t Rng::next() {
  std::uint64_t result = rotl(state_[1] * 5, 7) * 9;
  std::uint64_t t = state_[1] << 17;
  state_[2] ^= state_[0];
  state_[3] ^= state_[1];
  state_[1] ^= state_[2];
  state_[0] ^= state_[3];
  state_[2] ^= t;
  state_[3] = rotl(state_[3], 45);
  return result;
}

double Rng::uniform() {
  // 53 random bits, shifted off zero by half a step.
  return (double(next() >> 11) + 0.5) * 0x1.0p-53;
}

double Rng::normal() {
  // Marsaglia's polar method; the spare value is dropped for simplicity.
  while (true) {
    double u = 2 * uniform() - 1, v = 2 * uniform() - 1;
    double s = u * u + v * v;
    if (s > 0 && s < 1)
      return u * std::sqrt(-2 * std::log(s) / s);
  }
}

double Rng::exponential(double mean) { return -mean * std::log(uniform()); }

double Rng::gamma(double shape, double scale) {
  if (shape < 1) {
    double boost = std::pow(uniform(), 1.0 / shape);
    return gamma(shape + 1, scale) * boost;
  }
  double d = shape - 1.0 / 3.0, c = 1.0 / std::sqrt(9 * d);
  while (true) {
    double x = normal();
    double v = 1 + c * x;
    if (v <= 0)
      continue;
    v = v * v * v;
    double u = uniform();
    if (u < 1 - 0.0331 * x * x * x * x ||
        std::log(u) < 0.5 * x * x + d * (1 - v + std::log(v)))
      return d * v * scale;
  }
}

std::vector<Arrival> generateArrivals(const std::vector<ArrivalStream> &streams,
                                      const ArrivalOptions &options) {
  struct Tagged {
    Arrival arrival;
    std::size_t stream;
    std::size_t index; ///< Within its stream: a total order for std::sort.
  };
  std::vector<Tagged> all;
  for (std::size_t s = 0; s < streams.size(); ++s) {
    const ArrivalStream &stream = streams[s];
    if (stream.ratePerSecond <= 0)
      continue;
    Rng rng(options.seed * 0x100000001b3ULL + s);
    double meanGapUs = 1e6 / stream.ratePerSecond;
    double cv = std::max(options.cv, 1e-3);
    double shape = 1 / (cv * cv);
    std::vector<double> cumulative(stream.priorityShares.size());
    std::partial_sum(stream.priorityShares.begin(), stream.priorityShares.end(),
                     cumulative.begin());
    double totalShare = cumulative.empty() ? 0 : cumulative.back();
    // Start at a random phase so streams do not all fire at time 0.
    double time = rng.uniform() * meanGapUs;
    while (time < double(options.duration)) {
      Arrival arrival;
      arrival.time = Micros(time);
      arrival.model = stream.model;
      double pick = rng.uniform() * totalShare;
      arrival.priority = 0;
      while (arrival.priority + 1 < int(cumulative.size()) &&
             pick >= cumulative[arrival.priority])
        ++arrival.priority;
      all.push_back({std::move(arrival), s, all.size()});
      time += options.process == ArrivalProcess::kPoisson
                  ? rng.exponential(meanGapUs)
                  : rng.gamma(shape, meanGapUs / shape);
    }
  }
  // A total order, so std::sort is deterministic (libstdc++ 12's
  // stable_sort uses a deprecated buffer API).
  std::sort(all.begin(), all.end(), [](const Tagged &a, const Tagged &b) {
    if (a.arrival.time != b.arrival.time)
      return a.arrival.time < b.arrival.time;
    if (a.stream != b.stream)
      return a.stream < b.stream;
    return a.index < b.index;
  });
  std::vector<Arrival> arrivals;
  arrivals.reserve(all.size());
  for (auto &tagged : all)
    arrivals.push_back(std::move(tagged.arrival));
  return arrivals;
}

namespace {

std::string trim(const std::string &text) {
  auto begin = text.find_first_not_of(" \t\r");
  if (begin == std::string::npos)
    return "";
  auto end = text.find_last_not_of(" \t\r");
  return text.substr(begin, end - begin + 1);
}

bool parseNumber(const std::string &text, double &value) {
  if (text.empty())
    return false;
  char *end = nullptr;
  value = std::strtod(text.c_str(), &end);
  return *end == '\0' && std::isfinite(value);
}

} // namespace

StatusOr<std::vector<Arrival>>
parseArrivalTrace(const std::string &csv, const std::string &sourceName) {
  std::vector<Arrival> arrivals;
  std::istringstream lines(csv);
  std::string line;
  int lineNumber = 0;
  bool sawData = false;
  while (std::getline(lines, line)) {
    ++lineNumber;
    std::string content = trim(line);
    if (content.empty() || content[0] == '#')
      continue;
    auto where = [&](const std::string &what) {
      return invalidArgument(sourceName + ":" + std::to_string(lineNumber) +
                             ": " + what);
    };
    std::vector<std::string> fields;
    std::stringstream row(content);
    std::string field;
    while (std::getline(row, field, ','))
      fields.push_back(trim(field));
    if (!content.empty() && content.back() == ',')
      fields.push_back("");
    if (!sawData && !fields.empty() && fields[0] == "time_ms") {
      sawData = true; // The header, once, before any data.
      continue;
    }
    sawData = true;
    if (fields.size() < 3 || fields.size() > 4)
      return where("expected time_ms,model,priority[,slo_ms], got " +
                   std::to_string(fields.size()) + " fields");
    Arrival arrival;
    double timeMs;
    if (!parseNumber(fields[0], timeMs) || timeMs < 0)
      return where("time_ms '" + fields[0] + "' is not a non-negative number");
    arrival.time = millisToMicros(timeMs);
    if (fields[1].empty())
      return where("model name is empty");
    arrival.model = fields[1];
    double priority;
    if (!parseNumber(fields[2], priority) || priority < 0 ||
        priority != std::floor(priority) || priority > 1000)
      return where("priority '" + fields[2] +
                   "' is not a non-negative integer");
    arrival.priority = int(priority);
    if (fields.size() == 4) {
      double sloMs;
      if (!parseNumber(fields[3], sloMs) || sloMs <= 0)
        return where("slo_ms '" + fields[3] + "' is not a positive number");
      arrival.slo = millisToMicros(sloMs);
    }
    arrivals.push_back(std::move(arrival));
  }
  // Traces need not be sorted; replay them in time order, ties as written.
  std::vector<std::size_t> order(arrivals.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (arrivals[a].time != arrivals[b].time)
      return arrivals[a].time < arrivals[b].time;
    return a < b;
  });
  std::vector<Arrival> sorted;
  sorted.reserve(arrivals.size());
  for (std::size_t i : order)
    sorted.push_back(std::move(arrivals[i]));
  return sorted;
}

StatusOr<std::vector<Arrival>> readArrivalTrace(const std::string &path) {
  std::ifstream file(path, std::ios::binary);
  if (!file)
    return notFound("cannot open arrival trace '" + path + "'");
  std::stringstream text;
  text << file.rdbuf();
  return parseArrivalTrace(text.str(), path);
}

namespace {
/// Microseconds as milliseconds with three decimals, exactly.
std::string exactMillis(Micros micros) {
  char text[32];
  std::snprintf(text, sizeof text, "%lld.%03lld", (long long)(micros / 1000),
                (long long)(micros % 1000));
  return text;
}
} // namespace

std::string arrivalTraceCsv(const std::vector<Arrival> &arrivals) {
  bool anySlo = std::any_of(arrivals.begin(), arrivals.end(),
                            [](const Arrival &a) { return a.slo.has_value(); });
  std::string csv =
      anySlo ? "time_ms,model,priority,slo_ms\n" : "time_ms,model,priority\n";
  for (const Arrival &arrival : arrivals) {
    csv += exactMillis(arrival.time) + "," + arrival.model + "," +
           std::to_string(arrival.priority);
    if (arrival.slo)
      csv += "," + exactMillis(*arrival.slo);
    csv += "\n";
  }
  return csv;
}

} // namespace kiln::rt::serving
