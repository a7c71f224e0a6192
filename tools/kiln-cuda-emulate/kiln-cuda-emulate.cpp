//===- kiln-cuda-emulate.cpp - Run generated CUDA C++ on the CPU ----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// A test tool: `kiln-cuda-emulate run MODEL --input NAME=FILE.npy ...
// --output-dir DIR` generates the model's CUDA C++ (as `kilnc compile
// --target cuda --emit=cuda` does), compiles it for the host together with
// CudaHostShim.h, and runs every kernel launch on CPU threads. Its command
// line, messages and exit codes are those of `kilnc run`, so that
// test/e2e/lib/check_e2e.py can check the CUDA emitter's numerics on
// machines without a GPU (docs/cuda-emulator.md). Meant for small test
// models: a block's threads are fibers and blocks run one at a time.
// With `--devices N --parallel S` it runs every rank of the sharded model
// in lockstep, their collectives between them (EmulatedProgram.h).
// `kiln-cuda-emulate launch FILE.cu --kernel K ...` runs one hand-written
// kernel, for tests of the emulator's own checks.
//
//===----------------------------------------------------------------------===//

#include "EmulatedProgram.h"
#include "HostCompile.h"
#include "LaunchCommand.h"

#include "compiler/Driver/Driver.h"
#include "kiln/runtime/BatchSlices.h"
#include "kiln/runtime/Bindings.h"
#include "kiln/runtime/CommunicatorCollectives.h"
#include "kiln/runtime/InProcessGroup.h"
#include "kiln/runtime/ModelIO.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <thread>

using namespace kiln;
using compiler::DriverError;
using compiler::ErrorKind;
namespace cl = llvm::cl;

namespace {

cl::SubCommand runCommand("run", "Run a model's CUDA kernels on the CPU");
cl::SubCommand launchCommand("launch",
                             "Run one CUDA C++ kernel on the CPU (tests of "
                             "the emulator's checks)");
cl::opt<std::string> modelPath(cl::Positional, cl::desc("<model.mlir>"),
                               cl::Required, cl::sub(runCommand));
cl::opt<std::string> entryName("entry",
                               cl::desc("Function to run (default: the only "
                                        "public one)"),
                               cl::init(""), cl::sub(runCommand));
cl::list<std::string>
    inputFiles("input",
               cl::desc("An input as NAME=FILE.npy (NAME is the model's input "
                        "name, or argN)"),
               cl::value_desc("name=file.npy"), cl::sub(runCommand));
cl::opt<std::string> outputDir("output-dir",
                               cl::desc("Folder for <output name>.npy files"),
                               cl::value_desc("dir"), cl::init(""),
                               cl::sub(runCommand));
enum class Fusion { None, All };
cl::opt<Fusion> fusion(
    "fusion", cl::desc("Operator fusion (none: one kernel per op, for A/B)"),
    cl::init(Fusion::All),
    cl::values(clEnumValN(Fusion::None, "none", "no fusion groups"),
               clEnumValN(Fusion::All, "all", "every fusion rule (default)")),
    cl::sub(runCommand));
cl::opt<std::string>
    hostCompiler("host-cxx",
                 cl::desc("C++ compiler for the kernels (default: $KILN_EMU_"
                          "CXX, else clang++-22)"),
                 cl::init(""), cl::sub(runCommand), cl::sub(launchCommand));
cl::opt<bool> keepTemps("keep-temps",
                        cl::desc("Keep the host source and library (and say "
                                 "where)"),
                        cl::init(false), cl::sub(runCommand),
                        cl::sub(launchCommand));
cl::opt<bool> allThreaded(
    "all-threaded",
    cl::desc("Run every kernel's threads interleaved as fibers (default: "
             "only kernels that synchronise)"),
    cl::init(false), cl::sub(runCommand), cl::sub(launchCommand));
cl::opt<uint64_t>
    seed("seed",
         cl::desc("Seed of the order of blocks and the interleaving of "
                  "threads (default: $KILN_EMU_SEED, else 1)"),
         cl::init(1), cl::sub(runCommand), cl::sub(launchCommand));
cl::opt<unsigned> schedules(
    "schedules",
    cl::desc("Run each launch under this many seeds and require the same "
             "result (default 2)"),
    cl::init(2), cl::sub(runCommand), cl::sub(launchCommand));
cl::opt<bool> sharedChecks(
    "shared-checks",
    cl::desc("Report data races on __shared__ memory and reads of it that "
             "no thread of the block wrote (default true)"),
    cl::init(true), cl::sub(runCommand), cl::sub(launchCommand));
cl::opt<std::string> kernelFile(cl::Positional, cl::desc("<kernel.cu>"),
                                cl::Required, cl::sub(launchCommand));
cl::opt<std::string> kernelName("kernel", cl::desc("The kernel to launch"),
                                cl::Required, cl::sub(launchCommand));
cl::opt<std::string> gridSpec("grid", cl::desc("Blocks: X[,Y[,Z]]"),
                              cl::init("1"), cl::sub(launchCommand));
cl::opt<std::string> blockSpec("block",
                               cl::desc("Threads per block: X[,Y[,Z]]"),
                               cl::init("1"), cl::sub(launchCommand));
cl::list<uint64_t>
    bufferSizes("buffer",
                cl::desc("A float buffer of N elements holding 0, 1, 2, ... "
                         "(one per kernel argument, in order)"),
                cl::value_desc("N"), cl::sub(launchCommand));
cl::opt<unsigned> devices(
    "devices",
    cl::desc("Ranks of a sharded model, each its own program, run in "
             "lockstep with their collectives between them (default 1)"),
    cl::init(1), cl::sub(runCommand));
cl::opt<std::string> parallel(
    "parallel",
    cl::desc("How --devices shards the model: tensor, sequence, data (ranks "
             "that slice the batch and gather) or pipeline (stages run one "
             "after another)"),
    cl::init("tensor"), cl::sub(runCommand));
cl::opt<unsigned> microBatches(
    "micro-batches",
    cl::desc("With --parallel pipeline: the batch as M slices, each through "
             "every stage (default 1)"),
    cl::init(1), cl::sub(runCommand));
cl::opt<bool> poison("poison",
                     cl::desc("Fill outputs and the arena with 0xff bytes "
                              "first, as uninitialised device memory"),
                     cl::init(true), cl::sub(runCommand));

constexpr const char *kOverview =
    "Kiln CUDA emulator (tests only): runs the generated CUDA C++ on the "
    "CPU\n\n"
    "  kiln-cuda-emulate run MODEL [--entry FN] --input NAME=FILE.npy ... "
    "[--output-dir DIR]\n      [--devices N --parallel tensor|sequence|data|"
    "pipeline [--micro-batches M]]"
    "\n\n"
    "  kiln-cuda-emulate launch FILE.cu --kernel NAME [--grid X,Y,Z] "
    "[--block X,Y,Z]\n      --buffer N ...\n\n"
    "Exit codes as kilnc: 0 success, 1 usage error, 2 invalid model or "
    "inputs,\n3 model uses something Kiln cannot compile yet, 4 internal "
    "error (also:\nthe generated code does not compile or run on the host); "
    "and 6: a kernel defect\n(a race, an uninitialised __shared__ read, a "
    "divergent barrier, a launch\nover its limits).\n";

// Messages start with "kilnc: error:" on purpose: the tool stands in for
// `kilnc run` and the e2e cases match kilnc's stderr.
int fail(int code, const std::string &message) {
  if (!message.empty())
    llvm::errs() << "kilnc: error: " << message << "\n";
  return code;
}

emu::EmulationOptions emulationOptions() {
  emu::EmulationOptions options;
  options.hostCompiler = hostCompiler;
  options.keepTemps = keepTemps;
  options.allThreaded = allThreaded;
  options.seed = seed;
  if (seed.getNumOccurrences() == 0) {
    const char *fromEnv = std::getenv("KILN_EMU_SEED");
    options.seed = fromEnv ? std::strtoull(fromEnv, nullptr, 10) : 1;
  }
  options.schedules = schedules;
  options.checkShared = sharedChecks;
  return options;
}

/// Runs every rank's steps in lockstep: each rank's launches up to its
/// next collective, then that collective on every rank at once (an
/// in-process communicator, on threads), as the runtime's CUDA ranks do
/// with NCCL.
std::optional<emu::Failure>
runInLockstep(std::vector<std::unique_ptr<emu::EmulatedProgram>> &ranks) {
  size_t count = ranks.size();
  std::vector<std::unique_ptr<rt::Communicator>> communicators;
  std::vector<std::unique_ptr<rt::CommunicatorCollectives>> hooks;
  if (count > 1) {
    auto group = rt::InProcessGroup::create(int(count));
    if (!group.isOk())
      return emu::Failure{int(ErrorKind::kInternal), group.status().message()};
    communicators = std::move(*group);
    for (auto &communicator : communicators)
      hooks.push_back(
          std::make_unique<rt::CommunicatorCollectives>(*communicator));
  }
  std::vector<size_t> next(count, 0);
  for (;;) {
    size_t finished = 0;
    for (size_t r = 0; r < count; ++r) {
      const std::vector<rt::Step> &steps = ranks[r]->steps();
      for (; next[r] < steps.size() &&
             steps[next[r]].kind == rt::Step::Kind::kLaunchKernel;
           ++next[r])
        if (std::optional<emu::Failure> failure = ranks[r]->launch(next[r]))
          return failure;
      finished += next[r] == steps.size() ? 1 : 0;
    }
    if (finished == count)
      return std::nullopt;
    if (finished != 0 || hooks.empty())
      return emu::Failure{int(ErrorKind::kInternal),
                          "the ranks' programs do not have the same "
                          "collectives"};
    std::vector<rt::Status> statuses(count);
    auto collective = [&](size_t r) {
      rt::StepEvent event;
      event.index = uint32_t(next[r]);
      event.step = &ranks[r]->steps()[next[r]];
      event.buffers = &ranks[r]->buffers();
      statuses[r] = hooks[r]->run(event);
      // A rank that fails must not leave the others waiting.
      if (!statuses[r].isOk())
        communicators[r]->abort();
    };
    std::vector<std::thread> threads;
    for (size_t r = 1; r < count; ++r)
      threads.emplace_back(collective, r);
    collective(0);
    for (std::thread &thread : threads)
      thread.join();
    for (size_t r = 0; r < count; ++r) {
      if (!statuses[r].isOk())
        return emu::Failure{int(ErrorKind::kInternal),
                            "rank " + std::to_string(r) + ": " +
                                statuses[r].message()};
      ++next[r];
    }
  }
}

/// Rank `rank`'s CUDA program and interface, generated from its own copy
/// of the model as kilnc compile does.
std::optional<emu::Failure> generateRank(mlir::MLIRContext &context,
                                         unsigned rank,
                                         compiler::cuda::CudaProgram &program,
                                         compiler::EntrySignature &signature) {
  mlir::OwningOpRef<mlir::ModuleOp> module;
  if (DriverError error = compiler::loadModel(context, modelPath, module))
    return emu::Failure{int(error.kind), error.message};
  compiler::PipelineOptions options;
  options.fusion = fusion == Fusion::All;
  options.ranks = devices;
  options.rank = rank;
  options.parallel = parallel;
  options.microBatches = microBatches;
  if (DriverError error = compiler::generateCuda(*module, entryName, program,
                                                 signature, nullptr, options))
    return emu::Failure{int(error.kind), error.message.empty()
                                             ? "CUDA code generation failed"
                                             : error.message};
  return std::nullopt;
}

/// The inputs named on the command line, checked against `specs` exactly
/// as kilnc does.
std::optional<emu::Failure> loadInputs(const std::vector<rt::TensorSpec> &specs,
                                       std::vector<rt::HostTensor> &inputs) {
  std::vector<rt::InputFile> files;
  for (const std::string &spec : inputFiles) {
    rt::StatusOr<rt::InputFile> file = rt::parseInputSpec(spec);
    if (!file.isOk())
      return emu::Failure{int(ErrorKind::kUsage), file.status().message()};
    files.push_back(*file);
  }
  rt::StatusOr<std::vector<rt::HostTensor>> loaded =
      rt::loadInputs(files, specs, /*synthesizeMissing=*/false);
  if (!loaded.isOk())
    return emu::Failure{int(ErrorKind::kInvalidInput),
                        loaded.status().message()};
  inputs = std::move(*loaded);
  return std::nullopt;
}

/// `specs` with their first dimension `times` as long: a micro-batch's
/// interface made the whole batch's.
std::vector<rt::TensorSpec> wholeBatch(std::vector<rt::TensorSpec> specs,
                                       int64_t times) {
  for (rt::TensorSpec &spec : specs)
    if (!spec.shape.empty())
      spec.shape[0] *= times;
  return specs;
}

/// Prints the outputs and writes them where --output-dir says.
int finish(const std::vector<rt::TensorSpec> &specs,
           std::vector<rt::HostTensor> outputs) {
  // Outputs the data decides the length of, cut as the runtime cuts them.
  if (rt::Status status = rt::applyRuntimeLengths(specs, outputs);
      !status.isOk())
    return fail(int(ErrorKind::kInternal), status.message());
  llvm::outs() << rt::summarizeOutputs(specs, outputs);
  if (!outputDir.empty())
    if (rt::Status status = rt::writeOutputs(outputDir, specs, outputs);
        !status.isOk())
      return fail(int(ErrorKind::kUsage), status.message());
  return 0;
}

/// Pipeline stages, one after another on each micro-batch: stage r takes
/// the model's inputs (the micro-batch's rows) and, by name, what stage
/// r - 1 returned, as the runtime hands them over; the last stage's
/// outputs, stacked, are the model's.
int runPipeline(mlir::MLIRContext &context) {
  std::vector<std::unique_ptr<emu::EmulatedProgram>> stages(devices);
  std::vector<compiler::EntrySignature> signatures(devices);
  std::vector<rt::HostTensor> inputs;
  std::vector<std::vector<rt::HostTensor>> results;
  for (unsigned m = 0; m < microBatches; ++m) {
    std::vector<rt::HostTensor> slice, previous;
    std::vector<rt::TensorSpec> previousSpecs;
    for (unsigned r = 0; r < devices; ++r) {
      compiler::EntrySignature &signature = signatures[r];
      std::string name = "stage " + std::to_string(r) + ": ";
      compiler::cuda::CudaProgram program;
      if (m == 0) {
        if (std::optional<emu::Failure> failure =
                generateRank(context, r, program, signature))
          return fail(failure->code, failure->message);
        for (const rt::Step &step : program.schedule.steps)
          if (step.kind != rt::Step::Kind::kLaunchKernel)
            return fail(int(ErrorKind::kInternal),
                        name + "a stage with collective steps");
      }
      if (r == 0 && m == 0) {
        if (std::optional<emu::Failure> failure =
                loadInputs(wholeBatch(signature.inputs, microBatches), inputs))
          return fail(failure->code, failure->message);
      }
      if (r == 0) {
        auto sliced = rt::sliceBatch(inputs, m, microBatches);
        if (!sliced.isOk())
          return fail(int(ErrorKind::kInvalidInput), sliced.status().message());
        slice = std::move(*sliced);
      }
      // The model's inputs, then the previous stage's values by name.
      std::vector<rt::HostTensor> stageInputs(slice);
      for (size_t i = slice.size(); i < signature.inputs.size(); ++i) {
        auto it = llvm::find_if(previousSpecs, [&](const rt::TensorSpec &s) {
          return s.name == signature.inputs[i].name;
        });
        if (it == previousSpecs.end())
          return fail(int(ErrorKind::kInternal),
                      name + "no earlier stage returns '" +
                          signature.inputs[i].name + "'");
        stageInputs.push_back(previous[it - previousSpecs.begin()]);
      }
      if (m == 0) {
        if (std::optional<emu::Failure> failure = emu::EmulatedProgram::create(
                std::move(program), signature.outputs, signature.arenaBytes,
                stageInputs, emulationOptions(), poison, name, stages[r]))
          return fail(failure->code, failure->message);
      } else if (std::optional<emu::Failure> failure =
                     stages[r]->restart(stageInputs, poison)) {
        return fail(failure->code, failure->message);
      }
      for (size_t step = 0; step < stages[r]->steps().size(); ++step)
        if (std::optional<emu::Failure> failure = stages[r]->launch(step))
          return fail(failure->code, failure->message);
      previous = stages[r]->outputs();
      previousSpecs = signature.outputs;
    }
    results.push_back(std::move(previous));
  }
  auto outputs = rt::stackBatch(results);
  if (!outputs.isOk())
    return fail(int(ErrorKind::kInternal), outputs.status().message());
  return finish(wholeBatch(signatures.back().outputs, microBatches), *outputs);
}

int runModel() {
  auto context = compiler::createContext();
  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler sourceHandler(sourceMgr, context.get(),
                                                 llvm::errs());
  compiler::ModelDiagnosticPrinter modelHandler(*context, llvm::errs());
  if (devices < 1 || devices > 64)
    return fail(int(ErrorKind::kUsage), "--devices must be from 1 to 64");
  if (parallel != "tensor" && parallel != "sequence" && parallel != "data" &&
      parallel != "pipeline")
    return fail(int(ErrorKind::kUsage),
                "--parallel must be tensor, sequence, data or pipeline");
  if (microBatches < 1 || microBatches > 64 ||
      (microBatches > 1 && (parallel != "pipeline" || devices < 2)))
    return fail(int(ErrorKind::kUsage),
                "--micro-batches is from 1 to 64, for --parallel pipeline "
                "over 2 or more devices");
  if (parallel == "pipeline" && devices > 1)
    return runPipeline(*context);

  emu::EmulationOptions emulation = emulationOptions();
  std::vector<std::unique_ptr<emu::EmulatedProgram>> ranks(devices);
  compiler::EntrySignature model;
  std::vector<rt::HostTensor> inputs;
  for (unsigned rank = 0; rank < devices; ++rank) {
    compiler::cuda::CudaProgram program;
    compiler::EntrySignature signature;
    if (std::optional<emu::Failure> failure =
            generateRank(*context, rank, program, signature))
      return fail(failure->code, failure->message);
    if (rank == 0) {
      if (std::optional<emu::Failure> failure =
              loadInputs(signature.inputs, inputs))
        return fail(failure->code, failure->message);
      model = signature;
    }
    std::string name =
        devices > 1 ? "rank " + std::to_string(rank) + ": " : std::string();
    if (std::optional<emu::Failure> failure = emu::EmulatedProgram::create(
            std::move(program), signature.outputs, signature.arenaBytes, inputs,
            emulation, poison, name, ranks[rank]))
      return fail(failure->code, failure->message);
  }
  if (std::optional<emu::Failure> failure = runInLockstep(ranks))
    return fail(failure->code, failure->message);

  // Rank 0's outputs are the model's (every rank has the whole interface).
  return finish(model.outputs, ranks.front()->outputs());
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  if (!cl::ParseCommandLineOptions(argc, argv, kOverview, &llvm::errs()))
    return int(ErrorKind::kUsage);
  if (runCommand)
    return runModel();
  if (launchCommand) {
    emu::LaunchRequest request{kernelFile,
                               kernelName,
                               gridSpec,
                               blockSpec,
                               {bufferSizes.begin(), bufferSizes.end()}};
    return emu::runLaunchCommand(request, emulationOptions());
  }
  llvm::errs() << kOverview;
  return int(ErrorKind::kUsage);
}
