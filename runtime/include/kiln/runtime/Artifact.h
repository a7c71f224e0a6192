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
// steps of each device), the kernels (a shared object for the CPU; PTX and
// CUBIN modules and the constants for CUDA) and, optionally, the memory
// plan (information for tools).
// Readers validate everything before returning a view; a truncated or
// corrupted file is an error, never a crash.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_ARTIFACT_H
#define KILN_RUNTIME_ARTIFACT_H

#include "kiln/runtime/BatchVariants.h"
#include "kiln/runtime/DType.h"
#include "kiln/runtime/GemmCall.h"
#include "kiln/runtime/PrecisionReport.h"
#include "kiln/runtime/Status.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kiln::rt {

inline constexpr char kArtifactMagic[8] = {'K', 'I', 'L', 'N',
                                           'A', 'R', 'T', '\0'};
/// 2: steps carry dependencies, binding access modes and workgroup grids
/// for both devices (the exec schedule level, docs/execution-model.md);
/// 3: steps carry debug information; 4: outputs may have a run-time length.
inline constexpr uint32_t kArtifactFormatVersion = 4;

/// Section kinds. Values are part of the format: never renumber.
enum class SectionKind : uint32_t {
  kTarget = 1,  ///< UTF-8 target description, e.g. "cpu x86_64 sapphirerapids".
  kProgram = 2, ///< Encoded Program (see below).
  kCpuKernels = 3,  ///< ELF shared object with the CPU kernels.
  kMemoryPlan = 4,  ///< Encoded memory plans (optional, see below).
  kCudaKernels = 5, ///< Encoded CUDA modules (PTX and CUBIN images).
  kConstants = 6,   ///< Weights the kernels read from device memory.
  /// The unplanned baseline of each memory plan (optional; next to kind 4
  /// so that readers that predate it still read the plans).
  kMemoryPlanBaseline = 7,
  /// Launches a BLAS library may run instead (optional; GemmCall.h).
  kGemmCalls = 8,
  /// What the int8 accuracy budget chose (optional; PrecisionReport.h).
  kPrecisionReport = 9,
  /// The same model compiled for larger batches (optional; BatchVariants.h).
  kBatchVariants = 10,
};

/// Section flags (the table entry's second word). Readers skip optional
/// sections of kinds they do not know instead of refusing the file.
inline constexpr uint32_t kSectionOptional = 1;

/// A tensor crossing the model boundary.
struct TensorSpec {
  std::string name;
  DType dtype = DType::kF32;
  std::vector<int64_t> shape;
  /// Outputs only: when >= 0, `shape[lengthAxis]` is a bound and the run
  /// decides the length (ONNX NonZero, Compress, Unique, NonMaxSuppression):
  /// output
  /// `lengthOutput`, an i64 scalar, holds it. Runs on host tensors cut the
  /// output to it; runs on caller buffers leave that to the caller.
  int32_t lengthAxis = -1;
  uint32_t lengthOutput = 0;

  bool hasRuntimeLength() const { return lengthAxis >= 0; }
};

/// Bytes of a tensor, saturating (shapes are bounded, dtypes are not).
uint64_t tensorBytes(const TensorSpec &spec);

/// A buffer a step touches: a byte range of one of the buffers the runtime
/// owns (for a CUDA kernel, one pointer argument).
struct KernelArg {
  enum class Base : uint32_t {
    kInput = 1,     ///< Input tensor `index`.
    kOutput = 2,    ///< Output tensor `index`.
    kArena = 3,     ///< The device arena (index 0).
    kConstants = 4, ///< The constants section, uploaded once (index 0).
  };
  Base base = Base::kArena;
  uint32_t index = 0;
  uint64_t offset = 0; ///< Bytes from the start of the base buffer.
  uint64_t bytes = 0;  ///< Bytes the kernel may touch from `offset`.
  enum class Access : uint32_t { kRead = 1, kWrite = 2, kReadWrite = 3 };
  Access access = Access::kReadWrite;

  bool writes() const { return access != Access::kRead; }
};

/// One step of a device program (the exec dialect's steps, serialised).
/// Steps are listed in an order that respects `after`; a runtime may run
/// steps whose dependencies are done concurrently. Unknown kinds are
/// rejected.
struct Step {
  enum class Kind : uint32_t {
    /// CPU: call `kernel(args, begin, end)` over workgroups [0, grid[0]).
    kDispatch = 1,
    /// CUDA: launch `kernel` with `grid`, `block` and pointer `args`.
    kLaunchKernel = 2,
    kCopy = 3,       ///< args[0] (read) to args[1] (written), same size.
    kFill = 4,       ///< args[0] with `pattern` of `patternBytes` bytes.
    kCollective = 5, ///< See CollectiveKind; handed to a collectives hook.
    kBarrier = 6,    ///< Touches nothing; orders what follows.
  };
  /// What a collective computes (values as in the exec dialect).
  enum class CollectiveKind : uint32_t {
    kAllReduce = 1, kAllGather = 2, kReduceScatter = 3, kBroadcast = 4,
    kSend = 5, kRecv = 6,
  };
  Kind kind = Kind::kDispatch;
  std::string kernel; ///< Dispatches and launches only.
  uint32_t grid[3] = {1, 1, 1};
  uint32_t block[3] = {1, 1, 1}; ///< kLaunchKernel only.
  uint32_t sharedBytes = 0;      ///< Dynamic shared memory (CUDA).
  std::vector<KernelArg> args;
  /// Indices of earlier steps of the same device this one waits for.
  std::vector<uint32_t> after;
  // kFill
  uint64_t pattern = 0;
  uint32_t patternBytes = 0;
  // kCollective
  CollectiveKind collective = CollectiveKind::kAllReduce;
  uint32_t reduction = 0; ///< exec::ReductionKind (0 none, 1 sum, ...).
  uint32_t ranks = 1;
  uint32_t peer = 0;
  DType element = DType::kF32;
  /// Debug information, for numerics checks and profiles; empty when the
  /// compiler did not record it. `source` names the ops the step runs
  /// (ONNX node names or file locations); `results` are the typed buffers
  /// it computes, each inside an argument it writes.
  std::string source;
  struct Result {
    KernelArg range;
    DType element = DType::kF32;
  };
  std::vector<Result> results;
  /// Arithmetic operations of the whole step (0: unknown).
  uint64_t flops = 0;

  uint64_t workgroups() const {
    return uint64_t(grid[0]) * grid[1] * grid[2];
  }
};

/// The program of one device.
struct DeviceProgram {
  enum class Kind : uint32_t { kCpu = 1, kCuda = 2 };
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

/// One intermediate buffer of a device's memory plan.
struct PlannedBuffer {
  uint64_t offset = 0; ///< In the device's arena.
  uint64_t size = 0;   ///< Bytes.
  /// Live from the first to the last step (inclusive) of the kernel's
  /// execution order (steps of the planned function, not program steps).
  uint32_t firstStep = 0;
  uint32_t lastStep = 0;
  /// Index of the buffer whose storage this one took over in place.
  static constexpr uint32_t kNotInPlace = ~0u;
  uint32_t inPlaceOf = kNotInPlace;
  std::string producer; ///< The op writing it first, e.g. "linalg.generic".
  std::string location; ///< Where that op came from (ONNX node, file:line).
};

/// How a device's arena is laid out, and how good the layout is. Purely
/// informative: the offsets are already compiled into the kernels, so the
/// runtime validates the plan but does not need it.
struct MemoryPlan {
  uint32_t device = 0; ///< Index into Program::devices.
  uint64_t peakBytes = 0;
  uint64_t lowerBoundBytes = 0;
  /// The naive allocation: one buffer per intermediate tensor of the model
  /// graph, as an op-by-op executor without planning allocates (kind 7;
  /// absent for artifacts and pipelines that do not record it).
  std::optional<uint64_t> unplannedBytes;
  /// The sum of the sizes of the planned buffers (the kernels' buffers
  /// after fusion and bufferisation), each in its own memory.
  uint64_t unplannedKernelBuffersBytes = 0;
  uint32_t steps = 0;   ///< Length of the execution order.
  uint32_t kernels = 0; ///< Compute kernels (loop nests) in that order.
  std::vector<PlannedBuffer> buffers;
};

/// One compiled CUDA module: the kernels it defines and its image.
struct CudaModule {
  enum class Format : uint32_t { kPtx = 1, kCubin = 2 };
  Format format = Format::kPtx;
  /// Virtual architecture of PTX (80 = compute_80) or real one of CUBIN
  /// (90 = sm_90).
  uint32_t arch = 0;
  std::vector<std::string> kernels;
  std::vector<uint8_t> image; ///< PTX text (NUL-terminated) or ELF CUBIN.
};

/// An artifact's contents, decoded and validated.
struct Artifact {
  std::string target;
  Program program;
  std::vector<uint8_t> cpuKernels;
  /// CUDA artifacts: every kernel in PTX for some virtual architecture
  /// and usually in CUBIN for the real ones named by the target.
  std::vector<CudaModule> cudaModules;
  /// Constant tensors (weights) the CUDA kernels read; 256-byte aligned
  /// inside. CPU kernels embed theirs in the shared object.
  std::vector<uint8_t> constants;
  /// At most one per device; empty for artifacts written without one.
  std::vector<MemoryPlan> memoryPlans;
  /// At most one per launch step; empty when the compiler recorded none.
  std::vector<GemmCall> gemmCalls;
  /// Set when the model was compiled under an int8 accuracy budget.
  std::optional<PrecisionReport> precisionReport;
  /// `kilnc compile --batch-sizes`: the larger batch sizes, ascending.
  std::vector<BatchVariant> batchVariants;
};

/// The artifact of `batch` rows: `artifact` itself when that is its batch,
/// else its variant of that size; null when it has neither.
const Artifact *artifactForBatch(const Artifact &artifact, int64_t batch);

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
