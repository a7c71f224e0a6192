//===- CpuJit.cpp - Run a lowered model in-process ------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The entry is called through ExecutionEngine's packed wrapper with the
// arguments laid out by rt::PackedArguments (kiln/runtime/
// CpuCallingConvention.h), exactly as the runtime calls AOT kernels.
//
//===----------------------------------------------------------------------===//

#include "compiler/Codegen/CPU/CpuJit.h"

#include "kiln/runtime/CpuCallingConvention.h"
#include "kiln/runtime/CpuExecutable.h"

#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/TargetSelect.h"

#include <mutex>

using namespace mlir;

namespace kiln::compiler {

CpuJitExecutable::CpuJitExecutable(std::unique_ptr<ExecutionEngine> engine,
                                   EntrySignature signature,
                                   void (*entry)(void **))
    : engine_(std::move(engine)), entry_(entry),
      signature_(std::move(signature)) {}

CpuJitExecutable::~CpuJitExecutable() = default;

rt::StatusOr<std::unique_ptr<CpuJitExecutable>>
CpuJitExecutable::create(ModuleOp loweredModule, EntrySignature signature) {
  static std::once_flag initialized;
  std::call_once(initialized, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
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
  auto optimize = makeOptimizingTransformer(/*optLevel=*/3, /*sizeLevel=*/0,
                                            targetMachine->get());
  ExecutionEngineOptions options;
  options.transformer = optimize;
  options.jitCodeGenOptLevel = llvm::CodeGenOptLevel::Aggressive;
  auto engine = ExecutionEngine::create(loweredModule, options,
                                        std::move(*targetMachine));
  if (!engine)
    return rt::internalError("JIT compilation failed: " +
                             llvm::toString(engine.takeError()));
  (*engine)->initialize();
  // Materialise the machine code now, so that compile time is not billed to
  // the first run.
  auto entry = (*engine)->lookupPacked(signature.function);
  if (!entry)
    return rt::internalError("the compiled model has no entry '" +
                             signature.function +
                             "': " + llvm::toString(entry.takeError()));
  rt::Arena arena;
  KILN_RETURN_IF_ERROR(arena.allocate(signature.arenaBytes));
  auto executable = std::unique_ptr<CpuJitExecutable>(new CpuJitExecutable(
      std::move(*engine), std::move(signature), *entry));
  executable->arena_ = std::move(arena);
  return executable;
}

rt::Status CpuJitExecutable::run(const std::vector<rt::HostTensor> &inputs,
                                 std::vector<rt::HostTensor> &outputs) {
  // Outputs are only allocated for a valid call.
  KILN_RETURN_IF_ERROR(rt::checkBindings(rt::refsOf(inputs),
                                         signature_.inputs, {}, {}));
  for (size_t i = 0; i < inputs.size(); ++i)
    KILN_RETURN_IF_ERROR(rt::checkTensor(inputs[i], signature_.inputs[i]));
  std::vector<rt::TensorRef> outputRefs =
      rt::allocateOutputs(signature_.outputs, outputs);
  return run(rt::refsOf(inputs), outputRefs);
}

rt::Status CpuJitExecutable::run(const std::vector<rt::TensorRef> &inputs,
                                 const std::vector<rt::TensorRef> &outputs) {
  KILN_RETURN_IF_ERROR(rt::checkBindings(inputs, signature_.inputs, outputs,
                                         signature_.outputs));
  rt::PackedArguments arguments;
  rt::packModelArguments(arguments, inputs, outputs, arena_.data(),
                         arena_.size());
  entry_(arguments.data());
  return rt::Status::ok();
}

} // namespace kiln::compiler
