//===- RaplEnergy.cpp - CPU package energy from the powercap interface ----===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/serving/RaplEnergy.h"

#include <dirent.h>

#include <algorithm>
#include <fstream>

namespace kiln::rt::serving {

static std::optional<std::uint64_t> readNumber(const std::string &path) {
  std::ifstream file(path);
  std::uint64_t value = 0;
  if (!(file >> value))
    return std::nullopt;
  return value;
}

static std::string readLine(const std::string &path) {
  std::ifstream file(path);
  std::string line;
  std::getline(file, line);
  return line;
}

RaplEnergy::RaplEnergy(std::string root) {
  DIR *dir = opendir(root.c_str());
  if (!dir)
    return;
  std::vector<std::string> entries;
  while (dirent *entry = readdir(dir))
    entries.push_back(entry->d_name);
  closedir(dir);
  std::sort(entries.begin(), entries.end());
  for (const std::string &entry : entries) {
    // Top-level domains only ("intel-rapl:0"); "intel-rapl:0:0" (cores,
    // uncore, DRAM) are parts of a package and would count twice.
    if (entry.rfind("intel-rapl:", 0) != 0 ||
        entry.find(':', 11) != std::string::npos)
      continue;
    std::string folder = root + "/" + entry;
    Domain domain;
    domain.name = readLine(folder + "/name");
    if (domain.name.empty())
      domain.name = entry;
    domain.counterPath = folder + "/energy_uj";
    std::optional<std::uint64_t> now = readNumber(domain.counterPath);
    std::optional<std::uint64_t> range =
        readNumber(folder + "/max_energy_range_uj");
    if (!now || !range || *range == 0)
      continue;
    domain.range = *range;
    domain.last = *now;
    domains_.push_back(domain);
  }
}

std::vector<std::string> RaplEnergy::domainNames() const {
  std::vector<std::string> names;
  for (const Domain &domain : domains_)
    names.push_back(domain.name);
  return names;
}

std::optional<double> RaplEnergy::joules() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (domains_.empty())
    return std::nullopt;
  std::uint64_t total = 0;
  for (Domain &domain : domains_) {
    std::optional<std::uint64_t> now = readNumber(domain.counterPath);
    if (!now)
      return std::nullopt;
    // The counter wraps at its range; read often enough (the range is
    // minutes of full power), one wrap between reads is all there can be.
    domain.total += *now >= domain.last ? *now - domain.last
                                        : domain.range - domain.last + *now;
    domain.last = *now;
    total += domain.total;
  }
  return double(total) / 1e6;
}

} // namespace kiln::rt::serving
