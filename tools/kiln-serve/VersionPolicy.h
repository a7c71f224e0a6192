//===- VersionPolicy.h - Which versions of a model are served ---*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Triton's version policies for a model in folders NAME/V/: the latest N
// versions, all of them, or specific ones. Under the default, latest 1,
// the model is one pool model named NAME that rolls forward in place when
// a newer version appears. Under any other policy every served version is
// a pool model of its own, named NAME/V ('/' is not a model-name
// character), with its own replicas, figures and readiness; a request
// without /versions/V goes to the highest ready one.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_KILN_SERVE_VERSIONPOLICY_H
#define KILN_TOOLS_KILN_SERVE_VERSIONPOLICY_H

#include "kiln/runtime/Status.h"

#include <string>
#include <vector>

namespace kiln::serve {

struct VersionPolicy {
  enum class Kind { kLatest, kAll, kSpecific };
  Kind kind = Kind::kLatest;
  int latest = 1;            ///< kLatest: how many.
  std::vector<int> specific; ///< kSpecific: ascending, distinct.

  /// `latest`, `latest:N`, `all` or `specific:V[,V...]`; INVALID_ARGUMENT
  /// naming what is wrong otherwise.
  static rt::StatusOr<VersionPolicy> parse(const std::string &text);
  /// Back to the text parse() reads.
  std::string str() const;
  /// Latest 1: one pool model that rolls forward (see above).
  bool rolling() const { return kind == Kind::kLatest && latest == 1; }
  /// The versions served out of `available` (ascending), ascending.
  std::vector<int> select(const std::vector<int> &available) const;
};

/// A pool model's name split into the model and its version: "NAME" is a
/// rolling model (version 0: whichever is served), "NAME/V" version V.
struct ServedName {
  std::string model;
  int version = 0;

  static ServedName parse(const std::string &poolName);
  std::string poolName() const;
  /// "model 'NAME'" or "model 'NAME' version V", for messages.
  std::string describe() const;
};

} // namespace kiln::serve

#endif // KILN_TOOLS_KILN_SERVE_VERSIONPOLICY_H
