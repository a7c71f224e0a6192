//===- ArtifactListing.h - What kilnc inspect prints ------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// `kilnc inspect`: a model's or an artifact's inputs and outputs, and an
// artifact's steps, kernels, constants, memory plans and batch variants,
// one line each.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_KILNC_ARTIFACTLISTING_H
#define KILN_TOOLS_KILNC_ARTIFACTLISTING_H

#include "kiln/runtime/Artifact.h"
#include "llvm/Support/raw_ostream.h"

#include <vector>

namespace kiln::tools {

/// "  input 'x': f32[2, 3]" per tensor; a bounded axis reads "<=N", followed
/// by where its run-time length is.
void printTensors(llvm::raw_ostream &os, const char *what,
                  const std::vector<rt::TensorSpec> &specs);

/// One artifact (one rank of a ranked one), indented under its header line.
void printArtifact(llvm::raw_ostream &os, const rt::Artifact &artifact);

} // namespace kiln::tools

#endif // KILN_TOOLS_KILNC_ARTIFACTLISTING_H
