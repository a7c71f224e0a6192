//===- kiln.h - Kiln's C++ API ----------------------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Compile a model (an ONNX file or bytes, MLIR text, or a kiln::Graph built
// in C++) and run it many times from host code:
//
//   auto compiler = kiln::Compiler::create();
//   auto model = (*compiler)->compile(kiln::ModelSource::file("mlp.onnx"));
//   if (!model.isOk()) { std::cerr << model.status().message(); return 1; }
//   std::vector<kiln::Tensor> outputs;
//   kiln::Status status = (*model)->run(inputs, outputs);
//
// Nothing here throws and nothing exposes MLIR or LLVM: every fallible call
// returns a Status (or StatusOr) whose message is what kilnc would print,
// located at the model file and node ("mlp.onnx: error: node 'fc1': ...").
// exitCodeFor() maps a Status to kilnc's documented exit codes.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_KILN_H
#define KILN_KILN_H

#include "kiln/runtime/Artifact.h"
#include "kiln/runtime/DType.h"
#include "kiln/runtime/HostTensor.h"
#include "kiln/runtime/Status.h"
#include "kiln/runtime/StepHooks.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace kiln {

using rt::DType;
using rt::RunOptions;
using rt::Status;
using rt::StatusCode;
using rt::StatusOr;
using rt::TensorRef;
/// A dense row-major tensor owning its bytes (dtype, shape, data).
using Tensor = rt::HostTensor;

class Graph;

/// kilnc's exit code for `status`: 0 OK, 1 usage (kFailedPrecondition: an
/// option that does not apply), 2 invalid model or inputs (kInvalidArgument,
/// kNotFound, kDataLoss), 3 unsupported (kUnimplemented), 4 internal
/// (kInternal), 5 this machine lacks what the run needs: a GPU or its
/// driver, a tool (kUnavailable), memory (kResourceExhausted), 7 a
/// collective between ranks failed (kAborted, kDeadlineExceeded).
int exitCodeFor(const Status &status);

/// The API version of these headers (also KILN_PLUGIN_API_VERSION's home).
const char *versionString();

/// The name, element type and shape of a model input or output.
using TensorInfo = rt::TensorSpec;

/// How to compile. A plain value; copy it freely.
struct CompileOptions {
  /// Device to compile for. Only "cpu" today.
  std::string target = "cpu";
  /// Instruction set of ahead-of-time artifacts: "native" (this CPU),
  /// "x86-64" (portable), "x86-64-v3" (AVX2), or any LLVM CPU name. The
  /// in-process JIT always uses this CPU.
  std::string targetCpu = "native";
  /// Function to compile; empty means the model's only public function.
  std::string entry;
  /// Shapes for ONNX inputs with symbolic dimensions, by input name.
  std::map<std::string, std::vector<int64_t>> inputShapes;
  /// ONNX inputs fixed at compile time (inputs that feed shapes, such as
  /// Reshape's shape): they become constants and leave the model's inputs.
  std::map<std::string, Tensor> boundInputs;
  /// Group ops into fusion groups, one kernel each (see docs/fusion.md).
  /// Off is for A/B comparisons: the results agree within fp tolerance.
  bool fusion = true;
  /// Pass plugins to load (see kiln/PassPlugin.h); their passes run at
  /// their pipeline points in every compilation of this Compiler.
  std::vector<std::string> passPlugins;
  /// Threads a compiled CPU model runs on, the calling thread included; 0
  /// is every core the process may use, 1 runs on the calling thread only.
  /// Results are bitwise the same for every count.
  unsigned threads = 0;
  /// CPU: one step per kernel, small kernels too (they are otherwise
  /// merged), so that each kernel's results can be inspected after it ran;
  /// with `fusion = false`, one step per op. For debugging: slower.
  bool stepPerKernel = false;
  /// Print to stderr, after each compile, where its time went: import, each
  /// pipeline pass by pass, LLVM or NVRTC code generation (with kernel
  /// cache hits), and whether the compile cache answered.
  /// `kilnc compile --time-report`.
  bool timeReport = false;
  /// Keep CPU compiles in the persistent compile cache and answer an
  /// unchanged compile from it (docs/compile-cache.md): the folder is
  /// $KILN_CACHE_DIR/cpu (else $XDG_CACHE_HOME or ~/.cache/kiln/cpu);
  /// KILN_CACHE_DIR=off turns it off for the process. Compiled in-process,
  /// a model then runs from its shared object like an artifact does.
  /// `kilnc --no-compile-cache`.
  bool compileCache = true;
  /// Keep only these fusion groups (numbers as in `fusion#N`, see
  /// Compiler::fusionGroups); the others' ops run unfused. Empty: all.
  /// What `kilnc bisect` searches with.
  std::vector<int64_t> fusionGroups;
  /// Tests of `kilnc bisect` only: group N drops its last op, as a wrong
  /// fusion rule would. -1: off.
  int64_t testMiscompileFusionGroup = -1;
  /// Storage type of the model's fp32 tensors: "fp32" (default), "bf16",
  /// "fp16" or "int8" (see calibrationData). Ops still compute in fp32 (contractions accumulate in fp32);
  /// softmax, normalisations and summing reductions stay fp32; weights are
  /// rounded at compile time; inputs and outputs keep their types. See
  /// docs/quantization.md. `kilnc --precision`.
  std::string precision = "fp32";
  /// Nodes (by ONNX node name, or MLIR location name) that stay fp32 under
  /// a low precision; a name no node has is an error. `kilnc --keep-fp32`.
  std::vector<std::string> keepFp32;
  /// precision "int8": post-training quantization calibrated by Kiln on
  /// the samples of this folder (one sub-folder per sample, one INPUT.npy
  /// per model input), with the "minmax", "percentile" (0.01-99.99 %) or
  /// "entropy" (least KL divergence) observer. `kilnc --calibration-data`,
  /// `--calibration-method`.
  std::string calibrationData;
  std::string calibrationMethod = "minmax";
  /// Weight-only quantization of constant matmul/gemm weights: "int8" or
  /// "int4", optionally with the rows per scale ("int4:g64"; default 128).
  /// Activations stay fp32; empty: off. docs/quantization.md.
  /// `kilnc --weight-only`.
  std::string weightOnly;
  /// precision "int8" within an accuracy budget: the largest top-1 drop,
  /// in points, that quantization may cost on `validationData` (a folder
  /// like calibrationData) against `validationLabels` (a 1-D .npy of class
  /// indices, one per row of the first output over the samples in name
  /// order). Layers whose int8 would exceed it stay fp32; the artifact
  /// records each layer's precision and the measured top-1 (kilnc
  /// --stats-json). Negative: off.
  double maxAccuracyDrop = -1;
  std::string validationData;
  std::string validationLabels;
  /// Batch sizes to compile an ONNX model for (axis 0 of every input,
  /// which the model must leave symbolic). One size: the model with that
  /// batch. Several: compileToArtifact packs them into one artifact whose
  /// own program is the smallest and whose batch variants (section kind
  /// 10) are the others; kiln-serve batches requests into them. At most
  /// 16 sizes, each 1..65536. `kilnc compile --batch-sizes 1,4,16`.
  std::vector<int64_t> batchSizes;
  /// Devices (ranks) to shard the model over; 1 is unsharded. With more,
  /// compileToArtifact writes a ranked artifact holding every rank's
  /// program (docs/sharding.md); CPU targets only. `kilnc --devices`.
  int devices = 1;
  /// How to shard: "tensor" (Megatron-style column-then-row splits of
  /// contractions with constant weights), "sequence" (tensor plus
  /// Megatron's sequence parallelism: the tokens between blocks split,
  /// reduce-scatters and all-gathers instead of all-reduces), "data"
  /// (replicas of one program, each on a slice of the batch that the
  /// runtime cuts; with `shard`, ranks that slice it and all-gather) or
  /// "pipeline"
  /// (consecutive ops in stages, one per device); "data,tensor",
  /// "data,sequence" or "data,pipeline" on a 2-D `mesh`.
  /// `kilnc --parallel`.
  std::string parallel = "tensor";
  /// CUDA models run by compile(): what runs their GEMMs, as
  /// LoadOptions::gemm and gemmTimingCache. `kilnc run --gemm`.
  std::string gemm = "generated";
  std::string gemmTimingCache;
  /// A 2-D mesh, "data=D,tensor=T" or "data=D,pipeline=P" with parallel
  /// "data,tensor" or "data,pipeline": D data-parallel replicas of a
  /// T-rank tensor-parallel (or P-stage pipeline) program; devices = D x T.
  /// A 1-D mesh ("tensor=4") is another way to give devices. `kilnc --mesh`.
  std::string mesh;
  /// Pipeline parallelism: equal slices of the batch the stages work on in
  /// turn (GPipe); the batch must divide by it. `kilnc --micro-batches`.
  int microBatches = 1;
  /// Users' layouts for tensor and data parallelism: NAME=split(D) (or
  /// split:D) or NAME=replicated, NAME an input, a weight (ONNX
  /// initializer) or a node. `kilnc --shard`.
  std::vector<std::string> shard;
  /// Independent all-reduces (or all-gathers) delivering at most this many
  /// bytes each are sent as one collective (0: never).
  /// `kilnc --fuse-collectives-below`.
  int64_t fuseCollectivesBelow = 65536;
};

/// Where a model comes from. A plain value; the bytes are copied in.
class ModelSource {
public:
  enum class Kind { kFile, kOnnxBytes, kMlirText };

  /// A .onnx or .mlir file, chosen by extension.
  static ModelSource file(std::string path);
  /// A serialised ONNX ModelProto; `name` stands for the file in messages
  /// (external data is looked up in its folder).
  static ModelSource onnxBytes(std::string bytes,
                               std::string name = "model.onnx");
  /// Kiln-dialect MLIR, as text or bytecode.
  static ModelSource mlirText(std::string text,
                              std::string name = "model.mlir");
  /// A graph built in C++ (its state is captured now; later changes to the
  /// graph do not affect this source). Fails if the graph has an error.
  static StatusOr<ModelSource> graph(const Graph &graph);

  Kind kind() const { return kind_; }
  /// The path, or the name given for in-memory sources.
  const std::string &name() const { return name_; }
  const std::string &bytes() const { return bytes_; }

private:
  ModelSource(Kind kind, std::string name, std::string bytes)
      : kind_(kind), name_(std::move(name)), bytes_(std::move(bytes)) {}
  Kind kind_;
  std::string name_;
  std::string bytes_;
};

/// A compiled model, ready to run many times.
///
/// Ownership: owns its machine code and its working memory (one arena).
/// Thread safety: run() is not reentrant, because every run uses the same
/// arena; serialise the runs of one Executable (or make one per thread).
/// Distinct Executables are independent.
/// How Executable::loadArtifact loads an artifact.
struct LoadOptions {
  /// As CompileOptions::threads.
  unsigned threads = 0;
  /// CUDA artifacts: what runs their recorded GEMMs, "generated" (the
  /// compiler's kernels), "cublaslt" or "auto" (both timed on the device
  /// at load, the faster kept); `kiln-run --gemm` (docs/cuda-runtime.md).
  std::string gemm = "generated";
  /// Where "auto" remembers its verdicts (empty: the default cache file).
  std::string gemmTimingCache;
};

class Executable {
public:
  /// Loads an ahead-of-time artifact written by Compiler::compileToArtifact
  /// or `kilnc compile -o X.kiln`, validating it first. A CUDA artifact
  /// runs on CUDA device 0 (host tensors in and out); without a GPU or
  /// driver it is kUnavailable (exit code 5).
  /// `threads` as CompileOptions::threads. A sharded artifact
  /// (CompileOptions::devices > 1) runs its ranks as threads of this
  /// process, each on `threads` threads (0: one), and returns rank 0's
  /// outputs (docs/sharding.md).
  static StatusOr<std::unique_ptr<Executable>>
  loadArtifact(const std::string &path, unsigned threads = 0);
  /// The same with every load option; an unknown `gemm` is
  /// kInvalidArgument.
  static StatusOr<std::unique_ptr<Executable>>
  loadArtifact(const std::string &path, const LoadOptions &options);

  ~Executable();
  Executable(const Executable &) = delete;
  Executable &operator=(const Executable &) = delete;

  const std::vector<TensorInfo> &inputs() const;
  const std::vector<TensorInfo> &outputs() const;
  /// "cpu (jit)" or "cpu (artifact)".
  const std::string &description() const;
  /// The schedule it runs: steps with their kernels, bindings and debug
  /// information (what profilers and step hooks see).
  const rt::Program &program() const;

  /// Checks `inputs` (count, dtype, shape, size) and runs the model;
  /// `outputs` is resized and allocated to the output shapes.
  Status run(const std::vector<Tensor> &inputs, std::vector<Tensor> &outputs);
  /// The same, returning fresh outputs.
  StatusOr<std::vector<Tensor>> run(const std::vector<Tensor> &inputs);
  /// Runs on buffers the caller owns (no copies): `outputs` must already
  /// have the output dtypes and shapes and large enough buffers.
  Status run(const std::vector<TensorRef> &inputs,
             const std::vector<TensorRef> &outputs);
  /// Runs with per-step hooks (kiln/runtime/StepHooks.h: timing, output
  /// inspection, e.g. rt::NumericsCheck); `outputs` as in the first run().
  /// CUDA programs do not run hooks yet (kUnimplemented).
  Status run(const std::vector<Tensor> &inputs, std::vector<Tensor> &outputs,
             const RunOptions &options);

  /// Implementation (a JIT-compiled module or a loaded artifact).
  class Impl;
  explicit Executable(std::unique_ptr<Impl> impl);

private:
  std::unique_ptr<Impl> impl_;
};

/// Compiles models with fixed options.
///
/// Ownership: owns its options and the loaded plugins (plugins stay loaded
/// for the life of the process).
/// Thread safety: compile calls may run concurrently on one Compiler; each
/// uses its own MLIR context.
class Compiler {
public:
  /// Validates `options` and loads their pass plugins.
  static StatusOr<std::unique_ptr<Compiler>>
  create(CompileOptions options = {});

  ~Compiler();
  Compiler(const Compiler &) = delete;
  Compiler &operator=(const Compiler &) = delete;

  const CompileOptions &options() const;

  /// Compiles `source` in-process (JIT) for this machine.
  StatusOr<std::unique_ptr<Executable>> compile(const ModelSource &source);

  /// What compileToArtifact produced.
  struct ArtifactReport {
    /// Size of the machine code (an ELF shared object) in the artifact;
    /// not counted (0) when it came from the compile cache.
    uint64_t kernelBytes = 0;
    /// The artifact came from the compile cache.
    bool fromCache = false;
  };
  /// Compiles `source` ahead of time into a .kiln artifact at `path`, which
  /// Executable::loadArtifact and the runtime-only `kiln-run` load.
  Status compileToArtifact(const ModelSource &source, const std::string &path,
                           ArtifactReport *report = nullptr);

  /// How far emitIR lowers.
  enum class IRStage {
    kGraph,  ///< The kiln dialect after cleanup (and graph-level plugins).
    kLinalg, ///< linalg/tensor, before bufferisation.
    kLLVM,   ///< The LLVM dialect.
    kCuda,   ///< The generated CUDA C++ (not MLIR).
    kPtx,    ///< That CUDA C++ compiled by NVRTC to PTX (not MLIR).
  };
  /// The model's IR at `stage`, as MLIR text (with each op's location when
  /// `withLocations`).
  StatusOr<std::string> emitIR(const ModelSource &source, IRStage stage,
                               bool withLocations = false);

  /// A fusion group of the model: its number (`fusion#N`), kind and the
  /// source ops inside (ONNX node names or file locations), in order.
  struct FusionGroup {
    int64_t number = 0;
    std::string kind;
    std::vector<std::string> ops;
  };
  StatusOr<std::vector<FusionGroup>> fusionGroups(const ModelSource &source);
  /// Group `number` on its own, as a kiln-dialect MLIR model whose
  /// arguments are the group's inputs and results its results: the
  /// smallest reproducer of a fusion problem.
  StatusOr<std::string> extractFusionGroup(const ModelSource &source,
                                           int64_t number);

  /// The model's entry point, inputs and outputs, without compiling it.
  struct Interface {
    std::string entry;
    std::vector<TensorInfo> inputs;
    std::vector<TensorInfo> outputs;
  };
  StatusOr<Interface> inspect(const ModelSource &source);

  class Impl;

private:
  /// compileToArtifact with CompileOptions::devices > 1: every rank's
  /// program in one ranked artifact.
  Status compileRankedArtifact(const ModelSource &source,
                               const std::string &path,
                               ArtifactReport *report);
  /// compileToArtifact with several CompileOptions::batchSizes: one compile
  /// per size, packed into one artifact.
  Status compileBatchVariants(const ModelSource &source,
                              const std::string &path, ArtifactReport *report);

  friend class JitModel; // Compiles with specialised options.
  explicit Compiler(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

} // namespace kiln

#endif // KILN_KILN_H
