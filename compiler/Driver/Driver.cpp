//===- Driver.cpp - Load, compile and run models --------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "compiler/Driver/Driver.h"
#include "compiler/Driver/Int8Calibration.h"
#include "compiler/Sharding/Annotations.h"
#include "compiler/Sharding/Passes.h"

#include "compiler/Codegen/CPU/CpuCodegen.h"
#include "compiler/Codegen/CPU/LargeConstants.h"
#include "compiler/Codegen/CUDA/CudaSchedule.h"
#include "compiler/Conversion/GraphToLinalg/Passes.h"
#include "compiler/Fusion/Passes.h"
#include "compiler/GraphTransforms/Passes.h"
#include "compiler/GraphTransforms/WeightOnly.h"
#include "compiler/MemoryPlanning/EntrySignature.h"
#include "compiler/MemoryPlanning/MemoryPlanAttr.h"
#include "compiler/Pipelines/Pipelines.h"
#include "compiler/Scheduling/ScheduleToProgram.h"
#include "compiler/Target/CpuArtifact.h"
#include "compiler/Target/CudaArtifact.h"
#include "dialects/Graph/IR/GraphOps.h"
#include "dialects/InitAllDialects.h"
#include "frontend/onnx/OnnxImporter.h"
#include "kiln/runtime/Npy.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace kiln::compiler {

ModelDiagnosticPrinter::ModelDiagnosticPrinter(MLIRContext &context)
    : ModelDiagnosticPrinter(context, llvm::errs()) {}

ModelDiagnosticPrinter::ModelDiagnosticPrinter(MLIRContext &context,
                                               llvm::raw_ostream &os)
    : context_(context) {
  id_ = context.getDiagEngine().registerHandler([&os](Diagnostic &diag) {
    // Model-level (file:0:0) and node-level (NameLoc in file:0:0) locations
    // of imported models; anything with a real line goes to the next
    // handler, which shows the source line.
    auto name = dyn_cast<NameLoc>(diag.getLocation());
    auto file = dyn_cast<FileLineColLoc>(name ? name.getChildLoc()
                                              : diag.getLocation());
    if (!file || file.getLine() != 0)
      return failure();
    auto print = [&](Diagnostic &d, StringRef severity) {
      std::string message = d.str();
      os << file.getFilename().getValue() << ": " << severity << ": ";
      if (name && !StringRef(message).starts_with("node '"))
        os << "node '" << name.getName().getValue() << "': ";
      os << message << "\n";
    };
    const char *severity = diag.getSeverity() == DiagnosticSeverity::Error
                               ? "error"
                           : diag.getSeverity() == DiagnosticSeverity::Warning
                               ? "warning"
                               : "note";
    print(diag, severity);
    for (Diagnostic &note : diag.getNotes())
      print(note, "note");
    return success();
  });
}

ModelDiagnosticPrinter::~ModelDiagnosticPrinter() {
  context_.getDiagEngine().eraseHandler(id_);
}

std::unique_ptr<MLIRContext> createContext() {
  DialectRegistry registry;
  kiln::registerAllDialects(registry);
  registerCpuCodegenDialects(registry);
  auto context = std::make_unique<MLIRContext>(registry);
  context->loadAllAvailableDialects();
  // A user's error names the model and the node; the IR of the op it is
  // attached to (for a function-level error, the whole model with its
  // weights elided) is for compiler developers, who get it from kiln-opt.
  context->printOpOnDiagnostic(false);
  return context;
}

DriverError parseInputShape(const std::string &spec, LoadOptions &options) {
  auto [name, dims] = StringRef(spec).split('=');
  if (name.empty() || dims.empty())
    return {ErrorKind::kUsage,
            "--input-shape expects NAME=DxDx..., got '" + spec + "'"};
  std::vector<int64_t> shape;
  SmallVector<StringRef> parts;
  dims.split(parts, 'x');
  for (StringRef part : parts) {
    int64_t dim;
    if (part.getAsInteger(10, dim) || dim < 0)
      return {ErrorKind::kUsage, "--input-shape '" + spec +
                                     "': dimensions are non-negative integers "
                                     "separated by 'x'"};
    shape.push_back(dim);
  }
  options.inputShapes[name.str()] = shape;
  return {};
}

DriverError parseBinding(const std::string &spec, LoadOptions &options) {
  auto [name, file] = StringRef(spec).split('=');
  if (name.empty() || file.empty())
    return {ErrorKind::kUsage,
            "--bind expects NAME=FILE.npy, got '" + spec + "'"};
  rt::StatusOr<rt::HostTensor> tensor = rt::readNpyFile(file.str());
  if (!tensor.isOk())
    return {ErrorKind::kInvalidInput, tensor.status().message()};
  options.boundInputs[name.str()] = std::move(*tensor);
  return {};
}

namespace {
/// A bound input's value as a constant attribute.
DriverError readBinding(MLIRContext &context, const std::string &name,
                        const rt::HostTensor *tensor,
                        DenseElementsAttr &value) {
  Builder b(&context);
  Type element;
  switch (tensor->dtype) {
  case rt::DType::kF32: element = b.getF32Type(); break;
  case rt::DType::kF16: element = b.getF16Type(); break;
  case rt::DType::kF64: element = b.getF64Type(); break;
  case rt::DType::kI1: element = b.getI1Type(); break;
  case rt::DType::kI8: element = b.getI8Type(); break;
  case rt::DType::kI16: element = b.getI16Type(); break;
  case rt::DType::kI32: element = b.getI32Type(); break;
  case rt::DType::kI64: element = b.getI64Type(); break;
  case rt::DType::kU8: element = b.getIntegerType(8, false); break;
  case rt::DType::kU16: element = b.getIntegerType(16, false); break;
  case rt::DType::kU32: element = b.getIntegerType(32, false); break;
  case rt::DType::kU64: element = b.getIntegerType(64, false); break;
  default:
    return {ErrorKind::kInvalidInput,
            "bound input '" + name + "': only float, int and bool values "
            "can be bound"};
  }
  auto type = RankedTensorType::get(tensor->shape, element);
  if (tensor->dtype == rt::DType::kI1) {
    SmallVector<bool> bits(tensor->data.begin(), tensor->data.end());
    value = DenseElementsAttr::get(type, ArrayRef<bool>(bits));
    return {};
  }
  ArrayRef<char> raw(reinterpret_cast<const char *>(tensor->data.data()),
                     tensor->data.size());
  value = DenseElementsAttr::getFromRawBuffer(type, raw);
  return {};
}
} // namespace

namespace {
/// The importer's options: shapes as given, bound inputs read from .npy.
DriverError makeImportOptions(MLIRContext &context, const LoadOptions &options,
                              onnx::ImportOptions &importOptions) {
  importOptions.inputShapes = options.inputShapes;
  importOptions.batchSize = options.batchSize;
  for (auto &[name, tensor] : options.boundInputs) {
    if (tensor.data.size() !=
        size_t(tensor.numElements()) * rt::dtypeSize(tensor.dtype))
      return {ErrorKind::kInvalidInput,
              "bound input '" + name + "': its bytes do not match its shape"};
    if (DriverError error = readBinding(context, name, &tensor,
                                        importOptions.boundInputs[name]))
      return error;
  }
  return {};
}

DriverError importResult(const OwningOpRef<ModuleOp> &module,
                         const onnx::ImportReport &report,
                         const std::string &name) {
  if (module)
    return {};
  DriverError error{report.failure == onnx::ImportFailure::kUnsupported
                        ? ErrorKind::kUnsupported
                        : ErrorKind::kInvalidInput,
                    name + ": cannot import the ONNX model"};
  error.graphInputs = report.graphInputs;
  error.compileTimeInputs = report.compileTimeInputs;
  error.inputsWithoutShape = report.inputsWithoutShape;
  return error;
}

DriverError onlyForOnnx(const LoadOptions &options) {
  if (!options.inputShapes.empty() || !options.boundInputs.empty())
    return {ErrorKind::kUsage,
            "--input-shape and --bind apply to ONNX models only"};
  if (options.batchSize > 0)
    return {ErrorKind::kUsage,
            "--batch-sizes applies to ONNX models only (an MLIR function "
            "has fixed shapes: compile one per batch size)"};
  return {};
}
} // namespace

DriverError loadModel(MLIRContext &context, const std::string &path,
                      OwningOpRef<ModuleOp> &module,
                      const LoadOptions &options) {
  StringRef name(path);
  if (!llvm::sys::fs::exists(path))
    return {ErrorKind::kInvalidInput, path + ": no such file"};
  if (name.ends_with(".onnx")) {
    onnx::ImportOptions importOptions;
    if (DriverError error = makeImportOptions(context, options, importOptions))
      return error;
    onnx::ImportReport report;
    module = onnx::importOnnxFile(context, path, importOptions, report);
    return importResult(module, report, path);
  }
  if (DriverError error = onlyForOnnx(options))
    return error;
  if (!name.ends_with(".mlir"))
    return {ErrorKind::kInvalidInput,
            path + ": unknown model format (expected .mlir or .onnx)"};
  module = parseSourceFile<ModuleOp>(path, &context);
  if (!module)
    return {ErrorKind::kInvalidInput, path + ": cannot parse the model"};
  return {};
}

DriverError loadModelFromMemory(MLIRContext &context, ModelFormat format,
                                StringRef bytes, const std::string &name,
                                OwningOpRef<ModuleOp> &module,
                                const LoadOptions &options) {
  if (format == ModelFormat::kOnnx) {
    onnx::ImportOptions importOptions;
    if (DriverError error = makeImportOptions(context, options, importOptions))
      return error;
    onnx::ImportReport report;
    module = onnx::importOnnxBytes(context, bytes, name, importOptions, report);
    return importResult(module, report, name);
  }
  if (DriverError error = onlyForOnnx(options))
    return error;
  module = parseSourceString<ModuleOp>(bytes, ParserConfig(&context), name);
  if (!module)
    return {ErrorKind::kInvalidInput, name + ": cannot parse the model"};
  return {};
}

namespace {
/// Runs `build`'s pipeline; a failure is classified as `kind`.
DriverError runPipeline(ModuleOp module, TimingScope *timing, ErrorKind kind,
                        const char *what,
                        llvm::function_ref<void(OpPassManager &)> build) {
  PassManager pm(module.getContext());
  build(pm);
  // --time-report: each pipeline a section of the report, pass by pass.
  TimingScope scope;
  if (timing) {
    scope = timing->nest(what);
    pm.enableTiming(scope);
  }
  if (failed(pm.run(module)))
    return {kind, std::string(what) + " failed"};
  return {};
}
} // namespace

/// A section of the --time-report, or an inert scope without one.
static TimingScope nestedTiming(const PipelineOptions &options, const char *name) {
  return options.timing ? options.timing->nest(name) : TimingScope();
}

namespace {
/// The devices of the compile's --parallel, --mesh and --devices as the
/// module's kiln.mesh (data, then pipeline, then the inner strategy's
/// axis); a mesh the module already has must be that one.
DriverError stateMesh(ModuleOp module, const PipelineOptions &options) {
  SmallVector<StringRef> names;
  SmallVector<int64_t> sizes;
  auto axis = [&](StringRef name, int64_t size) {
    if (size > 1) {
      names.push_back(name);
      sizes.push_back(size);
    }
  };
  axis("data", options.dataReplicas);
  axis("pipeline", options.stages);
  axis(options.parallel, options.ranks);
  OpBuilder b(module.getContext());
  ArrayAttr axes = b.getStrArrayAttr(names);
  auto describe = [](ArrayAttr axes, ArrayRef<int64_t> shape) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << "axes [";
    llvm::interleaveComma(axes, os, [&](Attribute a) {
      os << '"' << cast<StringAttr>(a).getValue() << '"';
    });
    os << "] shape [";
    llvm::interleaveComma(shape, os);
    os << "]";
    return text;
  };
  for (auto mesh : module.getOps<kiln::MeshOp>()) {
    if (mesh.getAxes() == axes && mesh.getShape() == ArrayRef(sizes))
      return {};
    return {ErrorKind::kUsage,
            "the model's kiln.mesh @" + mesh.getSymName().str() + " (" +
                describe(mesh.getAxes(), mesh.getShape()) +
                ") is not the mesh --parallel, --mesh and --devices make (" +
                describe(axes, sizes) + ")"};
  }
  b.setInsertionPointToStart(module.getBody());
  kiln::MeshOp::create(b, module.getLoc(), "mesh", axes,
                       b.getDenseI64ArrayAttr(sizes));
  return {};
}
} // namespace

DriverError lowerTo(ModuleOp module, Stage stage,
                    const PipelineOptions &options) {
  PipelineExtensions none;
  const PipelineExtensions &ext =
      options.extensions ? *options.extensions : none;
  auto runPoint = [&](PipelinePoint point) -> DriverError {
    if (!ext.has(point))
      return {};
    std::string what =
        std::string("plugin passes at ") + pipelinePointName(point);
    return runPipeline(module, options.timing, ErrorKind::kInvalidInput, what.c_str(),
                       [&](OpPassManager &pm) { ext.build(point, pm); });
  };
  if (DriverError error = runPoint(PipelinePoint::kAfterImport))
    return error;
  // Invalid models fail here, at the graph contract, with located errors.
  if (DriverError error =
          runPipeline(module, options.timing, ErrorKind::kInvalidInput, "checking the model",
                      [](OpPassManager &pm) { buildCleanupPipeline(pm); }))
    return error;
  // Pre-quantized contractions (QDQ form and ONNX's integer operators) run
  // on the integer kernels, before unsigned activations are lowered (the
  // folds read their ui8 type).
  if (DriverError error =
          runPipeline(module, options.timing, ErrorKind::kInternal,
                      "folding quantized contractions", [](OpPassManager &pm) {
                        pm.addPass(createFoldQdqPass());
                        pm.addPass(createFoldIntegerContractionsPass());
                        pm.addPass(createCanonicalizerPass());
                      }))
    return error;
  if (DriverError error =
          runPipeline(module, options.timing, ErrorKind::kInternal,
                      "folding integer round trips", [](OpPassManager &pm) {
                        pm.addPass(createFoldCastRoundTripsPass());
                        pm.addPass(createCanonicalizerPass());
                      }))
    return error;
  if (options.splitFullReductions)
    if (DriverError error =
            runPipeline(module, options.timing, ErrorKind::kInternal,
                        "splitting full reductions", [](OpPassManager &pm) {
                          pm.addPass(createSplitFullReductionsPass());
                        }))
      return error;
  // Unsigned integers end at the graph level; an op that cannot take them
  // is valid ONNX Kiln does not compile yet.
  if (DriverError error = runPipeline(
          module, options.timing, ErrorKind::kUnsupported,
          "lowering unsigned integers",
          [](OpPassManager &pm) { pm.addPass(createLowerUnsignedPass()); }))
    return error;
  if (options.precision == "int8")
    if (DriverError error = quantizeInt8(module, options))
      return error;
  if (options.precision == "bf16" || options.precision == "fp16")
    if (DriverError error = runPipeline(
            module, options.timing, ErrorKind::kUsage, "assigning precision",
            [&](OpPassManager &pm) {
              AssignPrecisionPassOptions precision;
              precision.precision = options.precision;
              precision.keepFp32.assign(options.keepFp32.begin(),
                                        options.keepFp32.end());
              pm.addPass(createAssignPrecisionPass(precision));
              // Casts of weights fold into converted constants.
              pm.addPass(createCanonicalizerPass());
              pm.addPass(createCSEPass());
            }))
      return error;
  if (options.ranks > 1 || options.dataReplicas > 1 || options.stages > 1) {
    if (std::optional<std::string> bounded = outputWithRuntimeLength(module))
      return {ErrorKind::kUnsupported,
              "output '" + *bounded +
                  "' has a length that depends on the data: splitting a "
                  "model over devices needs outputs of static shape"};
    if (DriverError error = stateMesh(module, options))
      return error;
  }
  if (options.dataReplicas > 1)
    if (DriverError error =
            runPipeline(module, options.timing, ErrorKind::kUnsupported,
                        "splitting the batch over data-parallel replicas",
                        [&](OpPassManager &pm) {
                          SplitBatchPassOptions split;
                          split.parts = options.dataReplicas;
                          pm.addPass(createSplitBatchPass(split));
                        }))
      return error;
  if (options.ranks > 1 && !options.shard.empty()) {
    std::vector<sharding::ShardAnnotation> annotations;
    for (const std::string &text : options.shard) {
      std::string why;
      std::optional<sharding::ShardAnnotation> annotation =
          sharding::parseShardAnnotation(text, why);
      if (!annotation)
        return {ErrorKind::kUsage, why};
      annotations.push_back(*annotation);
    }
    if (failed(sharding::annotateShardings(module, annotations)))
      return {ErrorKind::kUsage, "applying --shard failed"};
  }
  // One rank's program of a sharded model: before fusion, so that fusion
  // groups form around the collectives and over local shapes.
  if (options.ranks > 1 || options.stages > 1)
    if (DriverError error = runPipeline(
            module, options.timing, ErrorKind::kUnsupported, "sharding",
            [&](OpPassManager &pm) {
              auto cutStage = [&](int64_t stages, int64_t stage) {
                PipelineStagesPassOptions cut;
                cut.stages = stages;
                cut.stage = stage;
                cut.microBatches = options.microBatches;
                pm.addPass(createPipelineStagesPass(cut));
              };
              // Pipeline x tensor: the stage, then its split.
              if (options.stages > 1) {
                cutStage(options.stages, options.stage);
                pm.addPass(createCanonicalizerPass());
              }
              if (options.ranks > 1 && options.parallel == "pipeline") {
                cutStage(options.ranks, options.rank);
              } else if (options.ranks > 1) {
                ShardGraphPassOptions shard;
                shard.ranks = options.ranks;
                shard.rank = options.rank;
                shard.strategy = options.parallel;
                shard.fuseCollectivesBelow = options.fuseCollectivesBelow;
                pm.addPass(createShardGraphPass(shard));
              }
              // Slices of weights fold into each rank's own
              // constants.
              pm.addPass(createCanonicalizerPass());
              pm.addPass(createCSEPass());
            }))
      return error;
  // Weight-only quantization after sharding: each rank quantizes its own
  // slices of the weights (groups run along each slice's rows), and the
  // sharding rules see plain contractions.
  if (!options.weightOnly.empty()) {
    std::string problem;
    std::optional<WeightOnlyScheme> scheme =
        parseWeightOnlyScheme(options.weightOnly, problem);
    if (!scheme)
      return DriverError{ErrorKind::kUsage, "--weight-only: " + problem};
    if (DriverError error =
            runPipeline(module, options.timing, ErrorKind::kUsage,
                        "quantizing weights", [&](OpPassManager &pm) {
                          WeightOnlyPassOptions weightOnly;
                          weightOnly.bits = scheme->bits;
                          weightOnly.group = scheme->group;
                          pm.addPass(createWeightOnlyPass(weightOnly));
                          // The f32 weights are dead now.
                          pm.addPass(createCanonicalizerPass());
                        }))
      return error;
  }
  if ((options.ranks > 1 || options.dataReplicas > 1 || options.stages > 1) &&
      options.onPartitioned)
    options.onPartitioned(module);
  if (DriverError error = runPoint(PipelinePoint::kBeforeFusion))
    return error;
  if (options.fusion)
    if (DriverError error =
            runPipeline(module, options.timing, ErrorKind::kInternal, "fusion",
                        [&](OpPassManager &pm) {
                          buildFusionPipeline(pm);
                          if (!options.fusionGroups.empty() ||
                              options.testMiscompileFusionGroup >= 0) {
                            SelectFusionGroupsPassOptions select;
                            select.keep.assign(options.fusionGroups.begin(),
                                               options.fusionGroups.end());
                            select.testMiscompile =
                                options.testMiscompileFusionGroup;
                            pm.addPass(createSelectFusionGroupsPass(select));
                          }
                        }))
      return error;
  for (PipelinePoint point :
       {PipelinePoint::kAfterFusion, PipelinePoint::kBeforeCodegen})
    if (DriverError error = runPoint(point))
      return error;
  if (stage == Stage::kKiln)
    return {};
  if (stage == Stage::kLinalg)
    return runPipeline(module, options.timing, ErrorKind::kUnsupported, "lowering to linalg",
                       [](OpPassManager &pm) {
                         pm.addPass(createConvertGraphToLinalgPass());
                         pm.addPass(createFuseGroupLoopsPass());
                       });
  // Beyond the graph level a failure means an op we cannot lower yet.
  return runPipeline(module, options.timing, ErrorKind::kUnsupported,
                     "CPU code generation", [&](OpPassManager &pm) {
                       buildCpuCodegenPipeline(pm, options.stepPerKernel,
                                               options.rawConstantBytes);
                     });
}

namespace {
/// Lowers `module` through `lower` (given `options` that watch for the
/// partitioned graph) and describes its entry point. The signature must be
/// read at the graph level (afterwards only raw buffers remain): a
/// pipeline stage's once it is cut. The arena size is read after lowering.
DriverError lowerAndDescribe(
    ModuleOp module, const std::string &entry, EntrySignature &signature,
    const PipelineOptions &options,
    llvm::function_ref<DriverError(const PipelineOptions &)> lower) {
  FailureOr<EntrySignature> graphSignature = getEntrySignature(module, entry);
  if (failed(graphSignature))
    return {ErrorKind::kInvalidInput, "the model has no usable entry point"};
  PipelineOptions partitioning = options;
  partitioning.onPartitioned = [&](ModuleOp partitioned) {
    graphSignature = getEntrySignature(partitioned, entry);
    if (options.onPartitioned)
      options.onPartitioned(partitioned);
  };
  if (DriverError error = lower(partitioning))
    return error;
  if (failed(graphSignature))
    return {ErrorKind::kInternal, "partitioning lost the entry point"};
  FailureOr<uint64_t> arena = readArenaBytes(module);
  if (failed(arena))
    return {ErrorKind::kInternal, "lowering lost the arena size"};
  signature = std::move(*graphSignature);
  signature.arenaBytes = *arena;
  return {};
}

/// Lowers to the LLVM dialect and takes the schedule out of the module.
DriverError lowerForCpu(ModuleOp module, const std::string &entry,
                        EntrySignature &signature, rt::DeviceProgram &program,
                        const PipelineOptions &options) {
  if (DriverError error =
          lowerAndDescribe(module, entry, signature, options,
                           [&](const PipelineOptions &partitioning) {
                             return lowerTo(module, Stage::kLLVM, partitioning);
                           }))
    return error;
  FailureOr<rt::DeviceProgram> extracted =
      extractProgram(module, signature.function);
  if (failed(extracted))
    return {ErrorKind::kInternal, "lowering lost the schedule"};
  program = std::move(*extracted);
  return {};
}
} // namespace

DriverError compileForCpu(ModuleOp module, const std::string &entry,
                          std::unique_ptr<CpuJitExecutable> &executable,
                          const PipelineOptions &options) {
  EntrySignature signature;
  rt::DeviceProgram program;
  // The JIT takes the weights out of the module, as artifacts do: they
  // need not be flattened.
  PipelineOptions lowering = options;
  lowering.rawConstantBytes = kLargeConstantBytes;
  if (DriverError error =
          lowerForCpu(module, entry, signature, program, lowering))
    return error;
  rt::ExecutableOptions run;
  run.threads = options.threads;
  TimingScope codegen = nestedTiming(options, "LLVM: JIT machine code");
  auto compiled = CpuJitExecutable::create(module, std::move(signature),
                                           std::move(program), run);
  codegen.stop();
  if (!compiled.isOk())
    return {ErrorKind::kInternal, compiled.status().message()};
  executable = std::move(*compiled);
  return {};
}

DriverError compileToArtifact(ModuleOp module, const std::string &entry,
                              rt::Artifact &artifact, const std::string &cpu,
                              const PipelineOptions &options) {
  EntrySignature signature;
  rt::DeviceProgram program;
  // The accuracy budget's measurements ride along in the artifact.
  std::optional<rt::PrecisionReport> report;
  PipelineOptions reported = options;
  if (options.maxAccuracyDrop >= 0)
    reported.precisionReport = &report.emplace();
  reported.rawConstantBytes = rawConstantBytes();
  if (DriverError error =
          lowerForCpu(module, entry, signature, program, reported))
    return error;
  // Read before the module is translated; the plan rides along in the
  // artifact for tools (the offsets are already in the code).
  FailureOr<rt::MemoryPlan> plan = readMemoryPlan(module, signature.function);
  if (failed(plan))
    return {ErrorKind::kInternal, "lowering lost the memory plan"};
  TimingScope codegen =
      nestedTiming(options, "LLVM: object code and shared object");
  auto built =
      buildCpuArtifact(module, signature, std::move(program), cpu, &codegen);
  codegen.stop();
  if (!built.isOk())
    return {built.status().code() == rt::StatusCode::kInvalidArgument
                ? ErrorKind::kUsage
                : ErrorKind::kInternal,
            built.status().message()};
  artifact = std::move(*built);
  plan->device = 0;
  artifact.memoryPlans.push_back(std::move(*plan));
  artifact.precisionReport = std::move(report);
  return {};
}

DriverError generateCuda(ModuleOp module, const std::string &entry,
                         cuda::CudaProgram &program,
                         EntrySignature &signature, rt::MemoryPlan *plan,
                         const PipelineOptions &options, unsigned oldestSm) {
  if (DriverError error = lowerAndDescribe(
          module, entry, signature, options,
          [&](const PipelineOptions &partitioning) -> DriverError {
            PipelineOptions cuda = partitioning;
            cuda.splitFullReductions = false;
            if (DriverError error = lowerTo(module, Stage::kKiln, cuda))
              return error;
            return runPipeline(module, options.timing, ErrorKind::kUnsupported,
                               "CUDA code generation", [](OpPassManager &pm) {
                                 cuda::buildCudaPreparationPipeline(pm);
                               });
          }))
    return error;
  auto function = module.lookupSymbol<func::FuncOp>(signature.function);
  if (!function)
    return {ErrorKind::kInternal, "the entry vanished during lowering"};
  if (plan) {
    FailureOr<rt::MemoryPlan> recorded =
        readMemoryPlan(module, signature.function);
    if (failed(recorded))
      return {ErrorKind::kInternal, "lowering lost the memory plan"};
    *plan = std::move(*recorded);
  }
  FailureOr<cuda::CudaProgram> printed =
      cuda::emitCudaProgram(function, unsigned(signature.inputs.size()),
                            unsigned(signature.outputs.size()), oldestSm);
  if (failed(printed))
    return {ErrorKind::kUnsupported, "CUDA code generation failed"};
  program = std::move(*printed);
  // The launches as a schedule: the same level and serialiser as the CPU.
  if (failed(cuda::addCudaSchedule(module, function,
                                   program, unsigned(signature.inputs.size()),
                                   unsigned(signature.outputs.size()),
                                   signature.arenaBytes)))
    return {ErrorKind::kInternal, "the CUDA schedule does not verify"};
  FailureOr<rt::DeviceProgram> schedule =
      extractProgram(module, signature.function);
  if (failed(schedule))
    return {ErrorKind::kInternal, "lowering lost the CUDA schedule"};
  program.schedule = std::move(*schedule);
  return {};
}

DriverError compileToCudaArtifact(ModuleOp module, const std::string &entry,
                                  const std::string &target,
                                  rt::Artifact &artifact,
                                  const PipelineOptions &options) {
  auto parsed = CudaTarget::parse(target);
  if (!parsed.isOk())
    return {ErrorKind::kUsage, parsed.status().message()};
  cuda::CudaProgram program;
  EntrySignature signature;
  rt::MemoryPlan plan;
  if (DriverError error =
          generateCuda(module, entry, program, signature, &plan, options,
                       parsed->archs.front()))
    return error;
  CudaBuildStats stats;
  TimingScope nvrtc = nestedTiming(options, "NVRTC: PTX and CUBIN");
  auto built = buildCudaArtifact(program, signature, *parsed, &stats);
  nvrtc.stop();
  if (options.timing)
    llvm::errs() << "NVRTC: " << stats.programs << " program(s), "
                 << stats.compiled << " compiled, " << stats.cacheHits
                 << " from the kernel cache\n";
  if (!built.isOk())
    return {built.status().code() == rt::StatusCode::kUnavailable
                ? ErrorKind::kUnavailable
                : ErrorKind::kInternal,
            built.status().message()};
  artifact = std::move(*built);
  plan.device = 0;
  artifact.memoryPlans.push_back(std::move(plan));
  return {};
}

} // namespace kiln::compiler
