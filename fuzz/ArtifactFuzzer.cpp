//===- ArtifactFuzzer.cpp - libFuzzer harness for the artifact loader ------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Any bytes: decodeArtifact accepts a valid artifact or reports an error;
// it never crashes, never reads outside the buffer (ASan), and what it
// accepts encodes back to an artifact it accepts again.
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/Artifact.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  kiln::rt::StatusOr<kiln::rt::Artifact> artifact =
      kiln::rt::decodeArtifact(data, size, "fuzz.kiln");
  if (!artifact.isOk())
    return 0;
  std::vector<uint8_t> encoded = kiln::rt::encodeArtifact(*artifact);
  if (!kiln::rt::decodeArtifact(encoded.data(), encoded.size(), "again.kiln")
           .isOk())
    std::abort();
  return 0;
}
