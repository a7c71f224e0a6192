//===- ModelConfig.h - A model folder's config.pbtxt -------------*- C++
//-*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Triton reads a model's settings from NAME/config.pbtxt. kiln-serve acts
// on its version_policy (VersionPolicy.h) and checks its name; the other
// fields (platform, inputs, instance groups, ...) are Triton's and are
// left alone, so a Triton repository's files can stay as they are.
//
//   version_policy: { latest: { num_versions: 2 } }
//   version_policy: { all: {} }
//   version_policy: { specific: { versions: [1, 3] } }
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_KILN_SERVE_MODELCONFIG_H
#define KILN_TOOLS_KILN_SERVE_MODELCONFIG_H

#include "VersionPolicy.h"

#include "kiln/runtime/Status.h"

#include <optional>
#include <string>

namespace kiln::serve {

struct ModelConfig {
  /// Absent: the server's --version-policy.
  std::optional<VersionPolicy> versionPolicy;
};

/// Reads `text`, model `model`'s config.pbtxt (`source` names it in
/// errors): INVALID_ARGUMENT "SOURCE:LINE:COLUMN: what" for text that is
/// not protobuf's text format, a version_policy that is not one of the
/// three forms above, or a name other than the model's folder.
rt::StatusOr<ModelConfig> parseModelConfig(const std::string &text,
                                           const std::string &model,
                                           const std::string &source);

} // namespace kiln::serve

#endif // KILN_TOOLS_KILN_SERVE_MODELCONFIG_H
