//===- CpuJit.cpp - Run a lowered model in-process ------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The dispatch entries are added to the LLVM module before it is optimised
// (CpuDispatchEntries), then looked up once: the runtime's CPU executor
// calls them exactly as it calls an artifact's.
//
//===----------------------------------------------------------------------===//

#include "compiler/Codegen/CPU/CpuJit.h"

#include "compiler/Codegen/CPU/CpuDispatchEntries.h"
#include "compiler/Codegen/CPU/CpuKernelLibrary.h"
#include "compiler/Codegen/CPU/OptimizeLlvm.h"
#include "kiln/runtime/CpuSchedule.h"

#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/TargetSelect.h"

#include <cmath>
#include <cstring>
#include <mutex>

using namespace mlir;

namespace kiln::compiler {

namespace {
/// f32 -> bf16, rounding to nearest even; NaNs stay quiet NaNs.
uint16_t toBf16Bits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  if ((bits & 0x7fffffffu) > 0x7f800000u)
    return uint16_t((bits >> 16) | 0x40);
  bits += 0x7fffu + ((bits >> 16) & 1);
  return uint16_t(bits >> 16);
}

__bf16 truncSfBf2(float value) {
  uint16_t bits = toBf16Bits(value);
  __bf16 result;
  std::memcpy(&result, &bits, sizeof result);
  return result;
}

/// f64 -> bf16 without double rounding: f64 -> f32 rounding to odd
/// (truncate, then set the last bit if inexact), then f32 -> bf16.
__bf16 truncDfBf2(double value) {
  float narrow = float(value);
  if (!std::isnan(value) && double(narrow) != value) {
    uint32_t bits;
    std::memcpy(&bits, &narrow, sizeof bits);
    if (std::fabs(double(narrow)) > std::fabs(value))
      --bits; // One step towards zero (magnitude bits; also inf -> max).
    bits |= 1;
    std::memcpy(&narrow, &bits, sizeof bits);
  }
  return truncSfBf2(narrow);
}

/// Compiler-runtime helpers that generated code calls on CPUs without
/// native bf16 conversions (no AVX512-BF16): nothing in the process
/// defines them, so the JIT gets ours. Artifacts link compiler-rt's.
void registerRuntimeHelpers(ExecutionEngine &engine) {
  engine.registerSymbols([](llvm::orc::MangleAndInterner interner) {
    llvm::orc::SymbolMap symbols;
    symbols[interner("__truncsfbf2")] = {
        llvm::orc::ExecutorAddr::fromPtr(&truncSfBf2),
        llvm::JITSymbolFlags::Exported};
    symbols[interner("__truncdfbf2")] = {
        llvm::orc::ExecutorAddr::fromPtr(&truncDfBf2),
        llvm::JITSymbolFlags::Exported};
    return symbols;
  });
}
} // namespace

rt::StatusOr<std::unique_ptr<CpuJitExecutable>>
CpuJitExecutable::create(ModuleOp loweredModule, EntrySignature signature,
                         rt::DeviceProgram program,
                         const rt::ExecutableOptions &executableOptions) {
  static std::once_flag initialized;
  std::call_once(initialized, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    // The kernel library has inline assembly (cpuid, xgetbv).
    llvm::InitializeNativeTargetAsmParser();
  });

  // Optimise for the CPU we run on (AVX-512 where present).
  auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!builder)
    return rt::internalError("cannot describe the host CPU: " +
                             llvm::toString(builder.takeError()));
  auto targetMachine = builder->createTargetMachine();
  if (!targetMachine)
    return rt::internalError("cannot create a target machine: " +
                             llvm::toString(targetMachine.takeError()));
  // The options hold a function_ref: the callable must outlive create().
  // create() takes the target machine over; it lives as long as the engine.
  llvm::TargetMachine *machine = targetMachine->get();
  auto transform = [&](llvm::Module *module) -> llvm::Error {
    keepDataMovementLoopsRolled(*module);
    rt::Status added = addCpuDispatchEntries(*module, program);
    if (added.isOk())
      added = linkCpuKernelLibrary(*module);
    if (!added.isOk())
      return llvm::createStringError(added.message());
    return optimizeKernels(*module, *machine);
  };
  ExecutionEngineOptions options;
  options.transformer = transform;
  options.jitCodeGenOptLevel = llvm::CodeGenOptLevel::Aggressive;
  auto engine = ExecutionEngine::create(loweredModule, options,
                                        std::move(*targetMachine));
  if (!engine)
    return rt::internalError("JIT compilation failed: " +
                             llvm::toString(engine.takeError()));
  registerRuntimeHelpers(**engine);
  (*engine)->initialize();
  std::shared_ptr<ExecutionEngine> owner(std::move(*engine));
  // Looking the entries up materialises the machine code now, so that
  // compile time is not billed to the first run.
  std::string missing;
  auto lookup = [&](const std::string &name) -> void * {
    auto address = owner->lookup(name);
    if (!address) {
      missing = llvm::toString(address.takeError());
      return nullptr;
    }
    return *address;
  };
  rt::Program whole;
  whole.inputs = signature.inputs;
  whole.outputs = signature.outputs;
  whole.devices.push_back(std::move(program));
  auto executable = rt::CpuExecutable::create(
      std::move(whole), lookup, owner, "the JIT-compiled model",
      executableOptions);
  if (!executable.isOk())
    return executable.status().code() == rt::StatusCode::kDataLoss
               ? rt::internalError(executable.status().message() + " " +
                                   missing)
               : executable.status();
  return std::unique_ptr<CpuJitExecutable>(
      new CpuJitExecutable(std::move(*executable), std::move(signature)));
}

} // namespace kiln::compiler
