//===- CpuJit.cpp - Run a lowered model in-process ------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Calling convention (after bufferisation with out-parameters and the LLVM
// lowering): the entry takes every input and then every output as an
// expanded memref — allocated pointer, aligned pointer, offset, sizes[rank],
// strides[rank]. ExecutionEngine's packed wrapper takes an array of pointers
// to each of those scalars.
//
//===----------------------------------------------------------------------===//

#include "compiler/Codegen/CPU/CpuJit.h"

#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/TargetSelect.h"

#include <mutex>

using namespace mlir;

namespace kiln::compiler {

namespace {
std::string describeShape(const std::vector<int64_t> &shape) {
  std::string out = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    out += (i ? ", " : "") + std::to_string(shape[i]);
  return out + "]";
}

/// The scalars of one expanded memref argument; kept alive for the call.
struct MemRefArgument {
  void *allocated;
  void *aligned;
  int64_t offset = 0;
  std::vector<int64_t> sizes;
  std::vector<int64_t> strides;

  MemRefArgument(void *data, const std::vector<int64_t> &shape)
      : allocated(data), aligned(data), sizes(shape), strides(shape.size()) {
    int64_t stride = 1;
    for (size_t d = shape.size(); d-- > 0;) {
      strides[d] = stride;
      stride *= shape[d];
    }
  }

  void appendTo(std::vector<void *> &packed) {
    packed.push_back(&allocated);
    packed.push_back(&aligned);
    packed.push_back(&offset);
    for (int64_t &size : sizes)
      packed.push_back(&size);
    for (int64_t &stride : strides)
      packed.push_back(&stride);
  }
};
} // namespace

rt::Status checkTensor(const rt::HostTensor &tensor,
                       const TensorSignature &expected) {
  if (tensor.dtype != expected.dtype)
    return rt::invalidArgument("input '" + expected.name + "' must be " +
                               rt::dtypeName(expected.dtype) + ", got " +
                               rt::dtypeName(tensor.dtype));
  if (tensor.shape != expected.shape)
    return rt::invalidArgument("input '" + expected.name + "' must have shape " +
                               describeShape(expected.shape) + ", got " +
                               describeShape(tensor.shape));
  size_t bytes = size_t(tensor.numElements()) * rt::dtypeSize(tensor.dtype);
  if (tensor.data.size() != bytes)
    return rt::invalidArgument("input '" + expected.name + "' holds " +
                               std::to_string(tensor.data.size()) +
                               " bytes, its shape needs " +
                               std::to_string(bytes));
  return rt::Status::ok();
}

CpuJitExecutable::CpuJitExecutable(std::unique_ptr<ExecutionEngine> engine,
                                   EntrySignature signature)
    : engine_(std::move(engine)), signature_(std::move(signature)) {}

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
  if (auto entry = (*engine)->lookupPacked(signature.function); !entry)
    return rt::internalError("the compiled model has no entry '" +
                             signature.function +
                             "': " + llvm::toString(entry.takeError()));
  return std::unique_ptr<CpuJitExecutable>(
      new CpuJitExecutable(std::move(*engine), std::move(signature)));
}

rt::Status CpuJitExecutable::run(const std::vector<rt::HostTensor> &inputs,
                                 std::vector<rt::HostTensor> &outputs) {
  if (inputs.size() != signature_.inputs.size())
    return rt::invalidArgument(
        "the model takes " + std::to_string(signature_.inputs.size()) +
        " inputs, got " + std::to_string(inputs.size()));
  for (size_t i = 0; i < inputs.size(); ++i)
    KILN_RETURN_IF_ERROR(checkTensor(inputs[i], signature_.inputs[i]));

  outputs.resize(signature_.outputs.size());
  std::vector<MemRefArgument> arguments;
  arguments.reserve(inputs.size() + outputs.size());
  for (const rt::HostTensor &input : inputs)
    // The model never writes its inputs; the calling convention is not
    // const-aware.
    arguments.emplace_back(const_cast<uint8_t *>(input.data.data()),
                           input.shape);
  for (size_t i = 0; i < outputs.size(); ++i) {
    const TensorSignature &expected = signature_.outputs[i];
    rt::HostTensor &output = outputs[i];
    output.dtype = expected.dtype;
    output.shape = expected.shape;
    output.data.assign(size_t(output.numElements()) *
                           rt::dtypeSize(output.dtype),
                       0);
    arguments.emplace_back(output.data.data(), output.shape);
  }
  std::vector<void *> packed;
  for (MemRefArgument &argument : arguments)
    argument.appendTo(packed);
  if (llvm::Error error = engine_->invokePacked(signature_.function, packed))
    return rt::internalError("cannot call '" + signature_.function +
                             "': " + llvm::toString(std::move(error)));
  return rt::Status::ok();
}

} // namespace kiln::compiler
