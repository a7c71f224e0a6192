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
// `kiln-cuda-emulate launch FILE.cu --kernel K ...` runs one hand-written
// kernel, for tests of the emulator's own checks.
//
//===----------------------------------------------------------------------===//

#include "BlockRunner.h"
#include "DeviceMemory.h"
#include "HostCompile.h"
#include "LaunchCommand.h"
#include "LaunchLimits.h"
#include "Schedules.h"

#include "compiler/Driver/Driver.h"
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

using namespace kiln;
using compiler::DriverError;
using compiler::ErrorKind;
using emu::DeviceBuffer;
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
cl::opt<bool> poison("poison",
                     cl::desc("Fill outputs and the arena with 0xff bytes "
                              "first, as uninitialised device memory"),
                     cl::init(true), cl::sub(runCommand));

constexpr const char *kOverview =
    "Kiln CUDA emulator (tests only): runs the generated CUDA C++ on the "
    "CPU\n\n"
    "  kiln-cuda-emulate run MODEL [--entry FN] --input NAME=FILE.npy ... "
    "[--output-dir DIR]\n\n"
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

int fail(const DriverError &error) {
  return fail(int(error.kind), error.message);
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

int runModel() {
  auto context = compiler::createContext();
  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler sourceHandler(sourceMgr, context.get(),
                                                 llvm::errs());
  compiler::ModelDiagnosticPrinter modelHandler(*context, llvm::errs());

  mlir::OwningOpRef<mlir::ModuleOp> module;
  if (DriverError error = compiler::loadModel(*context, modelPath, module))
    return fail(error);
  compiler::cuda::CudaProgram program;
  compiler::EntrySignature signature;
  compiler::PipelineOptions options;
  options.fusion = fusion == Fusion::All;
  if (DriverError error = compiler::generateCuda(*module, entryName, program,
                                                 signature, nullptr, options))
    return fail(int(error.kind), error.message.empty()
                                     ? "CUDA code generation failed"
                                     : error.message);

  // Inputs, checked against the signature exactly as kilnc does.
  std::vector<rt::InputFile> files;
  for (const std::string &spec : inputFiles) {
    rt::StatusOr<rt::InputFile> file = rt::parseInputSpec(spec);
    if (!file.isOk())
      return fail(int(ErrorKind::kUsage), file.status().message());
    files.push_back(*file);
  }
  rt::StatusOr<std::vector<rt::HostTensor>> inputs =
      rt::loadInputs(files, signature.inputs, /*synthesizeMissing=*/false);
  if (!inputs.isOk())
    return fail(int(ErrorKind::kInvalidInput), inputs.status().message());

  // Device memory.
  std::vector<DeviceBuffer> deviceInputs, deviceOutputs;
  for (const rt::HostTensor &tensor : *inputs) {
    deviceInputs.emplace_back("input " + std::to_string(deviceInputs.size()),
                              tensor.data.size(), false);
    if (!tensor.data.empty())
      std::memcpy(deviceInputs.back().data.get(), tensor.data.data(),
                  tensor.data.size());
  }
  std::vector<rt::HostTensor> outputs(signature.outputs.size());
  for (auto [spec, tensor] : llvm::zip(signature.outputs, outputs)) {
    tensor.dtype = spec.dtype;
    tensor.shape = spec.shape;
    tensor.data.resize(size_t(tensor.numElements()) *
                       rt::dtypeSize(spec.dtype));
    deviceOutputs.emplace_back("output " + std::to_string(deviceOutputs.size()),
                               tensor.data.size(), poison);
  }
  DeviceBuffer arena("the arena", signature.arenaBytes, poison);
  DeviceBuffer constants("the constants", program.constants.size(), false);
  if (!program.constants.empty())
    std::memcpy(constants.data.get(), program.constants.data(),
                program.constants.size());

  // Compile and load the kernels.
  emu::EmulationOptions emulation = emulationOptions();
  emu::TempDir dir;
  if (std::string error = dir.create(); !error.empty())
    return fail(int(ErrorKind::kInternal), error);
  if (emulation.keepTemps)
    dir.keep();
  std::vector<emu::KernelDecl> decls;
  for (const compiler::cuda::EmittedKernel &kernel : program.kernels)
    decls.push_back({kernel.name, kernel.params.size()});
  std::string source = program.source();
  if (std::string error = emu::compileHost(
          dir.path(), emu::hostSource(source, decls), emulation.hostCompiler);
      !error.empty())
    return fail(int(ErrorKind::kInternal), error);
  emu::HostLibrary library;
  if (std::string error = library.load(dir.path()); !error.empty())
    return fail(int(ErrorKind::kInternal), error);
  llvm::StringMap<unsigned> bounds = emu::readLaunchBounds(source);

  for (const compiler::cuda::EmittedKernel &kernel : program.kernels) {
    emu::KernelEntry entry = library.entry(kernel.name);
    if (!entry)
      return fail(int(ErrorKind::kInternal), kernel.name + " is missing");
    std::vector<void *> args;
    std::vector<DeviceBuffer *> touched;
    for (const compiler::cuda::BufferRoot &root : kernel.params) {
      DeviceBuffer *buffer = nullptr;
      switch (root.base) {
      case rt::KernelArg::Base::kInput:
        if (root.index < deviceInputs.size())
          buffer = &deviceInputs[root.index];
        break;
      case rt::KernelArg::Base::kOutput:
        if (root.index < deviceOutputs.size())
          buffer = &deviceOutputs[root.index];
        break;
      case rt::KernelArg::Base::kArena:
        buffer = &arena;
        break;
      case rt::KernelArg::Base::kConstants:
        buffer = &constants;
        break;
      }
      // A launch that reaches past its buffer is an emitter bug; say so
      // rather than corrupt memory.
      if (!buffer || root.byteOffset + root.bytes > buffer->bytes)
        return fail(int(ErrorKind::kInternal),
                    kernel.name + ": argument " + std::to_string(args.size()) +
                        " (" + std::to_string(root.byteOffset) + "+" +
                        std::to_string(root.bytes) +
                        " bytes) is outside its buffer");
      args.push_back(buffer->data.get() + root.byteOffset);
      if (!llvm::is_contained(touched, buffer))
        touched.push_back(buffer);
    }
    if (std::string error =
            emu::checkLaunch(kernel.name, kernel.grid, kernel.block, bounds);
        !error.empty())
      return fail(emu::kKernelDefectExit, error);
    emu::Launch launch{&kernel.name,
                       entry,
                       args.data(),
                       {},
                       {},
                       emulation.allThreaded ||
                           emu::needsThreads(kernel.source),
                       emulation.seed,
                       emulation.checkShared};
    std::copy(kernel.grid, kernel.grid + 3, launch.grid);
    std::copy(kernel.block, kernel.block + 3, launch.block);
    if (std::string error =
            emu::launchUnderSchedules(launch, touched, emulation.schedules);
        !error.empty())
      return fail(emu::kKernelDefectExit, error);
  }

  for (auto [tensor, buffer] : llvm::zip(outputs, deviceOutputs))
    if (!tensor.data.empty())
      std::memcpy(tensor.data.data(), buffer.data.get(), tensor.data.size());
  llvm::outs() << rt::summarizeOutputs(signature.outputs, outputs);
  if (!outputDir.empty())
    if (rt::Status status =
            rt::writeOutputs(outputDir, signature.outputs, outputs);
        !status.isOk())
      return fail(int(ErrorKind::kUsage), status.message());
  return 0;
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
