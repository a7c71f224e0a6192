//===- StatsJson.h - kilnc compile --stats-json -----------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// What `kilnc compile --stats-json` writes, read back from the artifact: the
// memory plan's figures and the arithmetic of one run; for a sharded
// artifact, per rank with the collectives it runs, and for a pipeline the
// bytes each stage sends and the bubble its stages' arithmetic predicts.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_KILNC_STATSJSON_H
#define KILN_TOOLS_KILNC_STATSJSON_H

#include "kiln/runtime/RankedArtifact.h"

#include <string>

namespace kiln::tools {

/// The plan of the artifact's first device, or an error (older artifacts
/// have none).
rt::StatusOr<rt::MemoryPlan> firstPlan(const rt::Artifact &artifact);

/// The JSON of a plain artifact (one rank) or of a sharded one.
rt::StatusOr<std::string> statsJson(const rt::RankedArtifact &ranked);

} // namespace kiln::tools

#endif // KILN_TOOLS_KILNC_STATSJSON_H
