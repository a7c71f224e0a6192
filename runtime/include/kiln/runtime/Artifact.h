//===- Artifact.h - The .kiln artifact container ----------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// A compiled model on disk. Little-endian throughout (docs/artifact-format.md
// is the specification):
//
//   header   64 bytes: magic "KILNART\0", format version, header size,
//            section count, flags, file size, header CRC-32
//   table    section count x 32 bytes: kind, offset, size, CRC-32
//   sections 16-byte aligned, non-overlapping, inside the file
//
// Sections: the target description, the program (entry signature and the
// steps of each device), and the kernels (a shared object for the CPU).
// Readers validate everything before returning a view; a truncated or
// corrupted file is an error, never a crash.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_ARTIFACT_H
#define KILN_RUNTIME_ARTIFACT_H

#include "kiln/runtime/DType.h"
#include "kiln/runtime/Status.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kiln::rt {

inline constexpr char kArtifactMagic[8] = {'K', 'I', 'L', 'N',
                                           'A', 'R', 'T', '\0'};
inline constexpr uint32_t kArtifactFormatVersion = 1;

/// Section kinds. Values are part of the format: never renumber.
enum class SectionKind : uint32_t {
  kTarget = 1,  ///< UTF-8 target description, e.g. "cpu x86_64 sapphirerapids".
  kProgram = 2, ///< Encoded Program (see below).
  kCpuKernels = 3, ///< ELF shared object with the CPU kernels.
};

/// A tensor crossing the model boundary.
struct TensorSpec {
  std::string name;
  DType dtype = DType::kF32;
  std::vector<int64_t> shape;
};

/// One step of a device program. Today the only step calls a kernel
/// (symbol in the kernels section) on the model's inputs and outputs;
/// collectives and buffer-plan steps join later without a format break
/// (unknown step kinds are rejected).
struct Step {
  enum class Kind : uint32_t { kCallKernel = 1 };
  Kind kind = Kind::kCallKernel;
  std::string kernel;
};

/// The program of one device.
struct DeviceProgram {
  enum class Kind : uint32_t { kCpu = 1 };
  Kind kind = Kind::kCpu;
  /// Bytes of working memory (intermediate buffers) the device's kernels
  /// share; the runtime allocates it once per loaded executable.
  uint64_t arenaBytes = 0;
  std::vector<Step> steps;
};

/// What the runtime executes: the model's interface and a program per
/// device.
struct Program {
  std::vector<TensorSpec> inputs;
  std::vector<TensorSpec> outputs;
  std::vector<DeviceProgram> devices;
};

/// An artifact's contents, decoded and validated.
struct Artifact {
  std::string target;
  Program program;
  std::vector<uint8_t> cpuKernels;
};

/// Serialises `artifact` into the container format.
std::vector<uint8_t> encodeArtifact(const Artifact &artifact);

/// Validates and decodes an artifact; `name` is used in messages.
StatusOr<Artifact> decodeArtifact(const uint8_t *bytes, size_t size,
                                  const std::string &name);

/// Reads and decodes the artifact at `path`.
StatusOr<Artifact> readArtifactFile(const std::string &path);

/// Writes `artifact` to `path`.
Status writeArtifactFile(const std::string &path, const Artifact &artifact);

/// CRC-32 (IEEE 802.3, as zlib computes it).
uint32_t crc32(const uint8_t *bytes, size_t size);

} // namespace kiln::rt

#endif // KILN_RUNTIME_ARTIFACT_H
