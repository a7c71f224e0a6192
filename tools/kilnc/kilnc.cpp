//===- kilnc.cpp - The Kiln compiler driver -------------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// `kilnc compile | run | bench`: a thin command line over compiler/Driver.
// Exit codes (documented in the README and `kilnc --help`):
//   0 success, 1 usage error, 2 invalid model or inputs, 3 model uses
//   something Kiln cannot compile yet, 4 internal error.
//
//===----------------------------------------------------------------------===//

#include "compiler/Driver/Driver.h"
#include "kiln/runtime/CpuExecutable.h"
#include "kiln/runtime/ModelIO.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/PrettyStackTrace.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cmath>

using namespace kiln;
using namespace kiln::compiler;
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

cl::opt<std::string> modelPath(cl::Positional,
                               cl::desc("<model.onnx | model.mlir | model.kiln>"),
                               cl::Required, cl::sub(compileCommand),
                               cl::sub(runCommand), cl::sub(benchCommand),
                               cl::sub(inspectCommand));
cl::opt<std::string> entryName("entry",
                               cl::desc("Function to compile (default: the "
                                        "only public one)"),
                               cl::init(""), cl::sub(compileCommand),
                               cl::sub(runCommand), cl::sub(benchCommand),
                               cl::sub(inspectCommand));
cl::list<std::string> inputShapes(
    "input-shape",
    cl::desc("Shape of an ONNX input with symbolic dimensions, NAME=DxDx..."),
    cl::value_desc("name=2x128"), cl::sub(compileCommand), cl::sub(runCommand),
    cl::sub(benchCommand), cl::sub(inspectCommand));
cl::list<std::string> bindings(
    "bind",
    cl::desc("Fix an ONNX input to the contents of a .npy file at compile "
             "time (for inputs that feed shapes), NAME=FILE.npy"),
    cl::value_desc("name=file.npy"), cl::sub(compileCommand),
    cl::sub(runCommand), cl::sub(benchCommand), cl::sub(inspectCommand));
cl::opt<std::string> target("target", cl::desc("Target device (cpu)"),
                            cl::init("cpu"), cl::sub(compileCommand),
                            cl::sub(runCommand), cl::sub(benchCommand));

enum class Emit { Kiln, Linalg, LLVM };
cl::opt<Emit> emit(
    "emit", cl::desc("What to write"), cl::init(Emit::LLVM),
    cl::values(clEnumValN(Emit::Kiln, "mlir",
                          "the cleaned-up kiln dialect (contract checked, "
                          "constants folded)"),
               clEnumValN(Emit::Linalg, "linalg",
                          "linalg/tensor IR before bufferisation"),
               clEnumValN(Emit::LLVM, "llvm", "the LLVM dialect")),
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

cl::list<std::string> inputFiles(
    "input", cl::desc("An input as NAME=FILE.npy (NAME is the model's input "
                      "name, or argN)"),
    cl::value_desc("name=file.npy"), cl::sub(runCommand),
    cl::sub(benchCommand));
cl::opt<std::string> outputDir("output-dir",
                               cl::desc("Folder for <output name>.npy files"),
                               cl::value_desc("dir"), cl::init(""),
                               cl::sub(runCommand));
cl::opt<unsigned> warmup("warmup", cl::desc("Untimed runs first"),
                         cl::init(3), cl::sub(benchCommand));
cl::opt<unsigned> iterations("iterations", cl::desc("Timed runs"),
                             cl::init(20), cl::sub(benchCommand));
cl::opt<unsigned> threads("threads",
                          cl::desc("Worker threads (generated code is "
                                   "single-threaded for now: only 1)"),
                          cl::init(1), cl::sub(benchCommand));

constexpr const char *kOverview =
    "Kiln model compiler\n\n"
    "MODEL is a .onnx or .mlir (kiln dialect) file.\n\n"
    "  kilnc compile MODEL -o OUT.kiln               (ahead-of-time artifact)\n"
    "  kilnc compile MODEL --emit=mlir|linalg|llvm [-o FILE]\n"
    "  kilnc run MODEL|OUT.kiln --input NAME=FILE.npy ... "
    "[--output-dir DIR]\n"
    "  kilnc bench MODEL|OUT.kiln [--input NAME=FILE.npy ...] "
    "[--warmup N] [--iterations N]\n"
    "  kilnc inspect MODEL|OUT.kiln\n"
    "Symbolic ONNX input dimensions: --input-shape NAME=DxDx...\n\n"
    "Run `kilnc <command> --help` for a command's options.\n\n"
    "Exit codes: 0 success, 1 usage error, 2 invalid model or inputs,\n"
    "3 model uses something Kiln cannot compile yet, 4 internal error.\n";

int fail(ErrorKind kind, const std::string &message) {
  if (!message.empty())
    llvm::errs() << "kilnc: error: " << message << "\n";
  return static_cast<int>(kind);
}

int fail(const DriverError &error) { return fail(error.kind, error.message); }

/// Reads the model named on the command line, with --input-shape applied.
DriverError load(mlir::MLIRContext &context,
                 mlir::OwningOpRef<mlir::ModuleOp> &module) {
  LoadOptions options;
  for (const std::string &spec : inputShapes)
    if (DriverError error = parseInputShape(spec, options))
      return error;
  for (const std::string &spec : bindings)
    if (DriverError error = parseBinding(spec, options))
      return error;
  return loadModel(context, modelPath, module, options);
}

//===----------------------------------------------------------------------===//
// Inputs and outputs
//===----------------------------------------------------------------------===//

/// Parses --input and loads the files for a model with `inputs`.
DriverError loadInputs(const std::vector<rt::TensorSpec> &inputs,
                       std::vector<rt::HostTensor> &tensors,
                       bool synthesizeMissing) {
  std::vector<rt::InputFile> files;
  for (const std::string &spec : inputFiles) {
    rt::StatusOr<rt::InputFile> file = rt::parseInputSpec(spec);
    if (!file.isOk())
      return {ErrorKind::kUsage, file.status().message()};
    files.push_back(*file);
  }
  rt::StatusOr<std::vector<rt::HostTensor>> loaded =
      rt::loadInputs(files, inputs, synthesizeMissing);
  if (!loaded.isOk())
    return {ErrorKind::kInvalidInput, loaded.status().message()};
  tensors = std::move(*loaded);
  return {};
}

/// A model ready to run: JIT-compiled from MLIR, or loaded from an artifact
/// by the runtime (exactly as kiln-run does).
class Runnable {
public:
  virtual ~Runnable() = default;
  virtual const std::vector<rt::TensorSpec> &inputs() const = 0;
  virtual const std::vector<rt::TensorSpec> &outputs() const = 0;
  virtual rt::Status run(const std::vector<rt::HostTensor> &inputs,
                         std::vector<rt::HostTensor> &outputs) = 0;
};

class JitRunnable : public Runnable {
public:
  explicit JitRunnable(std::unique_ptr<CpuJitExecutable> executable)
      : executable_(std::move(executable)) {}
  const std::vector<rt::TensorSpec> &inputs() const override {
    return executable_->signature().inputs;
  }
  const std::vector<rt::TensorSpec> &outputs() const override {
    return executable_->signature().outputs;
  }
  rt::Status run(const std::vector<rt::HostTensor> &in,
                 std::vector<rt::HostTensor> &out) override {
    return executable_->run(in, out);
  }

private:
  std::unique_ptr<CpuJitExecutable> executable_;
};

class ArtifactRunnable : public Runnable {
public:
  explicit ArtifactRunnable(std::unique_ptr<rt::CpuExecutable> executable)
      : executable_(std::move(executable)) {}
  const std::vector<rt::TensorSpec> &inputs() const override {
    return executable_->program().inputs;
  }
  const std::vector<rt::TensorSpec> &outputs() const override {
    return executable_->program().outputs;
  }
  rt::Status run(const std::vector<rt::HostTensor> &in,
                 std::vector<rt::HostTensor> &out) override {
    return executable_->run(in, out);
  }

private:
  std::unique_ptr<rt::CpuExecutable> executable_;
};

bool isArtifactPath(llvm::StringRef path) { return path.ends_with(".kiln"); }

/// Maps a runtime loading error to an exit code: corrupt or malformed files
/// are invalid input, newer formats or other targets are unsupported.
ErrorKind classify(const rt::Status &status) {
  switch (status.code()) {
  case rt::StatusCode::kUnimplemented:
  case rt::StatusCode::kUnavailable:
    return ErrorKind::kUnsupported;
  case rt::StatusCode::kInternal:
    return ErrorKind::kInternal;
  default:
    return ErrorKind::kInvalidInput;
  }
}

using Clock = std::chrono::steady_clock;
double millisecondsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start)
      .count();
}

/// Loads the model (JIT-compiling MLIR, or loading an artifact); prints how
/// long that took.
DriverError prepare(mlir::MLIRContext &context,
                    std::unique_ptr<Runnable> &runnable) {
  if (target != "cpu")
    return {ErrorKind::kUnsupported,
            "target '" + target + "' is not supported yet (only cpu)"};
  auto start = Clock::now();
  if (isArtifactPath(modelPath)) {
    rt::StatusOr<rt::Artifact> artifact = rt::readArtifactFile(modelPath);
    if (!artifact.isOk())
      return {classify(artifact.status()), artifact.status().message()};
    auto executable = rt::CpuExecutable::load(std::move(*artifact), modelPath);
    if (!executable.isOk())
      return {classify(executable.status()), executable.status().message()};
    runnable = std::make_unique<ArtifactRunnable>(std::move(*executable));
    llvm::outs() << llvm::format("loaded %s in %.1f ms\n", modelPath.c_str(),
                                 millisecondsSince(start));
    return {};
  }
  mlir::OwningOpRef<mlir::ModuleOp> module;
  if (DriverError error = load(context, module))
    return error;
  std::unique_ptr<CpuJitExecutable> executable;
  if (DriverError error = compileForCpu(*module, entryName, executable))
    return error;
  runnable = std::make_unique<JitRunnable>(std::move(executable));
  llvm::outs() << llvm::format("compiled %s in %.1f ms\n", modelPath.c_str(),
                               millisecondsSince(start));
  return {};
}

//===----------------------------------------------------------------------===//
// Commands
//===----------------------------------------------------------------------===//

int compileModel(mlir::MLIRContext &context) {
  if (target != "cpu")
    return fail(ErrorKind::kUnsupported,
                "target '" + target + "' is not supported yet (only cpu)");
  bool wantsArtifact = emit.getNumOccurrences() == 0;
  if (wantsArtifact && !isArtifactPath(outputPath))
    return fail(ErrorKind::kUsage,
                "give -o OUT.kiln for an artifact, or --emit=... for IR");
  mlir::OwningOpRef<mlir::ModuleOp> module;
  if (DriverError error = load(context, module))
    return fail(error);
  if (wantsArtifact) {
    auto start = Clock::now();
    rt::Artifact artifact;
    if (DriverError error =
            compileToArtifact(*module, entryName, artifact, targetCpu))
      return fail(error);
    if (rt::Status status = rt::writeArtifactFile(outputPath, artifact);
        !status.isOk())
      return fail(ErrorKind::kUsage, status.message());
    llvm::outs() << llvm::format("wrote %s (%zu bytes of kernels) in %.1f ms\n",
                                 outputPath.c_str(), artifact.cpuKernels.size(),
                                 millisecondsSince(start));
    return 0;
  }
  Stage stage = emit == Emit::Kiln     ? Stage::kKiln
                : emit == Emit::Linalg ? Stage::kLinalg
                                       : Stage::kLLVM;
  if (DriverError error = lowerTo(*module, stage))
    return fail(error);
  std::string message;
  auto output = mlir::openOutputFile(outputPath, &message);
  if (!output)
    return fail(ErrorKind::kUsage, message);
  mlir::OpPrintingFlags flags;
  if (printLocations)
    flags.enableDebugInfo();
  module->print(output->os(), flags);
  output->keep();
  return 0;
}

int runModel(mlir::MLIRContext &context) {
  std::unique_ptr<Runnable> model;
  if (DriverError error = prepare(context, model))
    return fail(error);
  std::vector<rt::HostTensor> inputs, outputs;
  if (DriverError error =
          loadInputs(model->inputs(), inputs, /*synthesizeMissing=*/false))
    return fail(error);
  auto start = Clock::now();
  if (rt::Status status = model->run(inputs, outputs); !status.isOk())
    return fail(ErrorKind::kInternal, status.message());
  double latency = millisecondsSince(start);
  llvm::outs() << rt::summarizeOutputs(model->outputs(), outputs);
  if (!outputDir.empty())
    if (rt::Status status =
            rt::writeOutputs(outputDir, model->outputs(), outputs);
        !status.isOk())
      return fail(status.code() == rt::StatusCode::kUnimplemented
                      ? ErrorKind::kUnsupported
                      : ErrorKind::kUsage,
                  status.message());
  llvm::outs() << llvm::format("ran in %.3f ms\n", latency);
  return 0;
}

int benchModel(mlir::MLIRContext &context) {
  if (threads != 1)
    return fail(ErrorKind::kUnsupported,
                "--threads: generated CPU code is single-threaded for now");
  if (iterations == 0)
    return fail(ErrorKind::kUsage, "--iterations must be at least 1");
  std::unique_ptr<Runnable> model;
  if (DriverError error = prepare(context, model))
    return fail(error);
  std::vector<rt::HostTensor> inputs, outputs;
  if (DriverError error =
          loadInputs(model->inputs(), inputs, /*synthesizeMissing=*/true))
    return fail(error);
  for (unsigned i = 0; i < warmup; ++i)
    if (rt::Status status = model->run(inputs, outputs); !status.isOk())
      return fail(ErrorKind::kInternal, status.message());
  std::vector<double> times;
  for (unsigned i = 0; i < iterations; ++i) {
    auto start = Clock::now();
    if (rt::Status status = model->run(inputs, outputs); !status.isOk())
      return fail(ErrorKind::kInternal, status.message());
    times.push_back(millisecondsSince(start));
  }
  std::sort(times.begin(), times.end());
  auto percentile = [&](double p) {
    return times[std::min<size_t>(times.size() - 1,
                                  size_t(std::floor(p * times.size())))];
  };
  llvm::outs() << llvm::format(
      "latency over %u runs (1 thread): median %.4f ms, p10 %.4f ms, p90 "
      "%.4f ms\n",
      unsigned(iterations), percentile(0.5), percentile(0.1), percentile(0.9));
  return 0;
}

void printTensors(const char *what, const std::vector<rt::TensorSpec> &specs) {
  for (const rt::TensorSpec &spec : specs) {
    llvm::outs() << "  " << what << " '" << spec.name
                 << "': " << rt::dtypeName(spec.dtype) << "[";
    llvm::interleaveComma(spec.shape, llvm::outs());
    llvm::outs() << "]\n";
  }
}

int inspectModel(mlir::MLIRContext &context) {
  if (!isArtifactPath(modelPath)) {
    // A model file: its interface, before any compilation.
    mlir::OwningOpRef<mlir::ModuleOp> module;
    if (DriverError error = load(context, module))
      return fail(error);
    mlir::FailureOr<EntrySignature> signature =
        getEntrySignature(*module, entryName);
    if (mlir::failed(signature))
      return fail(ErrorKind::kInvalidInput, "");
    llvm::outs() << "model " << modelPath << "\n  entry @"
                 << signature->function << "\n";
    printTensors("input", signature->inputs);
    printTensors("output", signature->outputs);
    return 0;
  }
  rt::StatusOr<rt::Artifact> artifact = rt::readArtifactFile(modelPath);
  if (!artifact.isOk())
    return fail(classify(artifact.status()), artifact.status().message());
  llvm::outs() << "artifact " << modelPath << " (format version "
               << rt::kArtifactFormatVersion << ")\n  target: "
               << artifact->target << "\n";
  printTensors("input", artifact->program.inputs);
  printTensors("output", artifact->program.outputs);
  for (auto [index, device] : llvm::enumerate(artifact->program.devices)) {
    llvm::outs() << "  device " << index << " (cpu): "
                 << device.steps.size() << " step(s), arena "
                 << device.arenaBytes << " bytes\n";
    for (const rt::Step &step : device.steps)
      llvm::outs() << "    call kernel " << step.kernel << "\n";
  }
  llvm::outs() << "  kernels: " << artifact->cpuKernels.size()
               << " bytes (ELF shared object)\n";
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  llvm::setBugReportMsg("PLEASE report this Kiln crash with the model and the "
                        "command line above.\n");
  if (!cl::ParseCommandLineOptions(argc, argv, kOverview, &llvm::errs()))
    return static_cast<int>(ErrorKind::kUsage);

  auto context = createContext();
  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler diagnostics(sourceMgr, context.get());
  ModelDiagnosticPrinter modelDiagnostics(*context);

  if (compileCommand)
    return compileModel(*context);
  if (runCommand)
    return runModel(*context);
  if (benchCommand)
    return benchModel(*context);
  if (inspectCommand)
    return inspectModel(*context);
  llvm::errs() << kOverview;
  return static_cast<int>(ErrorKind::kUsage);
}
