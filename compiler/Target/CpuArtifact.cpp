//===- CpuArtifact.cpp - Ahead-of-time CPU artifacts ----------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "compiler/Target/CpuArtifact.h"

#include "compiler/Codegen/CPU/CpuDispatchEntries.h"
#include "compiler/Codegen/CPU/CpuKernelLibrary.h"

#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/Target/TargetMachine.h"

#include <mutex>

using namespace mlir;

namespace kiln::compiler {

namespace {

rt::Status runLinker(llvm::StringRef object, llvm::StringRef sharedObject) {
  // Debian's default ld.lld is lld 14; use the one that ships with LLVM 22.
  auto linker = llvm::sys::findProgramByName("ld.lld", {"/usr/lib/llvm-22/bin"});
  if (!linker)
    linker = llvm::sys::findProgramByName("ld.lld-22");
  if (!linker)
    return rt::Status(rt::StatusCode::kUnavailable,
                      "cannot find ld.lld (install lld-22)");
  std::string errorMessage;
  llvm::SmallVector<llvm::StringRef> args = {
      *linker, "-shared", "--no-undefined-version", "-o", sharedObject, object,
      // The kernels may call malloc/free and libm (logf, sinf, f64 math, ...;
      // f32 exp/tanh/erf are inlined polynomials).
      "-L/usr/lib/x86_64-linux-gnu", "-L/lib/x86_64-linux-gnu", "-lm", "-lc"};
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

} // namespace

rt::StatusOr<rt::Artifact> buildCpuArtifact(ModuleOp loweredModule,
                                            const EntrySignature &signature,
                                            rt::DeviceProgram program,
                                            llvm::StringRef cpu) {
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

  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> module =
      translateModuleToLLVMIR(loweredModule, context, "kiln");
  if (!module)
    return rt::internalError("translation to LLVM IR failed");
  module->setTargetTriple(tm.getTargetTriple());
  module->setDataLayout(tm.createDataLayout());
  KILN_RETURN_IF_ERROR(addCpuDispatchEntries(*module, program));
  KILN_RETURN_IF_ERROR(linkCpuKernelLibrary(*module));
  if (llvm::verifyModule(*module, &llvm::errs()))
    return rt::internalError("generated LLVM IR does not verify");
  if (llvm::Error error =
          makeOptimizingTransformer(3, 0, &tm)(module.get()))
    return rt::internalError("LLVM optimisation failed: " +
                             llvm::toString(std::move(error)));

  // Object file in a temporary folder, then a shared object next to it.
  llvm::SmallString<128> folder;
  if (std::error_code ec =
          llvm::sys::fs::createUniqueDirectory("kiln-aot", folder))
    return rt::internalError("cannot create a temporary folder: " +
                             ec.message());
  llvm::SmallString<128> objectPath(folder), sharedPath(folder);
  llvm::sys::path::append(objectPath, "kernels.o");
  llvm::sys::path::append(sharedPath, "kernels.so");
  llvm::scope_exit cleanup([&] {
    llvm::sys::fs::remove(objectPath);
    llvm::sys::fs::remove(sharedPath);
    llvm::sys::fs::remove(folder);
  });
  {
    std::error_code ec;
    llvm::raw_fd_ostream object(objectPath, ec);
    if (ec)
      return rt::internalError("cannot write " + objectPath.str().str());
    llvm::legacy::PassManager emit;
    if (tm.addPassesToEmitFile(emit, object, nullptr,
                               llvm::CodeGenFileType::ObjectFile))
      return rt::internalError("the target cannot emit object files");
    emit.run(*module);
  }
  KILN_RETURN_IF_ERROR(runLinker(objectPath, sharedPath));
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
