//===- Compiler.cpp - kiln::Compiler over the driver ----------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Every call compiles in a fresh MLIRContext whose diagnostics are captured
// as text, formatted exactly as kilnc prints them, and returned in the
// Status: the API and the CLI report the same located errors.
//
//===----------------------------------------------------------------------===//

#include "CompileCache.h"
#include "CompilerImpl.h"
#include "ExecutableImpl.h"
#include "ParallelOptions.h"
#include "PassPlugins.h"

#include "compiler/Driver/Driver.h"
#include "compiler/GraphTransforms/WeightOnly.h"
#include "compiler/MemoryPlanning/BufferLiveness.h"
#include "compiler/Quantization/Observers.h"
#include "compiler/Target/CudaArtifact.h"
#include "kiln/Graph.h"
#include "kiln/runtime/RankedArtifact.h"

#include "dialects/Graph/IR/GraphOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Support/Timing.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <atomic>
#include <set>
#include <thread>

using namespace mlir;
using kiln::compiler::DriverError;
using kiln::compiler::ErrorKind;

namespace kiln {

//===----------------------------------------------------------------------===//
// ModelSource
//===----------------------------------------------------------------------===//

ModelSource ModelSource::file(std::string path) {
  return ModelSource(Kind::kFile, std::move(path), "");
}

ModelSource ModelSource::onnxBytes(std::string bytes, std::string name) {
  return ModelSource(Kind::kOnnxBytes, std::move(name), std::move(bytes));
}

ModelSource ModelSource::mlirText(std::string text, std::string name) {
  return ModelSource(Kind::kMlirText, std::move(name), std::move(text));
}

StatusOr<ModelSource> ModelSource::graph(const Graph &graph) {
  StatusOr<std::string> bytes = graph.toBytecode();
  if (!bytes.isOk())
    return bytes.status();
  return ModelSource(Kind::kMlirText, graph.name(), std::move(*bytes));
}

//===----------------------------------------------------------------------===//
// A compilation
//===----------------------------------------------------------------------===//

namespace {
StatusCode statusCodeOf(ErrorKind kind) {
  switch (kind) {
  case ErrorKind::kNone:
    return StatusCode::kOk;
  case ErrorKind::kUsage:
    return StatusCode::kFailedPrecondition;
  case ErrorKind::kInvalidInput:
    return StatusCode::kInvalidArgument;
  case ErrorKind::kUnsupported:
    return StatusCode::kUnimplemented;
  case ErrorKind::kInternal:
    return StatusCode::kInternal;
  case ErrorKind::kUnavailable:
    return StatusCode::kUnavailable;
  }
  return StatusCode::kInternal;
}

/// One MLIRContext with diagnostics captured as kilnc would print them.
class Session {
public:
  Session()
      : context_(compiler::createContext()),
        sourceHandler_(sourceMgr_, context_.get(), stream_),
        modelHandler_(*context_, stream_) {}

  MLIRContext &context() { return *context_; }

  /// The failure as a Status: the diagnostics printed so far, one per line,
  /// then the driver's one-line summary.
  Status fail(const DriverError &error) {
    stream_.flush();
    std::string message = text_;
    if (!error.message.empty())
      message += error.message;
    while (!message.empty() && message.back() == '\n')
      message.pop_back();
    if (message.empty())
      message = "compilation failed";
    return Status(statusCodeOf(error.kind), message);
  }

  DriverError load(const ModelSource &source, const CompileOptions &options,
                   OwningOpRef<ModuleOp> &module) {
    compiler::LoadOptions load;
    load.inputShapes = options.inputShapes;
    load.boundInputs = options.boundInputs;
    // Several sizes: only compileToArtifact packs them; everything else
    // works on the smallest, the artifact's own program.
    if (!options.batchSizes.empty())
      load.batchSize = *std::min_element(options.batchSizes.begin(),
                                         options.batchSizes.end());
    switch (source.kind()) {
    case ModelSource::Kind::kFile:
      return compiler::loadModel(*context_, source.name(), module, load);
    case ModelSource::Kind::kOnnxBytes:
      return compiler::loadModelFromMemory(
          *context_, compiler::ModelFormat::kOnnx, source.bytes(),
          source.name(), module, load);
    case ModelSource::Kind::kMlirText:
      return compiler::loadModelFromMemory(
          *context_, compiler::ModelFormat::kMlir, source.bytes(),
          source.name(), module, load);
    }
    return {ErrorKind::kInternal, "unknown model source"};
  }

private:
  std::unique_ptr<MLIRContext> context_;
  std::string text_;
  llvm::raw_string_ostream stream_{text_};
  llvm::SourceMgr sourceMgr_;
  // Registered first, so it runs last: everything with a source line.
  SourceMgrDiagnosticHandler sourceHandler_;
  // Imported models (no source text): "model.onnx: error: node 'n': ...".
  compiler::ModelDiagnosticPrinter modelHandler_;
};

/// A module JIT-compiled in-process.
class JitExecutable : public Executable::Impl {
public:
  explicit JitExecutable(std::unique_ptr<compiler::CpuJitExecutable> jit)
      : jit_(std::move(jit)) {}
  const std::vector<TensorInfo> &inputs() const override {
    return jit_->signature().inputs;
  }
  const std::vector<TensorInfo> &outputs() const override {
    return jit_->signature().outputs;
  }
  const std::string &description() const override { return description_; }
  const rt::Program &program() const override {
    return jit_->executable().program();
  }
  Status run(const std::vector<Tensor> &inputs,
             std::vector<Tensor> &outputs) override {
    return jit_->run(inputs, outputs);
  }
  Status run(const std::vector<TensorRef> &inputs,
             const std::vector<TensorRef> &outputs) override {
    return jit_->run(inputs, outputs);
  }
  Status run(const std::vector<Tensor> &inputs, std::vector<Tensor> &outputs,
             const RunOptions &options) override {
    return jit_->run(inputs, outputs, options);
  }

private:
  std::unique_ptr<compiler::CpuJitExecutable> jit_;
  std::string description_ = "cpu (jit)";
};
} // namespace

namespace {
/// The generated CUDA C++ of `module`, or its PTX.
StatusOr<std::string> emitCuda(Session &session, ModuleOp module,
                               const CompileOptions &options,
                               const compiler::PipelineOptions &pipeline,
                               bool ptx) {
  std::string target = compiler::CudaTarget::isCuda(options.target)
                           ? options.target
                           : "cuda";
  auto parsed = compiler::CudaTarget::parse(target);
  if (!parsed.isOk())
    return Status(StatusCode::kUnimplemented, parsed.status().message());
  compiler::cuda::CudaProgram program;
  compiler::EntrySignature signature;
  if (DriverError error =
          compiler::generateCuda(module, options.entry, program, signature,
                                 nullptr, pipeline, parsed->archs.front()))
    return session.fail(error);
  if (!ptx)
    return program.source() + program.launchSummary();
  // The newest architecture the target names.
  return compiler::compileCudaToPtx(program, parsed->archs.back());
}
} // namespace

//===----------------------------------------------------------------------===//
// Compiler
//===----------------------------------------------------------------------===//

/// --batch-sizes: sizes in range, no repeats, nothing it cannot combine with.
static Status checkBatchSizes(const CompileOptions &options) {
  const std::vector<int64_t> &sizes = options.batchSizes;
  if (sizes.size() > 1 + rt::kMaxBatchVariants)
    return Status(StatusCode::kFailedPrecondition,
                  "--batch-sizes: at most " +
                      std::to_string(1 + rt::kMaxBatchVariants) + " sizes");
  std::set<int64_t> seen;
  for (int64_t size : sizes) {
    if (size < 1 || size > 65536)
      return Status(StatusCode::kFailedPrecondition,
                    "--batch-sizes: " + std::to_string(size) +
                        " is not a batch size (1 to 65536)");
    if (!seen.insert(size).second)
      return Status(StatusCode::kFailedPrecondition,
                    "--batch-sizes: " + std::to_string(size) +
                        " is given twice");
  }
  if (sizes.size() > 1 && options.devices != 1)
    return Status(StatusCode::kFailedPrecondition,
                  "--batch-sizes with several sizes does not combine with "
                  "--devices");
  return Status::ok();
}

/// The precision options' consistency (the pipeline checks node names and
/// calibration data).
static Status checkPrecisionOptions(const CompileOptions &options) {
  const std::string &precision = options.precision;
  if (precision != "fp32" && precision != "bf16" && precision != "fp16" &&
      precision != "int8")
    return Status(StatusCode::kFailedPrecondition,
                  "unknown precision '" + precision +
                      "' (fp32, bf16, fp16, int8)");
  if (precision != "bf16" && precision != "fp16" && !options.keepFp32.empty())
    return Status(StatusCode::kFailedPrecondition,
                  "keep-fp32 nodes need --precision bf16 or fp16");
  if (precision == "int8" && options.calibrationData.empty())
    return Status(StatusCode::kFailedPrecondition,
                  "precision int8 needs calibration data (a folder with one "
                  "sub-folder per sample, --calibration-data DIR)");
  if (precision != "int8" && !options.calibrationData.empty())
    return Status(StatusCode::kFailedPrecondition,
                  "calibration data is only for --precision int8");
  if (!options.weightOnly.empty()) {
    std::string error;
    if (!compiler::parseWeightOnlyScheme(options.weightOnly, error))
      return Status(StatusCode::kFailedPrecondition, "--weight-only: " + error);
    if (precision != "fp32")
      return Status(StatusCode::kFailedPrecondition,
                    "--weight-only quantizes weights of an fp32 model; it "
                    "does not combine with --precision " +
                        precision);
  }
  bool budgeted = options.maxAccuracyDrop >= 0;
  if (budgeted && (precision != "int8" || options.validationData.empty() ||
                   options.validationLabels.empty()))
    return Status(StatusCode::kFailedPrecondition,
                  "--max-accuracy-drop needs --precision int8, "
                  "--validation-data DIR and --validation-labels FILE.npy");
  if (!budgeted &&
      (!options.validationData.empty() || !options.validationLabels.empty()))
    return Status(StatusCode::kFailedPrecondition,
                  "validation data is only for --max-accuracy-drop");
  if (budgeted && options.maxAccuracyDrop > 100)
    return Status(StatusCode::kFailedPrecondition,
                  "--max-accuracy-drop is in points of top-1 (0 to 100)");
  if (budgeted && (options.target != "cpu" || options.devices != 1))
    return Status(StatusCode::kFailedPrecondition,
                  "--max-accuracy-drop measures on this CPU: it is for "
                  "--target cpu on one device");
  if (!compiler::parseCalibrationMethod(options.calibrationMethod))
    return Status(StatusCode::kFailedPrecondition,
                  "unknown calibration method '" + options.calibrationMethod +
                      "' (minmax, percentile, entropy)");
  return Status::ok();
}

compiler::PipelineOptions
Compiler::Impl::pipeline(const CompileOptions &options,
                         mlir::TimingScope *timing) const {
  compiler::PipelineOptions pipeline{&extensions,
                                     options.fusion,
                                     options.threads,
                                     options.stepPerKernel,
                                     timing,
                                     options.fusionGroups,
                                     options.testMiscompileFusionGroup,
                                     options.precision,
                                     options.keepFp32,
                                     options.calibrationData,
                                     options.calibrationMethod,
                                     options.weightOnly,
                                     parallel.ranks,
                                     /*rank=*/0,
                                     parallel.strategy,
                                     options.microBatches,
                                     options.shard,
                                     /*onPartitioned=*/nullptr,
                                     parallel.replicas};
  pipeline.stages = parallel.stages;
  pipeline.fuseCollectivesBelow = options.fuseCollectivesBelow;
  pipeline.maxAccuracyDrop = options.maxAccuracyDrop;
  pipeline.validationData = options.validationData;
  pipeline.validationLabels = options.validationLabels;
  return pipeline;
}

StatusOr<std::unique_ptr<Compiler>> Compiler::create(CompileOptions options) {
  if (compiler::CudaTarget::isCuda(options.target)) {
    auto parsed = compiler::CudaTarget::parse(options.target);
    if (!parsed.isOk())
      return Status(StatusCode::kUnimplemented, parsed.status().message());
  } else if (options.target != "cpu") {
    return Status(StatusCode::kUnimplemented,
                  "target '" + options.target +
                      "' is not supported (cpu, cuda, cuda:sm_XX)");
  }
  KILN_RETURN_IF_ERROR(checkPrecisionOptions(options));
  KILN_RETURN_IF_ERROR(checkBatchSizes(options));
  StatusOr<ParallelPlan> parallel = planParallelism(options);
  if (!parallel.isOk())
    return parallel.status();
  auto impl = std::make_unique<Impl>();
  for (const std::string &path : options.passPlugins)
    KILN_RETURN_IF_ERROR(compiler::loadPassPlugin(path, impl->extensions));
  impl->options = std::move(options);
  impl->parallel = *parallel;
  return std::unique_ptr<Compiler>(new Compiler(std::move(impl)));
}

Compiler::Compiler(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Compiler::~Compiler() = default;

const CompileOptions &Compiler::options() const { return impl_->options; }

namespace {
/// CompileOptions::timeReport: times one compile call, stage by stage and
/// pass by pass, and prints the report to stderr when it goes.
class CompileTimer {
public:
  explicit CompileTimer(bool enabled) {
    if (!enabled)
      return;
    manager_.setEnabled(true);
    manager_.setDisplayMode(mlir::DefaultTimingManager::DisplayMode::Tree);
    root_ = manager_.getRootScope();
  }
  mlir::TimingScope *root() { return root_ ? &*root_ : nullptr; }
  /// A section of the report (inert when not timing).
  mlir::TimingScope nest(const char *name) {
    return root_ ? root_->nest(name) : mlir::TimingScope();
  }

private:
  mlir::DefaultTimingManager manager_;
  std::optional<mlir::TimingScope> root_; // Destroyed first.
};
} // namespace

StatusOr<std::unique_ptr<Executable>>
Compiler::compile(const ModelSource &source) {
  return impl_->compile(source, impl_->options);
}

namespace {
/// A compile's use of the compile cache: the key, if the compile can be
/// cached, and what --time-report says about it.
struct CacheUse {
  CompileCache cache;
  std::optional<CompileCache::Key> key;
  bool report;

  CacheUse(const ModelSource &source, const CompileOptions &options,
           CompileCache::Use use)
      : cache(CompileCache::forOptions(options)), report(options.timeReport) {
    std::string why;
    key = cache.key(source, options, use, &why);
    if (!key && report && compiler::CudaTarget::isCuda(options.target))
      report = false; // NVRTC's own cache reports itself.
    if (!key && report)
      llvm::errs() << "compile cache: not used (" << why << ")\n";
  }
  void reportLookup(bool hit) {
    if (report)
      llvm::errs() << "compile cache: " << (hit ? "hit" : "miss") << "\n";
  }
  /// The artifact, decoded (to run it).
  std::optional<rt::Artifact> lookupArtifact(const std::string &name) {
    if (!key)
      return std::nullopt;
    std::optional<rt::Artifact> artifact = cache.lookupArtifact(*key, name);
    reportLookup(artifact.has_value());
    return artifact;
  }
  /// Its encoded bytes (to write them).
  std::optional<compiler::DiskCache::Hit> lookupBytes() {
    if (!key)
      return std::nullopt;
    std::optional<compiler::DiskCache::Hit> hit = cache.lookup(*key);
    reportLookup(hit.has_value());
    return hit;
  }
  void store(const rt::Artifact &artifact) {
    if (key)
      cache.store(*key, artifact);
  }
};
} // namespace

StatusOr<std::unique_ptr<Executable>>
Compiler::Impl::compile(const ModelSource &source,
                        const CompileOptions &options,
                        DriverError *loadError) const {
  const std::string name = source.name().empty() ? "model" : source.name();
  auto load =
      executableOptions(options.threads, options.gemm, options.gemmTimingCache);
  if (!load.isOk())
    return load.status();
  CacheUse cached(source, options, CompileCache::Use::kJit);
  if (std::optional<rt::Artifact> artifact = cached.lookupArtifact(name))
    return makeArtifactExecutable(std::move(*artifact), name, *load,
                                  "cpu (jit, from the compile cache)");
  CompileTimer timer(options.timeReport);
  Session session;
  OwningOpRef<ModuleOp> module;
  mlir::TimingScope importing = timer.nest("import");
  if (DriverError error = session.load(source, options, module)) {
    if (loadError)
      *loadError = error;
    return session.fail(error);
  }
  importing.stop();
  if (compiler::CudaTarget::isCuda(options.target)) {
    // GPUs run what an artifact holds; it just never touches the disk.
    rt::Artifact artifact;
    if (DriverError error = compiler::compileToCudaArtifact(
            *module, options.entry, options.target, artifact,
            pipeline(options, timer.root())))
      return session.fail(error);
    return makeArtifactExecutable(std::move(artifact), name, *load);
  }
  if (cached.key) {
    // A shared object for this CPU, kept for the next compile.
    rt::Artifact artifact;
    if (DriverError error = compiler::compileToArtifact(
            *module, options.entry, artifact, "native",
            pipeline(options, timer.root())))
      return session.fail(error);
    cached.store(artifact);
    return makeArtifactExecutable(std::move(artifact), name, *load,
                                  "cpu (jit)");
  }
  std::unique_ptr<compiler::CpuJitExecutable> jit;
  if (DriverError error = compiler::compileForCpu(
          *module, options.entry, jit, pipeline(options, timer.root())))
    return session.fail(error);
  return std::make_unique<Executable>(
      std::make_unique<JitExecutable>(std::move(jit)));
}

/// `bytes` as the file at `path`, through a temporary file renamed into
/// place (a reader never sees half an artifact).
static Status writeBytes(const std::string &path, llvm::StringRef bytes) {
  std::string temporary = path + ".tmp";
  {
    std::error_code ec;
    llvm::raw_fd_ostream out(temporary, ec);
    if (!ec) {
      out << bytes;
      out.close();
      ec = out.error();
    }
    if (ec) {
      llvm::sys::fs::remove(temporary);
      return Status(StatusCode::kFailedPrecondition,
                    "cannot write " + path + ": " + ec.message());
    }
  }
  if (std::error_code ec = llvm::sys::fs::rename(temporary, path)) {
    llvm::sys::fs::remove(temporary);
    return Status(StatusCode::kFailedPrecondition,
                  "cannot write " + path + ": " + ec.message());
  }
  return Status::ok();
}

namespace {
/// The shared object or the CUDA modules.
uint64_t kernelBytesOf(const rt::Artifact &artifact) {
  uint64_t bytes = artifact.cpuKernels.size();
  for (const rt::CudaModule &module : artifact.cudaModules)
    bytes += module.image.size();
  return bytes;
}
} // namespace

Status Compiler::compileToArtifact(const ModelSource &source,
                                   const std::string &path,
                                   ArtifactReport *report) {
  if (impl_->options.batchSizes.size() > 1)
    return compileBatchVariants(source, path, report);
  auto write = [&](const rt::Artifact &artifact) {
    if (Status status = rt::writeArtifactFile(path, artifact); !status.isOk())
      // Where to write is the caller's choice: a usage error.
      return Status(StatusCode::kFailedPrecondition, status.message());
    if (report) {
      report->kernelBytes = kernelBytesOf(artifact);
    }
    return Status::ok();
  };
  CacheUse cached(source, impl_->options, CompileCache::Use::kArtifact);
  if (std::optional<compiler::DiskCache::Hit> hit = cached.lookupBytes()) {
    // Written as stored (kiln-run validates it when it loads it): decoding
    // and encoding again would copy every weight twice.
    if (Status status = writeBytes(path, hit->value); !status.isOk())
      return status;
    if (report)
      report->fromCache = true;
    return Status::ok();
  }
  CompileTimer timer(impl_->options.timeReport);
  Session session;
  OwningOpRef<ModuleOp> module;
  mlir::TimingScope importing = timer.nest("import");
  if (DriverError error = session.load(source, impl_->options, module))
    return session.fail(error);
  importing.stop();
  if (impl_->options.devices > 1)
    return compileRankedArtifact(source, path, report);
  rt::Artifact artifact;
  bool cuda = compiler::CudaTarget::isCuda(impl_->options.target);
  DriverError error =
      cuda ? compiler::compileToCudaArtifact(*module, impl_->options.entry,
                                             impl_->options.target, artifact,
                                             impl_->pipeline(impl_->options, timer.root()))
           : compiler::compileToArtifact(*module, impl_->options.entry,
                                         artifact, impl_->options.targetCpu,
                                         impl_->pipeline(impl_->options, timer.root()));
  if (error)
    return session.fail(error);
  cached.store(artifact);
  mlir::TimingScope writing = timer.nest("writing the artifact");
  return write(artifact);
}

Status Compiler::compileRankedArtifact(const ModelSource &source,
                                       const std::string &path,
                                       ArtifactReport *report) {
  CompileTimer timer(impl_->options.timeReport);
  // Pipeline x tensor: program p * ranks + t is stage p's tensor rank t.
  size_t stageRanks = size_t(impl_->parallel.ranks);
  size_t ranks = stageRanks * size_t(impl_->parallel.stages);
  std::vector<rt::Artifact> artifacts(ranks);
  std::vector<Status> statuses(ranks);
  // Each rank lowers its own copy of the model (its shapes and weights
  // differ from the others') in its own context, so ranks compile in
  // parallel, one per core; --time-report's timer is not thread-safe.
  auto compileRank = [&](size_t rank) {
    Session session;
    OwningOpRef<ModuleOp> module;
    if (DriverError error = session.load(source, impl_->options, module)) {
      statuses[rank] = session.fail(error);
      return;
    }
    compiler::PipelineOptions pipeline =
        impl_->pipeline(impl_->options, timer.root());
    pipeline.rank = int64_t(rank % stageRanks);
    pipeline.stage = int64_t(rank / stageRanks);
    DriverError error =
        compiler::CudaTarget::isCuda(impl_->options.target)
            ? compiler::compileToCudaArtifact(*module, impl_->options.entry,
                                              impl_->options.target,
                                              artifacts[rank], pipeline)
            : compiler::compileToArtifact(*module, impl_->options.entry,
                                          artifacts[rank],
                                          impl_->options.targetCpu, pipeline);
    if (error)
      statuses[rank] = session.fail(error);
  };
  size_t workers = impl_->options.timeReport
                       ? 1
                       : std::min<size_t>(
                             ranks, std::max(1u, std::thread::hardware_concurrency()));
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t rank; (rank = next++) < ranks;)
      compileRank(rank);
  };
  std::vector<std::thread> threads;
  for (size_t i = 1; i < workers; ++i)
    threads.emplace_back(work);
  work();
  for (std::thread &thread : threads)
    thread.join();
  // The lowest failing rank's error: usually every rank fails alike.
  for (const Status &status : statuses)
    if (!status.isOk())
      return status;
  rt::RankedArtifact ranked;
  ranked.strategy = impl_->options.parallel;
  ranked.microBatches = uint32_t(impl_->options.microBatches);
  ranked.replicas = uint32_t(impl_->parallel.replicas);
  if (impl_->options.parallel == "pipeline,tensor")
    ranked.stageRanks = uint32_t(stageRanks);
  for (rt::Artifact &artifact : artifacts) {
    if (report)
      report->kernelBytes += kernelBytesOf(artifact);
    ranked.ranks.push_back(std::move(artifact));
  }
  if (Status status = rt::writeRankedArtifactFile(path, ranked);
      !status.isOk())
    return Status(StatusCode::kFailedPrecondition, status.message());
  return Status::ok();
}

Status Compiler::compileBatchVariants(const ModelSource &source,
                                      const std::string &path,
                                      ArtifactReport *report) {
  std::vector<int64_t> sizes = impl_->options.batchSizes;
  std::sort(sizes.begin(), sizes.end());
  rt::Artifact base;
  bool fromCache = true;
  uint64_t kernelBytes = 0;
  for (int64_t size : sizes) {
    // Each size is a compile of its own (and a compile cache entry of its
    // own); its artifact goes through a temporary file.
    auto fail = [&](const Status &status) {
      return Status(status.code(), "batch size " + std::to_string(size) + ": " +
                                       status.message());
    };
    CompileOptions options = impl_->options;
    options.batchSizes = {size};
    StatusOr<std::unique_ptr<Compiler>> compiler = create(std::move(options));
    if (!compiler.isOk())
      return fail(compiler.status());
    llvm::SmallString<128> temporary;
    if (std::error_code ec =
            llvm::sys::fs::createTemporaryFile("kiln-batch", "kiln", temporary))
      return Status(StatusCode::kFailedPrecondition,
                    "cannot create a temporary file: " + ec.message());
    ArtifactReport variantReport;
    Status compiled = (*compiler)->compileToArtifact(
        source, std::string(temporary), &variantReport);
    StatusOr<rt::Artifact> artifact =
        compiled.isOk() ? rt::readArtifactFile(std::string(temporary))
                        : StatusOr<rt::Artifact>(compiled);
    llvm::sys::fs::remove(temporary);
    if (!artifact.isOk())
      return fail(artifact.status());
    fromCache = fromCache && variantReport.fromCache;
    kernelBytes += variantReport.kernelBytes;
    // A model whose outputs do not follow the batch (a scalar loss, a
    // reshape to fixed rows) cannot be served in batches.
    Status batches =
        size == sizes.front()
            ? rt::programBatch(artifact->program).status()
            : rt::checkBatchVariant(base.program, artifact->program, size);
    if (!batches.isOk())
      return fail(
          Status(StatusCode::kFailedPrecondition,
                 "the model does not batch on axis 0: " + batches.message()));
    if (size == sizes.front())
      base = std::move(*artifact);
    else
      base.batchVariants.push_back(
          {uint32_t(size),
           std::make_shared<const rt::Artifact>(std::move(*artifact))});
  }
  std::vector<uint8_t> bytes = rt::encodeArtifact(base);
  if (Status status = writeBytes(
          path, llvm::StringRef(reinterpret_cast<const char *>(bytes.data()),
                                bytes.size()));
      !status.isOk())
    return status;
  if (report) {
    report->kernelBytes = kernelBytes;
    report->fromCache = fromCache;
  }
  return Status::ok();
}

StatusOr<std::string> Compiler::emitIR(const ModelSource &source, IRStage stage,
                                       bool withLocations) {
  Session session;
  OwningOpRef<ModuleOp> module;
  if (DriverError error = session.load(source, impl_->options, module))
    return session.fail(error);
  if (stage == IRStage::kCuda || stage == IRStage::kPtx)
    return emitCuda(session, *module, impl_->options, impl_->pipeline(impl_->options),
                    stage == IRStage::kPtx);
  compiler::Stage driverStage =
      stage == IRStage::kGraph    ? compiler::Stage::kKiln
      : stage == IRStage::kLinalg ? compiler::Stage::kLinalg
                                  : compiler::Stage::kLLVM;
  if (DriverError error =
          compiler::lowerTo(*module, driverStage, impl_->pipeline(impl_->options)))
    return session.fail(error);
  std::string text;
  llvm::raw_string_ostream os(text);
  OpPrintingFlags flags;
  if (withLocations)
    flags.enableDebugInfo();
  module->print(os, flags);
  os.flush();
  return text;
}

namespace {
/// `source` loaded and taken to the graph level, fusion groups formed.
DriverError loadGrouped(Session &session, const ModelSource &source,
                        const Compiler::Impl &impl,
                        OwningOpRef<ModuleOp> &module) {
  if (DriverError error = session.load(source, impl.options, module))
    return error;
  return compiler::lowerTo(*module, compiler::Stage::kKiln, impl.pipeline(impl.options));
}

/// The module's fusion groups in walk order: the order of their numbers.
SmallVector<FusionOp> groupsOf(ModuleOp module) {
  SmallVector<FusionOp> groups;
  module.walk([&](FusionOp group) { groups.push_back(group); });
  return groups;
}
} // namespace

StatusOr<std::vector<Compiler::FusionGroup>>
Compiler::fusionGroups(const ModelSource &source) {
  Session session;
  OwningOpRef<ModuleOp> module;
  if (DriverError error = loadGrouped(session, source, *impl_, module))
    return session.fail(error);
  std::vector<FusionGroup> groups;
  for (auto [number, op] : llvm::enumerate(groupsOf(*module))) {
    FusionGroup group;
    group.number = int64_t(number);
    group.kind = op.getKind().value_or("group").str();
    for (Operation &inner : op.getBodyBlock().without_terminator()) {
      if (isa<ConstantOp>(inner))
        continue;
      std::string name = compiler::describeLocation(inner.getLoc());
      if (!name.empty() && llvm::find(group.ops, name) == group.ops.end())
        group.ops.push_back(name);
    }
    groups.push_back(std::move(group));
  }
  return groups;
}

StatusOr<std::string> Compiler::extractFusionGroup(const ModelSource &source,
                                                   int64_t number) {
  Session session;
  OwningOpRef<ModuleOp> module;
  if (DriverError error = loadGrouped(session, source, *impl_, module))
    return session.fail(error);
  SmallVector<FusionOp> groups = groupsOf(*module);
  if (number < 0 || size_t(number) >= groups.size())
    return Status(StatusCode::kFailedPrecondition,
                  "the model has " + std::to_string(groups.size()) +
                      " fusion groups; there is no group " +
                      std::to_string(number));
  FusionOp group = groups[size_t(number)];
  // A function of the group's inputs returning its results, the body
  // cloned op by op (ungrouped: the reproducer fuses it again, or not).
  OpBuilder builder(module->getContext());
  OwningOpRef<ModuleOp> extracted = ModuleOp::create(group.getLoc());
  builder.setInsertionPointToEnd(extracted->getBody());
  auto type = builder.getFunctionType(group.getInputs().getTypes(),
                                      group.getResultTypes());
  auto function = func::FuncOp::create(
      builder, group.getLoc(), "fusion_group_" + std::to_string(number), type);
  Block *entry = function.addEntryBlock();
  builder.setInsertionPointToEnd(entry);
  IRMapping mapping;
  for (auto [argument, input] :
       llvm::zip(group.getBodyBlock().getArguments(), entry->getArguments()))
    mapping.map(argument, input);
  for (Operation &inner : group.getBodyBlock().without_terminator())
    builder.clone(inner, mapping);
  SmallVector<Value> results;
  for (Value value : group.getYield().getValues())
    results.push_back(mapping.lookupOrDefault(value));
  func::ReturnOp::create(builder, group.getLoc(), results);
  std::string text;
  llvm::raw_string_ostream os(text);
  OpPrintingFlags flags;
  flags.enableDebugInfo();
  extracted->print(os, flags);
  return text;
}

StatusOr<Compiler::Interface> Compiler::inspect(const ModelSource &source) {
  Session session;
  OwningOpRef<ModuleOp> module;
  if (DriverError error = session.load(source, impl_->options, module))
    return session.fail(error);
  FailureOr<compiler::EntrySignature> signature =
      compiler::getEntrySignature(*module, impl_->options.entry);
  if (failed(signature))
    return session.fail({ErrorKind::kInvalidInput, ""});
  return Interface{signature->function, signature->inputs, signature->outputs};
}

} // namespace kiln
