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
#include "kiln/runtime/Npy.h"

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
#include <map>
#include <random>

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

cl::opt<std::string> modelPath(cl::Positional, cl::desc("<model.mlir>"),
                               cl::Required, cl::sub(compileCommand),
                               cl::sub(runCommand), cl::sub(benchCommand));
cl::opt<std::string> entryName("entry",
                               cl::desc("Function to compile (default: the "
                                        "only public one)"),
                               cl::init(""), cl::sub(compileCommand),
                               cl::sub(runCommand), cl::sub(benchCommand));
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
    "  kilnc compile MODEL.mlir [--emit=mlir|linalg|llvm] [-o FILE]\n"
    "  kilnc run MODEL.mlir --input NAME=FILE.npy ... [--output-dir DIR]\n"
    "  kilnc bench MODEL.mlir [--input NAME=FILE.npy ...] [--warmup N] "
    "[--iterations N]\n\n"
    "Run `kilnc <command> --help` for a command's options.\n\n"
    "Exit codes: 0 success, 1 usage error, 2 invalid model or inputs,\n"
    "3 model uses something Kiln cannot compile yet, 4 internal error.\n";

int fail(ErrorKind kind, const std::string &message) {
  if (!message.empty())
    llvm::errs() << "kilnc: error: " << message << "\n";
  return static_cast<int>(kind);
}

int fail(const DriverError &error) { return fail(error.kind, error.message); }

//===----------------------------------------------------------------------===//
// Inputs and outputs
//===----------------------------------------------------------------------===//

/// An output name as a file name: anything but [A-Za-z0-9_.-] becomes '_',
/// and a leading '.' too (no hidden files, no "..").
std::string fileSafeName(const std::string &name) {
  std::string safe = name;
  for (char &c : safe)
    if (!llvm::isAlnum(c) && c != '_' && c != '-' && c != '.')
      c = '_';
  if (safe.empty() || safe[0] == '.')
    safe.insert(safe.begin(), '_');
  return safe;
}

/// Loads --input files in the model's input order.
DriverError loadInputs(const EntrySignature &signature,
                       std::vector<rt::HostTensor> &inputs,
                       bool synthesizeMissing) {
  std::map<std::string, std::string> files;
  for (const std::string &spec : inputFiles) {
    auto [nameRef, path] = llvm::StringRef(spec).split('=');
    llvm::StringRef name = nameRef;
    if (name.empty() || path.empty())
      return {ErrorKind::kUsage,
              "--input expects NAME=FILE.npy, got '" + spec + "'"};
    bool known = llvm::any_of(signature.inputs, [&](const TensorSignature &in) {
      return in.name == name;
    });
    if (!known) {
      std::string names;
      for (const TensorSignature &in : signature.inputs)
        names += (names.empty() ? "" : ", ") + in.name;
      return {ErrorKind::kInvalidInput, "the model has no input named '" +
                                            name.str() + "' (inputs: " +
                                            names + ")"};
    }
    files[name.str()] = path.str();
  }
  std::mt19937 random(42);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  for (const TensorSignature &expected : signature.inputs) {
    auto file = files.find(expected.name);
    if (file == files.end()) {
      if (!synthesizeMissing)
        return {ErrorKind::kInvalidInput,
                "missing --input " + expected.name + "=FILE.npy"};
      // Benchmarks only need data of the right shape.
      rt::HostTensor tensor{expected.dtype, expected.shape, {}};
      tensor.data.resize(size_t(tensor.numElements()) *
                         rt::dtypeSize(expected.dtype));
      if (expected.dtype == rt::DType::kF32)
        for (size_t i = 0; i < tensor.data.size() / 4; ++i)
          reinterpret_cast<float *>(tensor.data.data())[i] = uniform(random);
      inputs.push_back(std::move(tensor));
      continue;
    }
    rt::StatusOr<rt::HostTensor> tensor = rt::readNpyFile(file->second);
    if (!tensor.isOk())
      return {ErrorKind::kInvalidInput, tensor.status().message()};
    if (rt::Status status = checkTensor(*tensor, expected); !status.isOk())
      return {ErrorKind::kInvalidInput, file->second + ": " + status.message()};
    inputs.push_back(std::move(*tensor));
  }
  return {};
}

using Clock = std::chrono::steady_clock;
double millisecondsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start)
      .count();
}

/// Loads and JIT-compiles the model; prints the compile time.
DriverError prepare(mlir::MLIRContext &context,
                    std::unique_ptr<CpuJitExecutable> &executable) {
  if (target != "cpu")
    return {ErrorKind::kUnsupported,
            "target '" + target + "' is not supported yet (only cpu)"};
  auto start = Clock::now();
  mlir::OwningOpRef<mlir::ModuleOp> module;
  if (DriverError error = loadModel(context, modelPath, module))
    return error;
  if (DriverError error = compileForCpu(*module, entryName, executable))
    return error;
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
  mlir::OwningOpRef<mlir::ModuleOp> module;
  if (DriverError error = loadModel(context, modelPath, module))
    return fail(error);
  Stage stage = emit == Emit::Kiln     ? Stage::kKiln
                : emit == Emit::Linalg ? Stage::kLinalg
                                       : Stage::kLLVM;
  if (DriverError error = lowerTo(*module, stage))
    return fail(error);
  std::string message;
  auto output = mlir::openOutputFile(outputPath, &message);
  if (!output)
    return fail(ErrorKind::kUsage, message);
  module->print(output->os());
  output->keep();
  return 0;
}

int runModel(mlir::MLIRContext &context) {
  std::unique_ptr<CpuJitExecutable> executable;
  if (DriverError error = prepare(context, executable))
    return fail(error);
  std::vector<rt::HostTensor> inputs, outputs;
  if (DriverError error = loadInputs(executable->signature(), inputs,
                                     /*synthesizeMissing=*/false))
    return fail(error);
  auto start = Clock::now();
  if (rt::Status status = executable->run(inputs, outputs); !status.isOk())
    return fail(ErrorKind::kInternal, status.message());
  double latency = millisecondsSince(start);

  if (!outputDir.empty())
    if (std::error_code ec = llvm::sys::fs::create_directories(outputDir))
      return fail(ErrorKind::kUsage,
                  "cannot create " + outputDir + ": " + ec.message());
  for (size_t i = 0; i < outputs.size(); ++i) {
    const TensorSignature &signature = executable->signature().outputs[i];
    llvm::outs() << "output '" << signature.name << "': "
                 << rt::dtypeName(signature.dtype) << "[";
    llvm::interleaveComma(signature.shape, llvm::outs());
    llvm::outs() << "]";
    if (signature.dtype == rt::DType::kF32) {
      const float *values =
          reinterpret_cast<const float *>(outputs[i].data.data());
      int64_t shown = std::min<int64_t>(outputs[i].numElements(), 8);
      llvm::outs() << " = [";
      for (int64_t j = 0; j < shown; ++j)
        llvm::outs() << (j ? ", " : "") << llvm::format("%.6g", values[j]);
      llvm::outs() << (outputs[i].numElements() > shown ? ", ...]" : "]");
    }
    llvm::outs() << "\n";
    if (outputDir.empty())
      continue;
    llvm::SmallString<128> path(outputDir);
    llvm::sys::path::append(path, fileSafeName(signature.name) + ".npy");
    if (rt::Status status = rt::writeNpyFile(path.str().str(), outputs[i]);
        !status.isOk())
      return fail(ErrorKind::kUsage, status.message());
  }
  llvm::outs() << llvm::format("ran in %.3f ms\n", latency);
  return 0;
}

int benchModel(mlir::MLIRContext &context) {
  if (threads != 1)
    return fail(ErrorKind::kUnsupported,
                "--threads: generated CPU code is single-threaded for now");
  if (iterations == 0)
    return fail(ErrorKind::kUsage, "--iterations must be at least 1");
  std::unique_ptr<CpuJitExecutable> executable;
  if (DriverError error = prepare(context, executable))
    return fail(error);
  std::vector<rt::HostTensor> inputs, outputs;
  if (DriverError error = loadInputs(executable->signature(), inputs,
                                     /*synthesizeMissing=*/true))
    return fail(error);
  for (unsigned i = 0; i < warmup; ++i)
    if (rt::Status status = executable->run(inputs, outputs); !status.isOk())
      return fail(ErrorKind::kInternal, status.message());
  std::vector<double> times;
  for (unsigned i = 0; i < iterations; ++i) {
    auto start = Clock::now();
    if (rt::Status status = executable->run(inputs, outputs); !status.isOk())
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

  if (compileCommand)
    return compileModel(*context);
  if (runCommand)
    return runModel(*context);
  if (benchCommand)
    return benchModel(*context);
  llvm::errs() << kOverview;
  return static_cast<int>(ErrorKind::kUsage);
}
