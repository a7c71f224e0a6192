//===- NestedArtifact.h - Decoding an artifact inside an artifact -*- C++ -*-=//
//
// SPDX-License-Identifier: Apache-2.0
//
// A batch variant is a whole artifact inside the base one; it may not hold
// variants itself, which bounds the reader's recursion at one level
// whatever the file says.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_SRC_ARTIFACT_NESTEDARTIFACT_H
#define KILN_RUNTIME_SRC_ARTIFACT_NESTEDARTIFACT_H

#include "kiln/runtime/Artifact.h"

namespace kiln::rt {

/// decodeArtifact, refusing a batch-variants section instead of reading it.
StatusOr<Artifact> decodeNestedArtifact(const uint8_t *bytes, size_t size,
                                        const std::string &name);

} // namespace kiln::rt

#endif // KILN_RUNTIME_SRC_ARTIFACT_NESTEDARTIFACT_H
