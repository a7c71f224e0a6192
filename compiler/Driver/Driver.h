//===- Driver.h - Load, compile and run models ------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The one implementation behind kilnc (and, later, the C++ API): load a
// model file into the kiln dialect, lower it through the named pipelines,
// JIT it for the host CPU. Failures are classified so that every front door
// maps them to the same documented exit codes.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_DRIVER_DRIVER_H
#define KILN_COMPILER_DRIVER_DRIVER_H

#include "compiler/Codegen/CPU/CpuJit.h"
#include "compiler/Codegen/CUDA/CudaCodegen.h"
#include "compiler/Pipelines/PipelineExtensions.h"
#include "kiln/runtime/Artifact.h"
#include "kiln/runtime/HostTensor.h"
#include "kiln/runtime/PrecisionReport.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Support/Timing.h"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace kiln::compiler {

/// Why a driver step failed. The CLI's exit codes are these values.
enum class ErrorKind {
  kNone = 0,
  kUsage = 1,        ///< Bad command line.
  kInvalidInput = 2, ///< Malformed model or inputs (parse/verify errors, bad .npy).
  kUnsupported = 3,  ///< Valid, but uses something Kiln cannot compile yet.
  kInternal = 4,     ///< A bug in Kiln.
  kUnavailable = 5,  ///< This machine lacks a tool or device (NVRTC, a GPU).
};

/// A failure with its class; the details were already reported as
/// diagnostics or are in `message`.
struct DriverError {
  DriverError(ErrorKind kind = ErrorKind::kNone, std::string message = "")
      : kind(kind), message(std::move(message)) {}
  ErrorKind kind;
  std::string message;
  /// An ONNX import that stopped at an input a JIT can supply (see
  /// onnx::ImportReport): the graph's inputs in order, those whose values a
  /// shape needs, and those whose shape is symbolic.
  std::vector<std::string> graphInputs;
  std::vector<std::string> compileTimeInputs;
  std::vector<std::string> inputsWithoutShape;
  explicit operator bool() const { return kind != ErrorKind::kNone; }
};

/// How far to lower.
enum class Stage {
  kKiln,   ///< Cleaned-up kiln dialect (contract checked, constants folded).
  kLinalg, ///< linalg/tensor on tensors, before bufferisation.
  kLLVM,   ///< LLVM dialect, ready for the JIT.
};

/// Prints diagnostics located in an imported model file, which has no source
/// text to show, as "model.onnx: error: node 'name': message" (or without
/// the node for model-level errors); everything else goes to the next
/// handler (register it after a SourceMgrDiagnosticHandler).
class ModelDiagnosticPrinter {
public:
  explicit ModelDiagnosticPrinter(mlir::MLIRContext &context);
  ModelDiagnosticPrinter(mlir::MLIRContext &context, llvm::raw_ostream &os);
  ~ModelDiagnosticPrinter();

private:
  mlir::MLIRContext &context_;
  mlir::DiagnosticEngine::HandlerID id_;
};

/// An MLIRContext with every dialect the driver's pipelines create.
std::unique_ptr<mlir::MLIRContext> createContext();

/// How to read a model file.
struct LoadOptions {
  /// Shapes for ONNX inputs with symbolic dimensions, by input name.
  std::map<std::string, std::vector<int64_t>> inputShapes;
  /// ONNX inputs fixed at compile time to a value (see --bind).
  std::map<std::string, rt::HostTensor> boundInputs;
  /// Rows on axis 0 of every ONNX input (--batch-sizes); 0: as given.
  int64_t batchSize = 0;
};

/// Parses `path` (.mlir, or .onnx through the ONNX importer) into `module`;
/// diagnostics go to the context's handler.
DriverError loadModel(mlir::MLIRContext &context, const std::string &path,
                      mlir::OwningOpRef<mlir::ModuleOp> &module,
                      const LoadOptions &options = {});

/// What an in-memory model is.
enum class ModelFormat { kOnnx, kMlir };

/// Parses a model held in memory; `name` stands for its file in messages
/// (and, for ONNX, its folder is where external data is looked up). MLIR
/// text must be followed by a NUL byte, as std::string contents are: MLIR's
/// lexer reads past the end otherwise (llvm/llvm-project#154462).
DriverError loadModelFromMemory(mlir::MLIRContext &context,
                                ModelFormat format, llvm::StringRef bytes,
                                const std::string &name,
                                mlir::OwningOpRef<mlir::ModuleOp> &module,
                                const LoadOptions &options = {});

/// Parses "NAME=2x3x4" (a --input-shape value) into `options`.
DriverError parseInputShape(const std::string &spec, LoadOptions &options);

/// Parses "NAME=FILE.npy" (a --bind value) and reads the file into
/// `options`.
DriverError parseBinding(const std::string &spec, LoadOptions &options);

/// What the pipeline does beyond its fixed stages.
struct PipelineOptions {
  /// Passes plugins add at the named points.
  const PipelineExtensions *extensions = nullptr;
  /// Form fusion groups (kiln-form-fusion-groups); off for A/B runs.
  bool fusion = true;
  /// Threads a JIT-compiled CPU executable runs on (0: every core the
  /// process may use); see rt::ExecutableOptions.
  unsigned threads = 0;
  /// One dispatch per kernel, small ones too (CompileOptions).
  bool stepPerKernel = false;
  /// Where --time-report collects pass and code-generation times (null:
  /// not timed).
  mlir::TimingScope *timing = nullptr;
  /// Fusion groups to keep (empty: all) and the test-only miscompiled
  /// group (CompileOptions).
  std::vector<int64_t> fusionGroups;
  int64_t testMiscompileFusionGroup = -1;
  /// Storage type of fp32 tensors, "fp32", "bf16" or "fp16", and the nodes
  /// that stay fp32 (kiln-assign-precision; CompileOptions).
  std::string precision = "fp32";
  std::vector<std::string> keepFp32;
  /// int8: the folder of calibration samples and the observer
  /// (CompileOptions).
  std::string calibrationData;
  std::string calibrationMethod = "minmax";
  /// kiln-weight-only's scheme ("int4:g128"; WeightOnly.h); empty: off.
  std::string weightOnly;
  /// Sharding (kiln-shard, kiln-pipeline): with `ranks` > 1 the pipeline
  /// builds the program of rank `rank` of `ranks` under `parallel`
  /// ("tensor", "sequence", "data" or "pipeline", on `microBatches` slices of
  /// the batch); CompileOptions::devices.
  int64_t ranks = 1;
  int64_t rank = 0;
  std::string parallel = "tensor";
  int64_t microBatches = 1;
  /// Users' layouts, NAME=split(D) or NAME=replicated (kilnc --shard).
  std::vector<std::string> shard;
  /// Called with the module once it holds this rank's graph (after
  /// kiln-shard or kiln-pipeline, before fusion): a pipeline stage's
  /// interface is only known then.
  std::function<void(mlir::ModuleOp)> onPartitioned;
  /// The data axis of a 2-D mesh: the program computes one of this many
  /// slices of the batch (kiln-split-batch) before `parallel` splits it
  /// over `ranks`.
  int64_t dataReplicas = 1;
  /// The pipeline axis of a pipeline x tensor mesh: the program is stage
  /// `stage` of `stages` (kiln-pipeline, on `microBatches`), then split
  /// over `ranks` by `parallel` ("tensor").
  int64_t stages = 1;
  int64_t stage = 0;
  /// Min/max over every axis in two stages (kiln-split-full-reductions),
  /// which the CPU vectorises; CUDA has reductions of its own.
  bool splitFullReductions = true;
  /// int8 accuracy budget (AccuracyBudget.h): the largest top-1 drop in
  /// points against fp32 (negative: off, every point is quantized), the
  /// validation samples (a folder like calibrationData) and their labels
  /// (a 1-D .npy of class indices); CompileOptions.
  double maxAccuracyDrop = -1;
  std::string validationData;
  std::string validationLabels;
  /// Where the budget's measurements go (null: nowhere).
  rt::PrecisionReport *precisionReport = nullptr;
  /// Constants of at least this many bytes stay unflattened in the LLVM
  /// dialect (0: none): an artifact writes their bytes itself.
  uint64_t rawConstantBytes = 0;
  /// kiln-shard fuses independent collectives of at most this many bytes
  /// each (0: never).
  int64_t fuseCollectivesBelow = 65536;
};

/// Lowers `module` in place to `stage`.
DriverError lowerTo(mlir::ModuleOp module, Stage stage,
                    const PipelineOptions &options = {});

/// Cleans up, lowers and JIT-compiles `module` (consumed) for this CPU.
DriverError compileForCpu(mlir::ModuleOp module, const std::string &entry,
                          std::unique_ptr<CpuJitExecutable> &executable,
                          const PipelineOptions &options = {});

/// Cleans up and lowers `module` (consumed), then compiles it ahead of time
/// into a .kiln artifact for this CPU, with the entry's memory plan.
/// `cpu` is as for buildCpuArtifact ("native", "x86-64", ...).
DriverError compileToArtifact(mlir::ModuleOp module, const std::string &entry,
                              rt::Artifact &artifact,
                              const std::string &cpu = "native",
                              const PipelineOptions &options = {});

/// Cleans up and lowers `module` (consumed) for the CUDA backend and prints
/// its kernels (the CUDA C++ of --emit=cuda). `signature` gets the entry's
/// inputs, outputs and arena size; `plan` (if given) its memory plan.
/// `oldestSm` is the oldest architecture of the target (tensor cores need
/// sm_80; older targets get SIMT contractions).
DriverError generateCuda(mlir::ModuleOp module, const std::string &entry,
                         cuda::CudaProgram &program, EntrySignature &signature,
                         rt::MemoryPlan *plan = nullptr,
                         const PipelineOptions &options = {},
                         unsigned oldestSm = 80);

/// As compileToArtifact, for a CUDA target ("cuda", "cuda:sm_90", ...):
/// kernels compiled by NVRTC to PTX and CUBIN.
DriverError compileToCudaArtifact(mlir::ModuleOp module,
                                  const std::string &entry,
                                  const std::string &target,
                                  rt::Artifact &artifact,
                                  const PipelineOptions &options = {});

} // namespace kiln::compiler

#endif // KILN_COMPILER_DRIVER_DRIVER_H
