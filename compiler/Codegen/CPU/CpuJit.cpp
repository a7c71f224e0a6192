//===- CpuJit.cpp - Run a lowered model in-process ------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The dispatch entries are added to the LLVM module before it is optimised
// (CpuDispatchEntries), then looked up once: the runtime's CPU executor
// calls them exactly as it calls an artifact's. The weights stay out of
// LLVM, as in artifacts (LargeConstants.h): their bytes are copied into
// memory the executable owns and bound to their names as absolute symbols.
//
//===----------------------------------------------------------------------===//

#include "compiler/Codegen/CPU/CpuJit.h"

#include "compiler/Codegen/CPU/CpuDispatchEntries.h"
#include "compiler/Codegen/CPU/CpuKernelLibrary.h"
#include "compiler/Codegen/CPU/LargeConstants.h"
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

/// The weights of a JIT-compiled model, each at its alignment in one block
/// the executable owns (the MLIR context that held them may go first).
class PlacedConstants {
public:
  explicit PlacedConstants(llvm::ArrayRef<RawConstant> constants) {
    uint64_t size = 0, alignment = 1;
    std::vector<uint64_t> offsets;
    for (const RawConstant &constant : constants) {
      size = llvm::alignTo(size, constant.alignment);
      offsets.push_back(size);
      size += constant.bytes.size();
      alignment = std::max(alignment, constant.alignment);
    }
    // Not zero-filled first: every byte used is copied over.
    storage_.reset(new char[size + alignment]);
    char *base = reinterpret_cast<char *>(
        llvm::alignAddr(storage_.get(), llvm::Align(alignment)));
    for (auto [constant, offset] : llvm::zip(constants, offsets)) {
      std::memcpy(base + offset, constant.bytes.data(), constant.bytes.size());
      addresses_.emplace_back(constant.name, base + offset);
    }
  }

  /// Binds each constant's name to its bytes in `engine`.
  void define(ExecutionEngine &engine) const {
    engine.registerSymbols([&](llvm::orc::MangleAndInterner interner) {
      llvm::orc::SymbolMap symbols;
      for (const auto &[name, address] : addresses_)
        symbols[interner(name)] = {llvm::orc::ExecutorAddr::fromPtr(address),
                                   llvm::JITSymbolFlags::Exported};
      return symbols;
    });
  }

private:
  std::unique_ptr<char[]> storage_;
  std::vector<std::pair<std::string, const char *>> addresses_;
};

/// What keeps a JIT-compiled model's code and data alive.
struct JitCode {
  std::unique_ptr<PlacedConstants> constants;
  std::unique_ptr<ExecutionEngine> engine;
};
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
  // Position-independent code, as in artifacts: the weights, bound outside
  // the module, are reached through the GOT wherever they lie.
  builder->setRelocationModel(llvm::Reloc::PIC_);
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
  auto code = std::make_shared<JitCode>();
  code->constants = std::make_unique<PlacedConstants>(takeLargeConstants(
      loweredModule, kLargeConstantBytes, ConstantBinding::kExternal));
  ExecutionEngineOptions options;
  options.transformer = transform;
  options.jitCodeGenOptLevel = llvm::CodeGenOptLevel::Aggressive;
  auto engine = ExecutionEngine::create(loweredModule, options,
                                        std::move(*targetMachine));
  if (!engine)
    return rt::internalError("JIT compilation failed: " +
                             llvm::toString(engine.takeError()));
  registerRuntimeHelpers(**engine);
  code->constants->define(**engine);
  (*engine)->initialize();
  code->engine = std::move(*engine);
  ExecutionEngine *owner = code->engine.get();
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
  auto executable =
      rt::CpuExecutable::create(std::move(whole), lookup, code,
                                "the JIT-compiled model", executableOptions);
  if (!executable.isOk())
    return executable.status().code() == rt::StatusCode::kDataLoss
               ? rt::internalError(executable.status().message() + " " +
                                   missing)
               : executable.status();
  return std::unique_ptr<CpuJitExecutable>(
      new CpuJitExecutable(std::move(*executable), std::move(signature)));
}

} // namespace kiln::compiler
