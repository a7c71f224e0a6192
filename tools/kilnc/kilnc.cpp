//===- kilnc.cpp - The Kiln compiler driver -------------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// `kilnc compile | run | bench | inspect`: a thin command line over the
// public C++ API (kiln/kiln.h); it sees no MLIR.
// Exit codes (documented in the README and `kilnc --help`):
//   0 success, 1 usage error, 2 invalid model or inputs, 3 model uses
//   something Kiln cannot compile yet, 4 internal error.
//
//===----------------------------------------------------------------------===//

#include "ArtifactListing.h"
#include "Bisect.h"
#include "MallocTuning.h"
#include "ProfileReport.h"
#include "StatsJson.h"
#include "compiler/MemoryPlanning/PlanReport.h"
#include "kiln/JitModel.h"
#include "kiln/kiln.h"
#include "kiln/runtime/Bindings.h"
#include "kiln/runtime/CommunicatorCollectives.h"
#include "kiln/runtime/CudaModuleChoice.h"
#include "kiln/runtime/ModelIO.h"
#include "kiln/runtime/Npy.h"
#include "kiln/runtime/NumericsCheck.h"
#include "kiln/runtime/RankedArtifact.h"
#include "kiln/runtime/Roofline.h"
#include "kiln/runtime/StepProfiler.h"
#include "kiln/runtime/ThreadPool.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/PrettyStackTrace.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <map>

using namespace kiln;
namespace cl = llvm::cl;

namespace {

//===----------------------------------------------------------------------===//
// Command line
//===----------------------------------------------------------------------===//

cl::SubCommand compileCommand("compile",
                              "Compile a model and write intermediate IR");
cl::SubCommand runCommand("run", "Compile a model and run it on .npy inputs");
cl::SubCommand benchCommand("bench", "Measure a model's latency");
cl::SubCommand inspectCommand("inspect",
                              "Show a model's or an artifact's contents");
cl::SubCommand bisectCommand("bisect",
                             "Find the fusion group that changes a model's "
                             "result (against the unfused run)");
cl::SubCommand profileCommand("profile",
                              "Time every step of a model: the slowest "
                              "kernels against this machine's roofline, a "
                              "trace, a chart");

cl::opt<std::string>
    modelPath(cl::Positional,
              cl::desc("<model.onnx | model.mlir | model.kiln>"), cl::Required,
              cl::sub(compileCommand), cl::sub(runCommand),
              cl::sub(benchCommand), cl::sub(inspectCommand),
              cl::sub(profileCommand), cl::sub(bisectCommand));
cl::opt<std::string> entryName("entry",
                               cl::desc("Function to compile (default: the "
                                        "only public one)"),
                               cl::init(""), cl::sub(compileCommand),
                               cl::sub(runCommand), cl::sub(benchCommand),
                               cl::sub(inspectCommand), cl::sub(profileCommand),
                               cl::sub(bisectCommand));
cl::list<std::string> inputShapes(
    "input-shape",
    cl::desc("Shape of an ONNX input with symbolic dimensions, NAME=DxDx..."),
    cl::value_desc("name=2x128"), cl::sub(compileCommand), cl::sub(runCommand),
    cl::sub(benchCommand), cl::sub(inspectCommand), cl::sub(profileCommand),
    cl::sub(bisectCommand));
cl::list<std::string> bindings(
    "bind",
    cl::desc("Fix an ONNX input to the contents of a .npy file at compile "
             "time (for inputs that feed shapes), NAME=FILE.npy"),
    cl::value_desc("name=file.npy"), cl::sub(compileCommand),
    cl::sub(runCommand), cl::sub(benchCommand), cl::sub(inspectCommand),
    cl::sub(profileCommand), cl::sub(bisectCommand));
cl::opt<std::string> target("target",
                            cl::desc("Target device: cpu, cuda (sm_80 and "
                                     "sm_90), cuda:sm_90, cuda:sm_80,sm_90"),
                            cl::init("cpu"), cl::sub(compileCommand),
                            cl::sub(runCommand), cl::sub(benchCommand),
                            cl::sub(profileCommand));
enum class Fusion { None, All };
cl::opt<Fusion> fusion(
    "fusion", cl::desc("Operator fusion (none: one kernel per op, for A/B)"),
    cl::init(Fusion::All),
    cl::values(clEnumValN(Fusion::None, "none", "no fusion groups"),
               clEnumValN(Fusion::All, "all", "every fusion rule (default)")),
    cl::sub(compileCommand), cl::sub(runCommand), cl::sub(benchCommand),
    cl::sub(profileCommand));
cl::opt<std::string> precision(
    "precision",
    cl::desc("Precision of fp32 tensors: fp32 (default), bf16 or fp16 (ops "
             "compute in fp32, softmax/normalisations/sums stay fp32), int8 "
             "(calibrated, see --calibration-data)"),
    cl::value_desc("fp32|bf16|fp16|int8"), cl::init("fp32"),
    cl::sub(compileCommand), cl::sub(runCommand), cl::sub(benchCommand),
    cl::sub(profileCommand), cl::sub(bisectCommand));
cl::list<std::string> keepFp32(
    "keep-fp32",
    cl::desc("Nodes (ONNX node names) that stay fp32 under --precision"),
    cl::value_desc("node,node,..."), cl::CommaSeparated,
    cl::sub(compileCommand), cl::sub(runCommand), cl::sub(benchCommand),
    cl::sub(profileCommand), cl::sub(bisectCommand));
cl::list<int64_t> batchSizes(
    "batch-sizes",
    cl::desc("ONNX models with a symbolic batch axis: compile for these "
             "batch sizes (rows on axis 0 of every input). compile packs "
             "them into one artifact (the smallest is its own program, the "
             "others variants kiln-serve batches into); run takes the "
             "smallest"),
    cl::value_desc("N,N,..."), cl::CommaSeparated, cl::sub(compileCommand),
    cl::sub(runCommand));
cl::opt<std::string> weightOnly(
    "weight-only",
    cl::desc("Quantize constant matmul/gemm weights to int8 or int4 with one "
             "scale per GROUP rows of a column (default 128); activations "
             "stay fp32"),
    cl::value_desc("int8|int4[:gGROUP]"), cl::init(""), cl::sub(compileCommand),
    cl::sub(runCommand), cl::sub(benchCommand), cl::sub(profileCommand),
    cl::sub(bisectCommand));
cl::opt<std::string> calibrationData(
    "calibration-data",
    cl::desc("--precision int8: a folder with one sub-folder per sample, "
             "holding one INPUT.npy per model input"),
    cl::value_desc("dir"), cl::init(""), cl::sub(compileCommand),
    cl::sub(runCommand), cl::sub(benchCommand), cl::sub(profileCommand),
    cl::sub(bisectCommand));
cl::opt<std::string> calibrationMethod(
    "calibration-method",
    cl::desc("How --precision int8 picks activation ranges: minmax "
             "(default), percentile (0.01-99.99 %) or entropy (the "
             "clipping with the least KL divergence)"),
    cl::value_desc("minmax|percentile|entropy"), cl::init("minmax"),
    cl::sub(compileCommand), cl::sub(runCommand), cl::sub(benchCommand),
    cl::sub(profileCommand), cl::sub(bisectCommand));
cl::opt<double> maxAccuracyDrop(
    "max-accuracy-drop",
    cl::desc("--precision int8: keep layers fp32 where int8 would cost "
             "more than PTS points of top-1 on --validation-data (measured, "
             "layer by layer; reported in --stats-json)"),
    cl::value_desc("PTS"), cl::init(-1), cl::sub(compileCommand),
    cl::sub(runCommand), cl::sub(benchCommand), cl::sub(profileCommand));
cl::opt<std::string> validationData(
    "validation-data",
    cl::desc("--max-accuracy-drop: a folder with one sub-folder per sample, "
             "each holding one INPUT.npy per model input"),
    cl::value_desc("dir"), cl::init(""), cl::sub(compileCommand),
    cl::sub(runCommand), cl::sub(benchCommand), cl::sub(profileCommand));
cl::opt<std::string> validationLabels(
    "validation-labels",
    cl::desc("--max-accuracy-drop: the class index of each row of the first "
             "output over the samples in name order (1-D int64/int32 .npy)"),
    cl::value_desc("file.npy"), cl::init(""), cl::sub(compileCommand),
    cl::sub(runCommand), cl::sub(benchCommand), cl::sub(profileCommand));
cl::opt<int> devices(
    "devices",
    cl::desc("Shard the model over N devices (CPU ranks): one artifact "
             "holding every rank's program, run by kiln-run --ranks N or "
             "mpirun -np N kiln-run"),
    cl::value_desc("N"), cl::init(1), cl::sub(compileCommand));
cl::opt<std::string> parallel(
    "parallel",
    cl::desc("With --devices: tensor (column-then-row splits of weights, "
             "default), sequence (tensor, with the tokens between blocks "
             "split: reduce-scatter and all-gather instead of all-reduce), "
             "data (replicas, each on a slice of the batch) or pipeline "
             "(consecutive ops in stages, one per device); data,tensor, "
             "data,sequence or data,pipeline with --mesh"),
    cl::value_desc("tensor|sequence|data|pipeline|data,tensor|data,sequence|"
                   "data,pipeline"),
    cl::init("tensor"), cl::sub(compileCommand));
cl::list<std::string> shard(
    "shard",
    cl::desc("With --devices: lay a value out over the ranks, NAME=split(D) "
             "or NAME=replicated; NAME is an input, a weight or a node "
             "(repeatable)"),
    cl::value_desc("NAME=LAYOUT"), cl::sub(compileCommand));
cl::opt<std::string>
    mesh("mesh",
         cl::desc("A 2-D mesh for --parallel data,tensor or data,pipeline: "
                  "data=D,tensor=T (D replicas of a T-rank program, D x T "
                  "devices)"),
         cl::value_desc("AXIS=N,..."), cl::sub(compileCommand));
cl::opt<int> microBatches(
    "micro-batches",
    cl::desc("With --parallel pipeline: run the batch as M equal slices "
             "that flow through the stages one after another (GPipe)"),
    cl::value_desc("M"), cl::init(1), cl::sub(compileCommand));
cl::opt<int64_t> fuseCollectivesBelow(
    "fuse-collectives-below",
    cl::desc("With --devices: send independent all-reduces (or "
             "all-gathers) of at most this many bytes each as one "
             "collective (0: never; default 65536)"),
    cl::value_desc("BYTES"), cl::init(65536), cl::sub(compileCommand));
cl::list<std::string> passPlugins(
    "load-pass-plugin",
    cl::desc("Load a Kiln pass plugin (a shared library; see "
             "kiln/PassPlugin.h) whose passes run at its pipeline points"),
    cl::value_desc("path"), cl::sub(compileCommand), cl::sub(runCommand),
    cl::sub(benchCommand), cl::sub(inspectCommand), cl::sub(profileCommand),
    cl::sub(bisectCommand));

enum class Emit { Kiln, Linalg, LLVM, Cuda, Ptx };
cl::opt<Emit> emit(
    "emit", cl::desc("What to write"), cl::init(Emit::LLVM),
    cl::values(clEnumValN(Emit::Kiln, "mlir",
                          "the cleaned-up kiln dialect (contract checked, "
                          "constants folded)"),
               clEnumValN(Emit::Linalg, "linalg",
                          "linalg/tensor IR before bufferisation"),
               clEnumValN(Emit::LLVM, "llvm", "the LLVM dialect"),
               clEnumValN(Emit::Cuda, "cuda", "the generated CUDA C++ kernels"),
               clEnumValN(Emit::Ptx, "ptx",
                          "those kernels compiled by NVRTC to PTX (for "
                          "the newest architecture of --target)")),
    cl::sub(compileCommand));
cl::opt<std::string> targetCpu(
    "target-cpu",
    cl::desc("Instruction set of the artifact: native (this CPU, e.g. "
             "AVX-512), x86-64 (portable), x86-64-v3 (AVX2), x86-64-v4, or any "
             "LLVM CPU name"),
    cl::init("native"), cl::sub(compileCommand));
cl::opt<bool> printLocations(
    "print-locations",
    cl::desc("With --emit: print each op's location (ONNX node and file)"),
    cl::init(false), cl::sub(compileCommand));
cl::opt<std::string> outputPath("o", cl::desc("Output file (default: stdout)"),
                                cl::value_desc("file"), cl::init("-"),
                                cl::sub(compileCommand));
cl::opt<std::string> statsJsonPath(
    "stats-json",
    cl::desc("With -o OUT.kiln: write compile statistics (kernels, planned "
             "peak, lower bound and unplanned bytes) as JSON"),
    cl::value_desc("file"), cl::init(""), cl::sub(compileCommand));
cl::opt<std::string> memoryPlanSvgPath(
    "memory-plan",
    cl::desc("Draw the artifact's memory plan (buffers over time and arena "
             "offset) as SVG"),
    cl::value_desc("plan.svg"), cl::init(""), cl::sub(inspectCommand));

cl::list<std::string>
    inputFiles("input",
               cl::desc("An input as NAME=FILE.npy (NAME is the model's input "
                        "name, or argN)"),
               cl::value_desc("name=file.npy"), cl::sub(runCommand),
               cl::sub(benchCommand), cl::sub(profileCommand),
               cl::sub(bisectCommand));
cl::opt<std::string> outputDir("output-dir",
                               cl::desc("Folder for <output name>.npy files"),
                               cl::value_desc("dir"), cl::init(""),
                               cl::sub(runCommand));
cl::opt<unsigned> warmup("warmup", cl::desc("Untimed runs first"), cl::init(3),
                         cl::sub(benchCommand), cl::sub(profileCommand));
cl::opt<unsigned> iterations("iterations", cl::desc("Timed runs"), cl::init(20),
                             cl::sub(benchCommand), cl::sub(profileCommand));
cl::opt<unsigned>
    threads("threads",
            cl::desc("Threads a CPU model runs on, this one included (default: "
                     "every core this process may use; 1: this thread only). "
                     "Results are bitwise the same for every count"),
            cl::init(0), cl::sub(runCommand), cl::sub(benchCommand),
            cl::sub(profileCommand));
cl::opt<std::string>
    gemm("gemm",
         cl::desc("CUDA models: what runs their GEMMs, the generated kernels, "
                  "cuBLASLt, or auto (both timed at load, the faster kept)"),
         cl::value_desc("generated|cublaslt|auto"), cl::init("generated"),
         cl::sub(runCommand), cl::sub(benchCommand), cl::sub(profileCommand));
cl::opt<std::string> gemmCache(
    "gemm-cache",
    cl::desc("With --gemm auto: the timing cache file (default: in the "
             "cache directory)"),
    cl::value_desc("FILE"), cl::sub(runCommand), cl::sub(benchCommand),
    cl::sub(profileCommand));
cl::opt<bool> checkNumerics(
    "check-numerics",
    cl::desc("After every step, look for NaN and infinities in what it "
             "computed; report the first step that made one, with its "
             "source ops, and exit 2 (slow: for debugging)"),
    cl::init(false), cl::sub(runCommand), cl::sub(benchCommand));

cl::opt<bool> timeReport(
    "time-report",
    cl::desc("Print where compile time went: import, each pipeline pass by "
             "pass, LLVM or NVRTC code generation, kernel-cache hits and "
             "whether the compile cache answered"),
    cl::init(false), cl::sub(compileCommand), cl::sub(runCommand),
    cl::sub(benchCommand), cl::sub(profileCommand));
cl::opt<bool> noCompileCache(
    "no-compile-cache",
    cl::desc("Neither read nor fill the persistent compile cache "
             "($KILN_CACHE_DIR/cpu, else ~/.cache/kiln/cpu)"),
    cl::init(false), cl::sub(compileCommand), cl::sub(runCommand),
    cl::sub(benchCommand), cl::sub(profileCommand));
cl::opt<double> tolerance(
    "tolerance",
    cl::desc("Largest |fused - unfused| that is no difference, relative to "
             "max(1, largest |unfused output|)"),
    cl::init(1e-4), cl::sub(bisectCommand));
cl::opt<std::string> reproducerDir(
    "emit-reproducer",
    cl::desc("Write the culprit group alone as a model, with inputs, to "
             "this folder"),
    cl::value_desc("dir"), cl::init(""), cl::sub(bisectCommand));
cl::opt<int64_t> testMiscompileGroup(
    "test-miscompile-fusion-group",
    cl::desc("Tests of bisect only: fusion group N drops its last op"),
    cl::init(-1), cl::Hidden, cl::sub(bisectCommand), cl::sub(runCommand));
cl::opt<std::string> tracePath(
    "trace",
    cl::desc("Write the profiled runs as a Chrome/Perfetto trace (JSON: a "
             "host track of runs, a track per thread of steps)"),
    cl::value_desc("trace.json"), cl::init(""), cl::sub(profileCommand));
cl::opt<std::string> reportPath(
    "report", cl::desc("Draw the steps on this machine's roofline (SVG)"),
    cl::value_desc("roofline.svg"), cl::init(""), cl::sub(profileCommand));
cl::opt<unsigned> topSteps("top", cl::desc("Steps in the table"), cl::init(15),
                           cl::sub(profileCommand));

constexpr const char *kOverview =
    "Kiln model compiler\n\n"
    "MODEL is a .onnx or .mlir (kiln dialect) file.\n\n"
    "  kilnc compile MODEL -o OUT.kiln [--stats-json FILE]  (artifact)\n"
    "  kilnc compile MODEL --emit=mlir|linalg|llvm [-o FILE]\n"
    "  kilnc run MODEL|OUT.kiln --input NAME=FILE.npy ... "
    "[--output-dir DIR]\n"
    "  kilnc bench MODEL|OUT.kiln [--input NAME=FILE.npy ...] "
    "[--warmup N] [--iterations N]\n"
    "  kilnc inspect MODEL|OUT.kiln [--memory-plan plan.svg]\n"
    "Symbolic ONNX input dimensions: --input-shape NAME=DxDx...\n"
    "Fusion off (A/B comparisons): --fusion=none. Pass plugins: "
    "--load-pass-plugin=PATH\n\n"
    "Run `kilnc <command> --help` for a command's options.\n\n"
    "Exit codes: 0 success, 1 usage error, 2 invalid model or inputs,\n"
    "3 model uses something Kiln cannot compile yet, 4 internal error,\n"
    "5 device unavailable (no GPU or driver, out of memory, a missing tool),\n"
    "7 a collective between ranks failed (a rank aborted, a deadline "
    "passed).\n";

/// Exit codes (the API's exitCodeFor gives the same for its Statuses).
enum ExitCode { kSuccess = 0, kUsage = 1, kInvalid = 2 };

int fail(int code, const std::string &message) {
  if (!message.empty())
    llvm::errs() << "kilnc: error: " << message << "\n";
  return code;
}

/// Prints an API error: its diagnostics as they are, then the summary line.
int fail(const Status &status) {
  llvm::StringRef message = status.message();
  auto [diagnostics, summary] = message.rsplit('\n');
  if (summary.empty() || diagnostics == message) {
    summary = message;
    diagnostics = "";
  }
  if (!diagnostics.empty())
    llvm::errs() << diagnostics << "\n";
  if (summary.contains(": error: "))
    llvm::errs() << summary << "\n";
  else
    llvm::errs() << "kilnc: error: " << summary << "\n";
  return exitCodeFor(status);
}

/// The compile options given on the command line.
StatusOr<CompileOptions> compileOptions() {
  CompileOptions options;
  options.target = target;
  options.targetCpu = targetCpu;
  options.entry = entryName;
  options.timeReport = timeReport;
  options.compileCache = !noCompileCache;
  options.testMiscompileFusionGroup = testMiscompileGroup;
  options.passPlugins.assign(passPlugins.begin(), passPlugins.end());
  options.fusion = fusion == Fusion::All;
  options.threads = threads;
  options.precision = precision;
  options.keepFp32.assign(keepFp32.begin(), keepFp32.end());
  options.calibrationData = calibrationData;
  options.calibrationMethod = calibrationMethod;
  options.weightOnly = weightOnly;
  options.batchSizes.assign(batchSizes.begin(), batchSizes.end());
  if (maxAccuracyDrop.getNumOccurrences() && maxAccuracyDrop < 0)
    return Status(StatusCode::kFailedPrecondition,
                  "--max-accuracy-drop is in points of top-1 (0 to 100)");
  options.maxAccuracyDrop = maxAccuracyDrop;
  options.validationData = validationData;
  options.validationLabels = validationLabels;
  options.devices = devices;
  options.parallel = parallel;
  options.microBatches = microBatches;
  options.fuseCollectivesBelow = fuseCollectivesBelow;
  options.gemm = gemm;
  options.gemmTimingCache = gemmCache;
  options.mesh = mesh;
  options.shard.assign(shard.begin(), shard.end());
  for (const std::string &spec : inputShapes) {
    auto [name, dims] = llvm::StringRef(spec).split('=');
    std::vector<int64_t> shape;
    llvm::SmallVector<llvm::StringRef> parts;
    dims.split(parts, 'x');
    bool ok = !name.empty() && !dims.empty();
    for (llvm::StringRef part : parts) {
      int64_t dim;
      ok = ok && !part.getAsInteger(10, dim) && dim >= 0;
      shape.push_back(ok ? dim : 0);
    }
    if (!ok)
      return Status(StatusCode::kFailedPrecondition,
                    "--input-shape expects NAME=DxDx... with non-negative "
                    "integer dimensions, got '" +
                        spec + "'");
    options.inputShapes[name.str()] = shape;
  }
  for (const std::string &spec : bindings) {
    auto [name, file] = llvm::StringRef(spec).split('=');
    if (name.empty() || file.empty())
      return Status(StatusCode::kFailedPrecondition,
                    "--bind expects NAME=FILE.npy, got '" + spec + "'");
    StatusOr<Tensor> tensor = rt::readNpyFile(file.str());
    if (!tensor.isOk())
      return Status(StatusCode::kInvalidArgument, tensor.status().message());
    options.boundInputs[name.str()] = std::move(*tensor);
  }
  return options;
}

StatusOr<std::unique_ptr<Compiler>> makeCompiler() {
  StatusOr<CompileOptions> options = compileOptions();
  if (!options.isOk())
    return options.status();
  return Compiler::create(std::move(*options));
}

//===----------------------------------------------------------------------===//
// Inputs and outputs
//===----------------------------------------------------------------------===//

/// Parses --input and loads the files for a model with `inputs`; files for
/// the `compiledIn` inputs (a JIT's specialisation) are left out.
Status loadInputs(const std::vector<TensorInfo> &inputs,
                  std::vector<Tensor> &tensors, bool synthesizeMissing,
                  const std::vector<std::string> &compiledIn = {}) {
  std::vector<rt::InputFile> files;
  for (const std::string &spec : inputFiles) {
    rt::StatusOr<rt::InputFile> file = rt::parseInputSpec(spec);
    if (!file.isOk())
      return Status(StatusCode::kFailedPrecondition, file.status().message());
    if (std::find(compiledIn.begin(), compiledIn.end(), file->name) ==
        compiledIn.end())
      files.push_back(*file);
  }
  rt::StatusOr<std::vector<Tensor>> loaded =
      rt::loadInputs(files, inputs, synthesizeMissing);
  if (!loaded.isOk())
    return Status(StatusCode::kInvalidArgument, loaded.status().message());
  tensors = std::move(*loaded);
  return Status::ok();
}

/// Reads the --input files of a model known only by its input names (a JIT
/// that specialises on them), in the order of `names`; loadInputs checks
/// them against the compiled model afterwards.
Status loadNamedInputs(const std::vector<std::string> &names,
                       std::vector<Tensor> &tensors) {
  std::map<std::string, std::string> byName;
  std::string known;
  for (const std::string &name : names)
    known += (known.empty() ? "" : ", ") + name;
  for (const std::string &spec : inputFiles) {
    rt::StatusOr<rt::InputFile> file = rt::parseInputSpec(spec);
    if (!file.isOk())
      return Status(StatusCode::kFailedPrecondition, file.status().message());
    if (std::find(names.begin(), names.end(), file->name) == names.end())
      return Status(StatusCode::kNotFound, "the model has no input named '" +
                                               file->name +
                                               "' (inputs: " + known + ")");
    byName[file->name] = file->path;
  }
  tensors.clear();
  for (const std::string &name : names) {
    auto file = byName.find(name);
    if (file == byName.end())
      return Status(StatusCode::kNotFound,
                    "missing --input " + name + "=FILE.npy");
    StatusOr<Tensor> tensor = rt::readNpyFile(file->second);
    if (!tensor.isOk()) // As loadInputs: a bad input file is exit 2.
      return Status(StatusCode::kInvalidArgument, tensor.status().message());
    tensors.push_back(std::move(*tensor));
  }
  return Status::ok();
}

bool isArtifactPath(llvm::StringRef path) { return path.ends_with(".kiln"); }

using Clock = std::chrono::steady_clock;
double millisecondsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start)
      .count();
}

/// Loads the model (JIT-compiling it, or loading an artifact); prints how
/// long that took.
StatusOr<std::unique_ptr<Executable>> prepare() {
  auto start = Clock::now();
  if (isArtifactPath(modelPath)) {
    LoadOptions load;
    load.threads = threads;
    load.gemm = gemm;
    load.gemmTimingCache = gemmCache;
    auto executable = Executable::loadArtifact(modelPath, load);
    if (executable.isOk())
      llvm::outs() << llvm::format("loaded %s in %.1f ms\n", modelPath.c_str(),
                                   millisecondsSince(start));
    return executable;
  }
  auto compiler = makeCompiler();
  if (!compiler.isOk())
    return compiler.status();
  auto executable = (*compiler)->compile(ModelSource::file(modelPath));
  if (executable.isOk())
    llvm::outs() << llvm::format("compiled %s in %.1f ms\n", modelPath.c_str(),
                                 millisecondsSince(start));
  return executable;
}

//===----------------------------------------------------------------------===//
// Memory plan reports (docs/memory-planning.md)
//===----------------------------------------------------------------------===//

/// Writes `text` to `path` ("-" is stdout); failures are usage errors.
int writeReport(const std::string &path, const std::string &what,
                const std::string &text) {
  std::error_code error;
  llvm::ToolOutputFile output(path, error, llvm::sys::fs::OF_None);
  if (error)
    return fail(kUsage, "cannot write the " + what + " to '" + path +
                            "': " + error.message());
  output.os() << text;
  output.keep();
  return kSuccess;
}

/// --stats-json: read back what compileToArtifact wrote.
int writeStatsJson() {
  rt::StatusOr<rt::RankedArtifact> ranked =
      rt::readRankedArtifactFile(outputPath);
  if (!ranked.isOk())
    return fail(ranked.status());
  StatusOr<std::string> json = tools::statsJson(*ranked);
  if (!json.isOk())
    return fail(json.status());
  return writeReport(statsJsonPath, "stats", *json);
}

//===----------------------------------------------------------------------===//
// Commands
//===----------------------------------------------------------------------===//

int compileModel() {
  bool wantsArtifact = emit.getNumOccurrences() == 0;
  if (wantsArtifact && !isArtifactPath(outputPath))
    return fail(kUsage,
                "give -o OUT.kiln for an artifact, or --emit=... for IR");
  if (!wantsArtifact && !statsJsonPath.empty())
    return fail(kUsage, "--stats-json describes an artifact: give -o "
                        "OUT.kiln, not --emit");
  auto compiler = makeCompiler();
  if (!compiler.isOk())
    return fail(compiler.status());
  ModelSource source = ModelSource::file(modelPath);
  if (wantsArtifact) {
    auto start = Clock::now();
    Compiler::ArtifactReport report;
    if (Status status =
            (*compiler)->compileToArtifact(source, outputPath, &report);
        !status.isOk())
      return fail(status);
    if (report.fromCache)
      llvm::outs() << llvm::format(
          "wrote %s in %.1f ms from the compile cache\n", outputPath.c_str(),
          millisecondsSince(start));
    else
      llvm::outs() << llvm::format(
          "wrote %s (%llu bytes of kernels) in %.1f ms\n", outputPath.c_str(),
          (unsigned long long)report.kernelBytes, millisecondsSince(start));
    return statsJsonPath.empty() ? kSuccess : writeStatsJson();
  }
  Compiler::IRStage stage = emit == Emit::Kiln     ? Compiler::IRStage::kGraph
                            : emit == Emit::Linalg ? Compiler::IRStage::kLinalg
                            : emit == Emit::Cuda   ? Compiler::IRStage::kCuda
                            : emit == Emit::Ptx    ? Compiler::IRStage::kPtx
                                                   : Compiler::IRStage::kLLVM;
  StatusOr<std::string> text =
      (*compiler)->emitIR(source, stage, printLocations);
  if (!text.isOk())
    return fail(text.status());
  std::error_code error;
  llvm::ToolOutputFile output(outputPath, error, llvm::sys::fs::OF_None);
  if (error)
    return fail(kUsage,
                "cannot write '" + outputPath + "': " + error.message());
  output.os() << *text;
  output.keep();
  return kSuccess;
}

/// Runs `model` with the numerics check; the first offending step, if any.
StatusOr<std::optional<rt::NumericsFinding>>
runChecked(Executable &model, const std::vector<Tensor> &inputs,
           std::vector<Tensor> &outputs) {
  rt::NumericsCheck check;
  RunOptions options;
  options.hooks = &check;
  if (Status status = model.run(inputs, outputs, options); !status.isOk())
    return status;
  if (check.checkedSteps() == 0)
    llvm::errs() << "kilnc: warning: --check-numerics: no step of this "
                    "program records what it computes, so nothing was "
                    "checked\n";
  return check.first();
}

/// A finding in a step of several ops (a fusion group, merged kernels)
/// names them all; compiled again unfused with a step per op, the same
/// inputs show which op made the value first.
std::string narrowDown(const std::vector<Tensor> &inputs) {
  StatusOr<CompileOptions> options = compileOptions();
  if (!options.isOk())
    return "";
  options->fusion = false;
  options->stepPerKernel = true;
  auto compiler = Compiler::create(std::move(*options));
  if (!compiler.isOk())
    return "";
  auto unfused = (*compiler)->compile(ModelSource::file(modelPath));
  if (!unfused.isOk())
    return "";
  std::vector<Tensor> outputs;
  auto finding = runChecked(**unfused, inputs, outputs);
  if (!finding.isOk() || !*finding)
    return "unfused, one op per step, every value is finite (the fused "
           "kernel differs from its ops)";
  return "unfused, one op per step: " + (*finding)->describe();
}

/// Runs `model` once, with the numerics check when it is asked for: a
/// finding is an error (exit 2) naming the step and its source ops.
Status runOnce(Executable &model, const std::vector<Tensor> &inputs,
               std::vector<Tensor> &outputs) {
  if (!checkNumerics)
    return model.run(inputs, outputs);
  auto finding = runChecked(model, inputs, outputs);
  if (!finding.isOk())
    return finding.status();
  if (!*finding)
    return Status::ok();
  std::string message = "numerics check: " + (*finding)->describe();
  // Several ops in the step: narrow it down (models only; an artifact
  // cannot be compiled again).
  if (!isArtifactPath(modelPath) &&
      llvm::StringRef((*finding)->source).contains('+'))
    if (std::string narrowed = narrowDown(inputs); !narrowed.empty())
      message += "; " + narrowed;
  return Status(StatusCode::kInvalidArgument, message);
}

/// "the values of 'shape'; the shapes of 'x'": what a JIT specialised on.
std::string describeSpecialisation(const JitModel &jit) {
  auto quoted = [](const std::vector<std::string> &names) {
    std::string text;
    for (const std::string &name : names)
      text += (text.empty() ? "'" : ", '") + name + "'";
    return text;
  };
  std::string text;
  if (!jit.compileTimeInputs().empty())
    text = "the values of " + quoted(jit.compileTimeInputs());
  if (!jit.shapeInputs().empty())
    text += (text.empty() ? "" : "; ") + std::string("the shapes of ") +
            quoted(jit.shapeInputs());
  return text;
}

/// The model to run, compiled as a JIT would: specialised to the values
/// of the --input files that feed shapes and the shapes of those with
/// symbolic dimensions. An artifact is loaded as it is.
StatusOr<std::unique_ptr<JitModel>> prepareJit(Executable *&executable) {
  auto start = Clock::now();
  auto compiler = makeCompiler();
  if (!compiler.isOk())
    return compiler.status();
  auto jit =
      JitModel::create(std::move(*compiler), ModelSource::file(modelPath));
  if (!jit.isOk())
    return jit.status();
  std::vector<Tensor> inputs;
  if (Status status = loadNamedInputs((*jit)->inputNames(), inputs);
      !status.isOk())
    return status;
  auto specialised = (*jit)->specialize(inputs);
  if (!specialised.isOk())
    return specialised.status();
  executable = *specialised;
  std::string what = describeSpecialisation(**jit);
  llvm::outs() << llvm::format("compiled %s in %.1f ms", modelPath.c_str(),
                               millisecondsSince(start))
               << (what.empty() ? "" : " (specialised to " + what + ")")
               << "\n";
  return jit;
}

int runModel() {
  std::unique_ptr<Executable> artifact;
  std::unique_ptr<JitModel> jit;
  Executable *model = nullptr;
  if (isArtifactPath(modelPath)) {
    auto loaded = prepare();
    if (!loaded.isOk())
      return fail(loaded.status());
    artifact = std::move(*loaded);
    model = artifact.get();
  } else {
    auto prepared = prepareJit(model);
    if (!prepared.isOk())
      return fail(prepared.status());
    jit = std::move(*prepared);
  }
  // The run-time inputs, checked against what the model was compiled for
  // (compiled-in ones are no longer inputs: their --input is not needed).
  std::vector<Tensor> inputs, outputs;
  if (Status status = loadInputs(
          model->inputs(), inputs, /*synthesizeMissing=*/false,
          jit ? jit->compileTimeInputs() : std::vector<std::string>());
      !status.isOk())
    return fail(status);
  auto start = Clock::now();
  if (Status status = runOnce(*model, inputs, outputs); !status.isOk())
    return fail(status);
  double latency = millisecondsSince(start);
  llvm::outs() << rt::summarizeOutputs(model->outputs(), outputs);
  if (!outputDir.empty())
    if (Status status = rt::writeOutputs(outputDir, model->outputs(), outputs);
        !status.isOk())
      return fail(status.code() == StatusCode::kUnimplemented
                      ? exitCodeFor(status)
                      : int(kUsage),
                  status.message());
  llvm::outs() << llvm::format("ran in %.3f ms\n", latency);
  return kSuccess;
}

int benchModel() {
  if (iterations == 0)
    return fail(kUsage, "--iterations must be at least 1");
  auto model = prepare();
  if (!model.isOk())
    return fail(model.status());
  std::vector<Tensor> inputs, outputs;
  if (Status status =
          loadInputs((*model)->inputs(), inputs, /*synthesizeMissing=*/true);
      !status.isOk())
    return fail(status);
  for (unsigned i = 0; i < warmup; ++i)
    if (Status status = runOnce(**model, inputs, outputs); !status.isOk())
      return fail(status);
  std::vector<double> times;
  for (unsigned i = 0; i < iterations; ++i) {
    auto start = Clock::now();
    if (Status status = runOnce(**model, inputs, outputs); !status.isOk())
      return fail(status);
    times.push_back(millisecondsSince(start));
  }
  std::sort(times.begin(), times.end());
  auto percentile = [&](double p) {
    return times[std::min<size_t>(times.size() - 1,
                                  size_t(std::floor(p * times.size())))];
  };
  unsigned used =
      threads ? unsigned(threads) : kiln::rt::ThreadPool::availableThreads();
  llvm::outs() << llvm::format(
      "latency over %u runs (%u thread%s): median %.4f ms, p10 %.4f ms, p90 "
      "%.4f ms\n",
      unsigned(iterations), used, used == 1 ? "" : "s", percentile(0.5),
      percentile(0.1), percentile(0.9));
  return kSuccess;
}

/// --emit-reproducer: group `number` alone as a model, random inputs of
/// its shapes, and the two commands that show the difference.
int writeReproducer(int64_t number) {
  StatusOr<CompileOptions> options = compileOptions();
  if (!options.isOk())
    return fail(options.status());
  // The model's group as it is (a deliberate miscompile is the compiler's,
  // reproduced by the same flag below).
  options->testMiscompileFusionGroup = -1;
  auto compiler = Compiler::create(*options);
  if (!compiler.isOk())
    return fail(compiler.status());
  auto text =
      (*compiler)->extractFusionGroup(ModelSource::file(modelPath), number);
  if (!text.isOk())
    return fail(text.status());
  std::string name = "fusion_group_" + std::to_string(number);
  if (std::error_code error = llvm::sys::fs::create_directories(reproducerDir))
    return fail(kUsage,
                "cannot create '" + reproducerDir + "': " + error.message());
  std::string model = reproducerDir + "/" + name + ".mlir";
  if (int code = writeReport(model, "reproducer", *text))
    return code;
  auto interface = (*compiler)->inspect(ModelSource::file(model));
  if (!interface.isOk())
    return fail(interface.status());
  std::string command = "kilnc run " + model;
  std::vector<Tensor> tensors;
  rt::allocateOutputs(interface->inputs, tensors); // Zeroed, as specified.
  for (auto [input, tensor] : llvm::zip(interface->inputs, tensors)) {
    size_t elements = size_t(tensor.numElements());
    // Values in [-2, 2): a fixed, portable sequence.
    if (input.dtype == DType::kF32)
      for (size_t e = 0; e < elements; ++e) {
        float value = float((e * 2654435761u) % 4096) / 1024.0f - 2.0f;
        std::memcpy(tensor.data.data() + 4 * e, &value, 4);
      }
    std::string file = reproducerDir + "/" + input.name + ".npy";
    if (Status status = rt::writeNpyFile(file, tensor); !status.isOk())
      return fail(kUsage, status.message());
    command += " --input " + input.name + "=" + file;
  }
  std::string fused = command;
  if (testMiscompileGroup >= 0) // Alone, the group is group 0.
    fused += " --test-miscompile-fusion-group=0";
  std::string readme = "# fusion group " + std::to_string(number) + " of " +
                       modelPath + ", alone: fused, then unfused\n" + fused +
                       "\n" + command + " --fusion=none\n";
  if (int code = writeReport(reproducerDir + "/README", "reproducer", readme))
    return code;
  llvm::outs() << "wrote " << model << " and its inputs; compare:\n" << readme;
  return kSuccess;
}

int bisectModel() {
  StatusOr<CompileOptions> base = compileOptions();
  if (!base.isOk())
    return fail(base.status());
  auto compiler = Compiler::create(*base);
  if (!compiler.isOk())
    return fail(compiler.status());
  ModelSource source = ModelSource::file(modelPath);
  auto groups = (*compiler)->fusionGroups(source);
  if (!groups.isOk())
    return fail(groups.status());
  // One compile and run with the given groups fused (none: unfused).
  std::vector<Tensor> inputs;
  auto runWith = [&](std::optional<std::vector<int64_t>> keep)
      -> StatusOr<std::vector<Tensor>> {
    CompileOptions options = *base;
    options.fusion = keep.has_value();
    if (keep)
      options.fusionGroups = *keep;
    auto compiler = Compiler::create(options);
    if (!compiler.isOk())
      return compiler.status();
    auto model = (*compiler)->compile(source);
    if (!model.isOk())
      return model.status();
    if (inputs.empty())
      if (Status status = loadInputs((*model)->inputs(), inputs,
                                     /*synthesizeMissing=*/true);
          !status.isOk())
        return status;
    std::vector<Tensor> outputs;
    if (Status status = (*model)->run(inputs, outputs); !status.isOk())
      return status;
    return outputs;
  };
  auto unfused = runWith(std::nullopt);
  if (!unfused.isOk())
    return fail(unfused.status());
  auto found = tools::bisectFusionGroups(
      int64_t(groups->size()), *unfused, tolerance,
      [&](const std::vector<int64_t> &keep) { return runWith(keep); });
  if (!found.isOk())
    return fail(found.status());
  auto interface = (*compiler)->inspect(source);
  auto outputName = [&](const tools::Difference &difference) {
    return interface.isOk() && difference.output < interface->outputs.size()
               ? interface->outputs[difference.output].name
               : "#" + std::to_string(difference.output);
  };
  auto describe = [&](const tools::Difference &difference) {
    return llvm::formatv("max |fused - unfused| {0:g} at element {1} of "
                         "output '{2}' (largest |unfused| {3:g})",
                         difference.maxAbs, difference.element,
                         outputName(difference), difference.scale)
        .str();
  };
  llvm::outs() << groups->size() << " fusion groups\n";
  if (!found->culprit) {
    llvm::outs() << "fused and unfused agree within " << tolerance << ": "
                 << describe(found->fused) << "; " << found->runs
                 << " fused run(s)\n";
    return kSuccess;
  }
  const Compiler::FusionGroup &group = (*groups)[size_t(*found->culprit)];
  llvm::outs() << "fusion group #" << group.number << " (" << group.kind
               << ") changes the result: " << describe(found->fused) << "\n"
               << "  its ops: " << llvm::join(group.ops, ", ") << "\n"
               << "  fused alone it "
               << (found->culpritAlone.beyond ? "changes the result too ("
                                              : "does not change it (")
               << describe(found->culpritAlone) << ")\n"
               << "  " << found->runs << " fused compile-and-run(s)\n";
  if (!reproducerDir.empty())
    if (int code = writeReproducer(group.number))
      return code;
  // A finding, like --check-numerics': the model's result depends on it.
  return kInvalid;
}

int profileModel() {
  if (iterations == 0)
    return fail(kUsage, "--iterations must be at least 1");
  if (!reportPath.empty() && !llvm::StringRef(reportPath).ends_with(".svg"))
    return fail(kUsage, "--report draws SVG: name a .svg file (convert it "
                        "with rsvg-convert for a PNG)");
  auto model = prepare();
  if (!model.isOk())
    return fail(model.status());
  const rt::Program &program = (*model)->program();
  if (program.devices.size() != 1)
    return fail(3, "kilnc profile times single-device programs; this one "
                   "has " +
                       std::to_string(program.devices.size()) + " devices");
  const rt::DeviceProgram &device = program.devices[0];
  bool cuda = device.kind == rt::DeviceProgram::Kind::kCuda;
  std::vector<Tensor> inputs, outputs;
  if (Status status =
          loadInputs((*model)->inputs(), inputs, /*synthesizeMissing=*/true);
      !status.isOk())
    return fail(status);
  for (unsigned i = 0; i < warmup; ++i)
    if (Status status = (*model)->run(inputs, outputs); !status.isOk())
      return fail(status);
  rt::StepProfiler profiler(device.steps.size());
  RunOptions options;
  options.hooks = &profiler;
  for (unsigned i = 0; i < iterations; ++i) {
    profiler.beginRun();
    Status status = (*model)->run(inputs, outputs, options);
    profiler.endRun();
    if (!status.isOk())
      return fail(status);
  }
  unsigned used =
      threads ? unsigned(threads) : kiln::rt::ThreadPool::availableThreads();
  // A GPU's roofline is not measured here (yet): only a given one counts.
  rt::MachinePeaks peaks;
  if (!cuda)
    peaks = rt::machinePeaks(used);
  else if (std::optional<rt::MachinePeaks> given = rt::peaksFromEnvironment(1))
    peaks = *given;
  else
    peaks.vectors = "a GPU; set KILN_ROOFLINE=GFLOPS,GBPS";
  std::vector<rt::ProfileSlice> slices = profiler.slices();
  tools::ProfileSummary summary = tools::summarize(device, slices, peaks);
  llvm::outs() << tools::formatProfileTable(summary, topSteps);
  if (!tracePath.empty()) {
    if (int code =
            writeReport(tracePath, "trace", tools::formatTrace(device, slices)))
      return code;
    llvm::outs() << "wrote " << tracePath << " (open it in ui.perfetto.dev "
                 << "or chrome://tracing)\n";
  }
  if (!reportPath.empty()) {
    if (int code = writeReport(reportPath, "roofline chart",
                               tools::formatRooflineSvg(summary)))
      return code;
    llvm::outs() << "wrote " << reportPath << "\n";
  }
  return kSuccess;
}

int inspectModel() {
  if (!isArtifactPath(modelPath) && !memoryPlanSvgPath.empty())
    return fail(kUsage, "--memory-plan needs a compiled artifact (OUT.kiln)");
  if (!isArtifactPath(modelPath)) {
    // A model file: its interface, before any compilation.
    auto compiler = makeCompiler();
    if (!compiler.isOk())
      return fail(compiler.status());
    auto interface = (*compiler)->inspect(ModelSource::file(modelPath));
    if (!interface.isOk())
      return fail(interface.status());
    llvm::outs() << "model " << modelPath << "\n  entry @" << interface->entry
                 << "\n";
    tools::printTensors(llvm::outs(), "input", interface->inputs);
    tools::printTensors(llvm::outs(), "output", interface->outputs);
    return kSuccess;
  }
  rt::StatusOr<rt::RankedArtifact> ranked =
      rt::readRankedArtifactFile(modelPath);
  if (!ranked.isOk())
    return fail(ranked.status());
  if (ranked->worldSize() > 1) {
    llvm::outs() << "sharded artifact " << modelPath << ": "
                 << ranked->ranks.size() << " ranks, " << ranked->strategy
                 << " parallelism";
    if (ranked->stageRanks > 1)
      llvm::outs() << ", " << ranked->stages() << " stages of "
                   << ranked->stageRanks << " tensor ranks";
    if (ranked->isPipeline())
      llvm::outs() << " over " << ranked->microBatches << " micro-batches";
    if (ranked->replicas > 1)
      llvm::outs() << ", " << ranked->replicas << " data-parallel replicas";
    llvm::outs() << " (run with kiln-run or mpirun -np " << ranked->worldSize()
                 << " kiln-run)\n";
    for (auto [rank, artifact] : llvm::enumerate(ranked->ranks)) {
      llvm::outs() << "rank " << rank << " (format version "
                   << rt::kArtifactFormatVersion << ")\n";
      tools::printArtifact(llvm::outs(), artifact);
    }
    if (!memoryPlanSvgPath.empty())
      return fail(kUsage, "--memory-plan draws one device's plan: give a "
                          "single-device artifact");
    return kSuccess;
  }
  const rt::Artifact *artifact = &ranked->ranks.front();
  llvm::outs() << "artifact " << modelPath << " (format version "
               << rt::kArtifactFormatVersion << ")\n";
  tools::printArtifact(llvm::outs(), *artifact);
  if (memoryPlanSvgPath.empty())
    return kSuccess;
  StatusOr<rt::MemoryPlan> plan = tools::firstPlan(*artifact);
  if (!plan.isOk())
    return fail(plan.status());
  return writeReport(
      memoryPlanSvgPath, "memory plan picture",
      plan::renderPlanSvg(*plan, llvm::sys::path::filename(modelPath).str()));
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  llvm::setBugReportMsg("PLEASE report this Kiln crash with the model and the "
                        "command line above.\n");
  if (!cl::ParseCommandLineOptions(argc, argv, kOverview, &llvm::errs()))
    return kUsage;
  if (compileCommand) {
    // Before anything large is allocated (MallocTuning.h).
    kiln::tools::restartWithTunedMalloc(argv, modelPath);
    return compileModel();
  }
  if (runCommand)
    return runModel();
  if (benchCommand)
    return benchModel();
  if (inspectCommand)
    return inspectModel();
  if (profileCommand)
    return profileModel();
  if (bisectCommand)
    return bisectModel();
  llvm::errs() << kOverview;
  return kUsage;
}
