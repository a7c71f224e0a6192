//===- VersionPolicy.cpp - Which versions of a model are served -----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "VersionPolicy.h"

#include "ModelRepository.h"

#include <algorithm>

namespace kiln::serve {

/// A version number as version folders are named; 0 otherwise.
static int versionNumber(const std::string &text) {
  return ModelRepository::positiveNumber(text, 9);
}

rt::StatusOr<VersionPolicy> VersionPolicy::parse(const std::string &text) {
  auto bad = [&](const std::string &why) {
    return rt::invalidArgument("version policy '" + text + "': " + why +
                               " (expected latest, latest:N, all or "
                               "specific:V[,V...])");
  };
  VersionPolicy policy;
  size_t colon = text.find(':');
  std::string kind = text.substr(0, colon);
  std::string rest = colon == std::string::npos ? "" : text.substr(colon + 1);
  if (kind == "all") {
    if (colon != std::string::npos)
      return bad("'all' takes no versions");
    policy.kind = Kind::kAll;
    return policy;
  }
  if (kind == "latest") {
    policy.kind = Kind::kLatest;
    if (colon == std::string::npos)
      return policy;
    policy.latest = versionNumber(rest);
    if (policy.latest == 0)
      return bad("'" + rest + "' is not a positive count");
    return policy;
  }
  if (kind == "specific") {
    policy.kind = Kind::kSpecific;
    size_t start = 0;
    while (colon != std::string::npos && start <= rest.size()) {
      size_t comma = rest.find(',', start);
      std::string one =
          rest.substr(start, comma == std::string::npos ? std::string::npos
                                                        : comma - start);
      int version = versionNumber(one);
      if (version == 0)
        return bad("'" + one + "' is not a version number");
      policy.specific.push_back(version);
      if (comma == std::string::npos)
        break;
      start = comma + 1;
    }
    if (policy.specific.empty())
      return bad("'specific' needs at least one version");
    std::sort(policy.specific.begin(), policy.specific.end());
    policy.specific.erase(
        std::unique(policy.specific.begin(), policy.specific.end()),
        policy.specific.end());
    return policy;
  }
  return bad("unknown policy '" + kind + "'");
}

std::string VersionPolicy::str() const {
  switch (kind) {
  case Kind::kAll:
    return "all";
  case Kind::kLatest:
    return latest == 1 ? "latest" : "latest:" + std::to_string(latest);
  case Kind::kSpecific: {
    std::string out = "specific:";
    for (size_t i = 0; i < specific.size(); ++i)
      out += (i ? "," : "") + std::to_string(specific[i]);
    return out;
  }
  }
  return "latest";
}

std::vector<int>
VersionPolicy::select(const std::vector<int> &available) const {
  switch (kind) {
  case Kind::kAll:
    return available;
  case Kind::kLatest:
    return std::vector<int>(available.end() -
                                std::min<ptrdiff_t>(latest, available.size()),
                            available.end());
  case Kind::kSpecific: {
    std::vector<int> chosen;
    for (int version : available)
      if (std::binary_search(specific.begin(), specific.end(), version))
        chosen.push_back(version);
    return chosen;
  }
  }
  return {};
}

ServedName ServedName::parse(const std::string &poolName) {
  ServedName name;
  size_t slash = poolName.rfind('/');
  if (slash == std::string::npos) {
    name.model = poolName;
    return name;
  }
  name.model = poolName.substr(0, slash);
  name.version = versionNumber(poolName.substr(slash + 1));
  return name;
}

std::string ServedName::poolName() const {
  return version == 0 ? model : model + "/" + std::to_string(version);
}

std::string ServedName::describe() const {
  return "model '" + model + "'" +
         (version == 0 ? "" : " version " + std::to_string(version));
}

} // namespace kiln::serve
