//===- ArtifactFuzzer.cpp - libFuzzer harness for the artifact loader ------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Any bytes: decodeArtifact (decodeRankedArtifact for a ranked container)
// accepts a valid artifact or reports an error;
// it never crashes, never reads outside the buffer (ASan), and what it
// accepts encodes back to an artifact it accepts again.
//
// Raw mutations mostly stop at the CRC-32 checksums, so a custom mutator
// also decodes the input, changes one field of its program (a step's kind,
// grid, bindings, dependencies, debug information; a tensor's shape; the
// arena) and encodes it again with valid checksums: the decoder's checks
// behind the checksums get exercised too.
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/Artifact.h"
#include "kiln/runtime/RankedArtifact.h"

#include <cstdlib>
#include <cstring>
#include <random>

extern "C" size_t LLVMFuzzerMutate(uint8_t *data, size_t size,
                                   size_t maxSize);

namespace {
using namespace kiln::rt;

uint64_t interesting(std::mt19937_64 &rng) {
  static const uint64_t values[] = {0,          1,          2,
                                    3,          7,          64,
                                    4096,       0x7fffffff, 0xffffffff,
                                    1ull << 32, 1ull << 62, ~0ull};
  return rng() % 2 ? values[rng() % (sizeof values / sizeof *values)]
                   : rng() % 1024;
}

void mutateArg(KernelArg &arg, std::mt19937_64 &rng) {
  switch (rng() % 5) {
  case 0:
    arg.base = KernelArg::Base(rng() % 6);
    break;
  case 1:
    arg.index = uint32_t(interesting(rng));
    break;
  case 2:
    arg.offset = interesting(rng);
    break;
  case 3:
    arg.bytes = interesting(rng);
    break;
  default:
    arg.access = KernelArg::Access(rng() % 5);
    break;
  }
}

/// Changes one field of `artifact`'s program.
void mutateProgram(Artifact &artifact, std::mt19937_64 &rng) {
  Program &program = artifact.program;
  if (program.devices.empty() || rng() % 8 == 0) {
    std::vector<TensorSpec> &tensors =
        rng() % 2 ? program.inputs : program.outputs;
    if (tensors.empty())
      return;
    TensorSpec &tensor = tensors[rng() % tensors.size()];
    if (rng() % 2 && !tensor.shape.empty())
      tensor.shape[rng() % tensor.shape.size()] = int64_t(interesting(rng));
    else
      tensor.dtype = DType(rng() % 12);
    return;
  }
  DeviceProgram &device = program.devices[rng() % program.devices.size()];
  if (device.steps.empty() || rng() % 10 == 0) {
    device.arenaBytes = interesting(rng);
    return;
  }
  Step &step = device.steps[rng() % device.steps.size()];
  switch (rng() % 9) {
  case 0:
    step.kind = Step::Kind(rng() % 8);
    break;
  case 1:
    step.grid[rng() % 3] = uint32_t(interesting(rng));
    break;
  case 2:
    step.block[rng() % 3] = uint32_t(interesting(rng));
    break;
  case 3:
    if (!step.args.empty())
      mutateArg(step.args[rng() % step.args.size()], rng);
    break;
  case 4:
    step.after.push_back(uint32_t(interesting(rng)));
    break;
  case 5:
    step.kernel = rng() % 2 ? std::string() : std::string(rng() % 300, 'k');
    break;
  case 6:
    if (!step.results.empty())
      mutateArg(step.results[rng() % step.results.size()].range, rng);
    else if (!step.args.empty())
      step.results.push_back({step.args[0], DType(rng() % 12)});
    break;
  case 7:
    step.flops = interesting(rng);
    break;
  default:
    step.sharedBytes = uint32_t(interesting(rng));
    break;
  }
}
} // namespace

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size,
                                          size_t maxSize, unsigned seed) {
  std::mt19937_64 rng(seed);
  StatusOr<Artifact> artifact = decodeArtifact(data, size, "mutate.kiln");
  if (!artifact.isOk() || rng() % 4 == 0)
    return LLVMFuzzerMutate(data, size, maxSize);
  mutateProgram(*artifact, rng);
  std::vector<uint8_t> encoded = encodeArtifact(*artifact);
  if (encoded.size() > maxSize)
    return LLVMFuzzerMutate(data, size, maxSize);
  std::memcpy(data, encoded.data(), encoded.size());
  return encoded.size();
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // Sharded models' containers (one artifact per rank) take the same
  // guarantees.
  if (isRankedArtifact(data, size)) {
    StatusOr<RankedArtifact> ranked =
        decodeRankedArtifact(data, size, "fuzz.kiln");
    if (!ranked.isOk())
      return 0;
    std::vector<uint8_t> encoded = encodeRankedArtifact(*ranked);
    if (!decodeRankedArtifact(encoded.data(), encoded.size(), "again.kiln")
             .isOk())
      std::abort();
    return 0;
  }
  StatusOr<Artifact> artifact = decodeArtifact(data, size, "fuzz.kiln");
  if (!artifact.isOk())
    return 0;
  std::vector<uint8_t> encoded = encodeArtifact(*artifact);
  if (!decodeArtifact(encoded.data(), encoded.size(), "again.kiln").isOk())
    std::abort();
  return 0;
}
