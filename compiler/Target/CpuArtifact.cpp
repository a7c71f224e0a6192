//===- CpuArtifact.cpp - Ahead-of-time CPU artifacts ----------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "compiler/Target/CpuArtifact.h"

#include "compiler/Codegen/CPU/CpuDispatchEntries.h"
#include "compiler/Codegen/CPU/CpuKernelLibrary.h"
#include "compiler/Codegen/CPU/LargeConstants.h"
#include "compiler/Codegen/CPU/OptimizeLlvm.h"
#include "compiler/Target/CodegenParts.h"
#include "compiler/Target/ConstantsObject.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/Transforms/Utils/SplitModule.h"

#include <atomic>
#include <mutex>
#include <thread>

using namespace mlir;

namespace kiln::compiler {

namespace {

rt::Status runLinker(llvm::ArrayRef<std::string> objects,
                     llvm::StringRef sharedObject) {
  // Debian's default ld.lld is lld 14; use the one that ships with LLVM 22.
  auto linker = llvm::sys::findProgramByName("ld.lld", {"/usr/lib/llvm-22/bin"});
  if (!linker)
    linker = llvm::sys::findProgramByName("ld.lld-22");
  if (!linker)
    return rt::Status(rt::StatusCode::kUnavailable,
                      "cannot find ld.lld (install lld-22)");
  std::string errorMessage;
  llvm::SmallVector<llvm::StringRef> args = {
      *linker, "-shared", "--no-undefined-version", "-o", sharedObject};
  args.append(objects.begin(), objects.end());
  // The kernels may call malloc/free and libm (logf, sinf, f64 math, ...;
  // f32 exp/tanh/erf are inlined polynomials).
  args.append(
      {"-L/usr/lib/x86_64-linux-gnu", "-L/lib/x86_64-linux-gnu", "-lm", "-lc"});
  // Compiler-rt's helpers (bf16 conversions on CPUs without AVX512-BF16),
  // linked in so that the artifact needs nothing of them at run time
  // (libclang-rt-22-dev, scripts/install-deps.sh).
  const char *builtins =
      "/usr/lib/llvm-22/lib/clang/22/lib/linux/libclang_rt.builtins-x86_64.a";
  if (llvm::sys::fs::exists(builtins))
    args.push_back(builtins);
  int rc = llvm::sys::ExecuteAndWait(*linker, args, std::nullopt, {}, 60, 0,
                                     &errorMessage);
  if (rc != 0)
    return rt::internalError("linking the CPU kernels failed (" +
                             std::to_string(rc) + ") " + errorMessage);
  return rt::Status::ok();
}

/// Emits `module` as one object file at `path`.
rt::Status emitObject(llvm::Module &module, llvm::TargetMachine &tm,
                      llvm::StringRef path) {
  std::error_code ec;
  llvm::raw_fd_ostream object(path, ec);
  if (ec)
    return rt::internalError("cannot write " + path.str());
  llvm::legacy::PassManager emit;
  if (tm.addPassesToEmitFile(emit, object, nullptr,
                             llvm::CodeGenFileType::ObjectFile))
    return rt::internalError("the target cannot emit object files");
  emit.run(module);
  return rt::Status::ok();
}

/// Code generation is most of a compile's time, and functions are
/// generated independently: an optimised module with enough functions is
/// split into this many parts (llvm::SplitModule), each generated on its
/// own thread in its own context, and their objects linked together. The
/// count is fixed so that the artifact is the same on every machine with
/// two cores or more.
constexpr unsigned kCodegenParts = 4;
constexpr unsigned kMinFunctionsToSplit = 16;

/// Cores this process may use (its affinity). On one core, cutting and
/// splitting the module is only copying: the module is then optimised
/// and generated whole (the artifact's bytes differ, not what it does).
unsigned codegenThreads() {
  return std::max(1u, llvm::hardware_concurrency().compute_thread_count());
}

unsigned definedFunctions(const llvm::Module &module) {
  unsigned functions = 0;
  for (const llvm::Function &function : module)
    functions += !function.isDeclaration();
  return functions;
}

/// The target of artifacts built on this host.
llvm::Triple hostTriple() {
  return llvm::Triple(llvm::sys::getProcessTriple());
}

/// Where object file `name` goes in `folder`.
std::string objectPath(llvm::StringRef folder, llvm::StringRef name) {
  llvm::SmallString<128> path(folder);
  llvm::sys::path::append(path, name);
  return std::string(path);
}

/// LLVM's -O3 pipeline on `module`, its error as a status.
rt::Status runO3(llvm::Module &module, llvm::TargetMachine &tm) {
  if (llvm::Error error = optimizeKernels(module, tm))
    return rt::internalError("LLVM optimisation failed: " +
                             llvm::toString(std::move(error)));
  return rt::Status::ok();
}

/// Writes each part (bitcode) as object file kernelsN.o in `folder`, on
/// threads, after LLVM's -O3 pipeline when `optimize`; `paths` names them
/// before any is written, for the clean-up.
rt::Status emitParts(llvm::ArrayRef<llvm::SmallVector<char, 0>> parts,
                     bool optimize,
                     const llvm::orc::JITTargetMachineBuilder &builder,
                     llvm::StringRef folder, std::vector<std::string> &paths);

/// Writes `module` as object files in `folder` (kernels.o, or kernels0.o
/// ...); `paths` names them before any is written, for the clean-up.
rt::Status emitObjects(std::unique_ptr<llvm::Module> module,
                       const llvm::orc::JITTargetMachineBuilder &builder,
                       llvm::TargetMachine &tm, llvm::StringRef folder,
                       std::vector<std::string> &paths) {
  if (definedFunctions(*module) < kMinFunctionsToSplit ||
      codegenThreads() < 2) {
    paths = {objectPath(folder, "kernels.o")};
    return emitObject(*module, tm, paths.front());
  }
  // Parts travel as bitcode: a context is not shared between threads.
  std::vector<llvm::SmallVector<char, 0>> parts;
  llvm::SplitModule(*module, kCodegenParts,
                    [&](std::unique_ptr<llvm::Module> part) {
                      parts.emplace_back();
                      llvm::raw_svector_ostream os(parts.back());
                      llvm::WriteBitcodeToFile(*part, os);
                    });
  module.reset();
  return emitParts(parts, /*optimize=*/false, builder, folder, paths);
}

rt::Status emitParts(llvm::ArrayRef<llvm::SmallVector<char, 0>> parts,
                     bool optimize,
                     const llvm::orc::JITTargetMachineBuilder &builder,
                     llvm::StringRef folder, std::vector<std::string> &paths) {
  for (size_t index = 0; index < parts.size(); ++index)
    paths.push_back(
        objectPath(folder, "kernels" + std::to_string(index) + ".o"));
  std::vector<rt::Status> statuses(parts.size());
  auto emitPart = [&](size_t index) {
    llvm::LLVMContext context;
    auto part = llvm::parseBitcodeFile(
        llvm::MemoryBufferRef(
            llvm::StringRef(parts[index].data(), parts[index].size()),
            "kernels"),
        context);
    if (!part) {
      statuses[index] = rt::internalError("reading back a code part: " +
                                          llvm::toString(part.takeError()));
      return;
    }
    llvm::orc::JITTargetMachineBuilder own = builder;
    auto partTm = own.createTargetMachine();
    if (!partTm) {
      statuses[index] = rt::internalError("cannot create a target machine: " +
                                          llvm::toString(partTm.takeError()));
      return;
    }
    if (optimize)
      if (rt::Status status = runO3(**part, **partTm); !status.isOk()) {
        statuses[index] = status;
        return;
      }
    statuses[index] = emitObject(**part, **partTm, paths[index]);
  };
  unsigned workers = std::min<unsigned>(parts.size(), codegenThreads());
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t index; (index = next++) < parts.size();)
      emitPart(index);
  };
  std::vector<std::thread> threads;
  for (unsigned i = 1; i < workers; ++i)
    threads.emplace_back(work);
  work();
  for (std::thread &thread : threads)
    thread.join();
  for (const rt::Status &status : statuses)
    KILN_RETURN_IF_ERROR(status);
  return rt::Status::ok();
}

} // namespace

uint64_t rawConstantBytes() {
  return canWriteConstantsObject(hostTriple()) ? kLargeConstantBytes : 0;
}

rt::StatusOr<rt::Artifact> buildCpuArtifact(ModuleOp loweredModule,
                                            const EntrySignature &signature,
                                            rt::DeviceProgram program,
                                            llvm::StringRef cpu,
                                            TimingScope *timing) {
  TimingScope untimed;
  TimingScope &parent = timing ? *timing : untimed;
  static std::once_flag initialized;
  std::call_once(initialized, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    // The kernel library has inline assembly (cpuid, xgetbv).
    llvm::InitializeNativeTargetAsmParser();
  });
  auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!builder)
    return rt::internalError("cannot describe the host CPU: " +
                             llvm::toString(builder.takeError()));
  if (cpu != "native") {
    // A named CPU brings its own feature set; the host's must not leak in.
    builder->setCPU(cpu.str());
    builder->getFeatures() = llvm::SubtargetFeatures();
  }
  // Shared objects need position-independent code.
  builder->setRelocationModel(llvm::Reloc::PIC_);
  builder->setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
  auto targetMachine = builder->createTargetMachine();
  if (!targetMachine)
    return rt::internalError("cannot create a target machine: " +
                             llvm::toString(targetMachine.takeError()));
  llvm::TargetMachine &tm = **targetMachine;
  if (!tm.getMCSubtargetInfo()->isCPUStringValid(tm.getTargetCPU()))
    return rt::invalidArgument("unknown CPU '" + cpu.str() +
                               "' (try native, x86-64, x86-64-v3, x86-64-v4)");

  TimingScope phase = parent.nest("translation to LLVM IR");
  std::vector<RawConstant> constants;
  if (uint64_t minBytes = rawConstantBytes())
    constants = takeLargeConstants(loweredModule, minBytes,
                                   ConstantBinding::kSameObject);
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> module =
      translateModuleToLLVMIR(loweredModule, context, "kiln");
  if (!module)
    return rt::internalError("translation to LLVM IR failed");
  module->setTargetTriple(tm.getTargetTriple());
  module->setDataLayout(tm.createDataLayout());
  keepDataMovementLoopsRolled(*module);
  KILN_RETURN_IF_ERROR(addCpuDispatchEntries(*module, program));
  KILN_RETURN_IF_ERROR(linkCpuKernelLibrary(*module));
  if (llvm::verifyModule(*module, &llvm::errs()))
    return rt::internalError("generated LLVM IR does not verify");
  // A module with enough functions is cut before -O3 (CodegenParts.h) and
  // each part optimised and generated on its own thread.
  std::vector<llvm::SmallVector<char, 0>> parts;
  if (definedFunctions(*module) >= kMinFunctionsToSplit &&
      codegenThreads() >= 2) {
    phase = parent.nest("cutting into parts");
    parts = cutForCodegen(*module, kCodegenParts);
  }
  if (parts.empty()) {
    phase = parent.nest("LLVM optimisation");
    KILN_RETURN_IF_ERROR(runO3(*module, tm));
  } else {
    module.reset();
  }

  // Object file in a temporary folder, then a shared object next to it.
  llvm::SmallString<128> folder;
  if (std::error_code ec =
          llvm::sys::fs::createUniqueDirectory("kiln-aot", folder))
    return rt::internalError("cannot create a temporary folder: " +
                             ec.message());
  llvm::SmallString<128> sharedPath(folder);
  llvm::sys::path::append(sharedPath, "kernels.so");
  std::vector<std::string> objects;
  llvm::scope_exit cleanup([&] {
    for (const std::string &object : objects)
      llvm::sys::fs::remove(object);
    llvm::sys::fs::remove(sharedPath);
    llvm::sys::fs::remove(folder);
  });
  if (parts.empty()) {
    phase = parent.nest("machine code");
    KILN_RETURN_IF_ERROR(
        emitObjects(std::move(module), *builder, tm, folder, objects));
  } else {
    phase = parent.nest("LLVM optimisation and machine code, in parts");
    KILN_RETURN_IF_ERROR(
        emitParts(parts, /*optimize=*/true, *builder, folder, objects));
  }
  if (!constants.empty()) {
    llvm::SmallString<128> constantsPath(folder);
    llvm::sys::path::append(constantsPath, "constants.o");
    objects.push_back(std::string(constantsPath));
    KILN_RETURN_IF_ERROR(
        writeConstantsObject(constantsPath, tm.getTargetTriple(), constants));
  }
  phase = parent.nest("linking");
  KILN_RETURN_IF_ERROR(runLinker(objects, sharedPath));
  auto library = llvm::MemoryBuffer::getFile(sharedPath);
  if (!library)
    return rt::internalError("cannot read the linked kernels");

  rt::Artifact artifact;
  artifact.target = "cpu " + tm.getTargetTriple().str() + " " +
                    tm.getTargetCPU().str();
  artifact.program.inputs = signature.inputs;
  artifact.program.outputs = signature.outputs;
  artifact.program.devices.push_back(std::move(program));
  llvm::StringRef bytes = (*library)->getBuffer();
  artifact.cpuKernels.assign(bytes.bytes_begin(), bytes.bytes_end());
  return artifact;
}

} // namespace kiln::compiler
