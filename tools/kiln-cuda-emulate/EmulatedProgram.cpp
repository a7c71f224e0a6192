//===- EmulatedProgram.cpp - A CUDA program on emulated memory ------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "EmulatedProgram.h"

#include "LaunchLimits.h"
#include "Schedules.h"

#include "compiler/Driver/Driver.h"

#include "llvm/ADT/STLExtras.h"

#include <cstring>

namespace kiln::emu {

using compiler::ErrorKind;

namespace {
Failure internal(std::string message) {
  return {int(ErrorKind::kInternal), std::move(message)};
}
} // namespace

std::optional<Failure> EmulatedProgram::create(
    compiler::cuda::CudaProgram program,
    std::vector<rt::TensorSpec> outputSpecs, uint64_t arenaBytes,
    const std::vector<rt::HostTensor> &inputs, const EmulationOptions &options,
    bool poison, std::string name, std::unique_ptr<EmulatedProgram> &result) {
  std::unique_ptr<EmulatedProgram> self(new EmulatedProgram());
  EmulatedProgram &p = *self;
  p.program_ = std::move(program);
  p.outputSpecs_ = std::move(outputSpecs);
  p.options_ = options;
  p.name_ = std::move(name);
  for (const rt::HostTensor &tensor : inputs) {
    p.inputs_.emplace_back("input " + std::to_string(p.inputs_.size()),
                           tensor.data.size(), false);
    if (!tensor.data.empty())
      std::memcpy(p.inputs_.back().data.get(), tensor.data.data(),
                  tensor.data.size());
  }
  for (const rt::TensorSpec &spec : p.outputSpecs_)
    p.outputs_.emplace_back("output " + std::to_string(p.outputs_.size()),
                            rt::tensorBytes(spec), poison);
  p.arena_ = std::make_unique<DeviceBuffer>("the arena", arenaBytes, poison);
  p.constants_ = std::make_unique<DeviceBuffer>(
      "the constants", p.program_.constants.size(), false);
  if (!p.program_.constants.empty())
    std::memcpy(p.constants_->data.get(), p.program_.constants.data(),
                p.program_.constants.size());
  for (DeviceBuffer &buffer : p.inputs_)
    p.inputViews_.push_back(buffer.data.get());
  for (DeviceBuffer &buffer : p.outputs_)
    p.outputViews_.push_back(buffer.data.get());
  p.buffers_.inputs = &p.inputViews_;
  p.buffers_.outputs = &p.outputViews_;
  p.buffers_.arena = p.arena_->data.get();
  p.buffers_.constants = p.constants_->data.get();

  // Compile and load the kernels.
  if (std::string error = p.dir_.create(); !error.empty())
    return internal(error);
  if (options.keepTemps)
    p.dir_.keep();
  std::vector<KernelDecl> decls;
  for (const compiler::cuda::EmittedKernel &kernel : p.program_.kernels)
    decls.push_back({kernel.name, kernel.params.size()});
  std::string source = p.program_.source();
  if (std::string error = compileHost(
          p.dir_.path(), hostSource(source, decls), options.hostCompiler);
      !error.empty())
    return internal(error);
  if (std::string error = p.library_.load(p.dir_.path()); !error.empty())
    return internal(error);
  p.bounds_ = readLaunchBounds(source);
  result = std::move(self);
  return std::nullopt;
}

std::optional<Failure>
EmulatedProgram::restart(const std::vector<rt::HostTensor> &inputs,
                         bool poison) {
  if (inputs.size() != inputs_.size())
    return internal(name_ + "restarted on " + std::to_string(inputs.size()) +
                    " inputs, not " + std::to_string(inputs_.size()));
  for (auto [tensor, buffer] : llvm::zip(inputs, inputs_)) {
    if (tensor.data.size() != buffer.bytes)
      return internal(name_ + buffer.name + ": restarted on " +
                      std::to_string(tensor.data.size()) + " bytes, not " +
                      std::to_string(buffer.bytes));
    if (!tensor.data.empty())
      std::memcpy(buffer.data.get(), tensor.data.data(), tensor.data.size());
  }
  if (poison) {
    for (DeviceBuffer &buffer : outputs_)
      std::memset(buffer.data.get(), 0xff, buffer.bytes);
    std::memset(arena_->data.get(), 0xff, arena_->bytes);
  }
  nextKernel_ = 0;
  return std::nullopt;
}

std::optional<Failure> EmulatedProgram::launch(size_t step) {
  if (nextKernel_ >= program_.kernels.size())
    return internal(name_ + "step #" + std::to_string(step) +
                    " launches more kernels than the program has");
  const compiler::cuda::EmittedKernel &kernel = program_.kernels[nextKernel_++];
  library_.attachAgain();
  KernelEntry entry = library_.entry(kernel.name);
  if (!entry)
    return internal(name_ + kernel.name + " is missing");
  std::vector<void *> args;
  std::vector<DeviceBuffer *> touched;
  for (const compiler::cuda::BufferRoot &root : kernel.params) {
    DeviceBuffer *buffer = nullptr;
    switch (root.base) {
    case rt::KernelArg::Base::kInput:
      if (root.index < inputs_.size())
        buffer = &inputs_[root.index];
      break;
    case rt::KernelArg::Base::kOutput:
      if (root.index < outputs_.size())
        buffer = &outputs_[root.index];
      break;
    case rt::KernelArg::Base::kArena:
      buffer = arena_.get();
      break;
    case rt::KernelArg::Base::kConstants:
      buffer = constants_.get();
      break;
    }
    // A launch that reaches past its buffer is an emitter bug; say so
    // rather than corrupt memory.
    if (!buffer || root.byteOffset + root.bytes > buffer->bytes)
      return internal(name_ + kernel.name + ": argument " +
                      std::to_string(args.size()) + " (" +
                      std::to_string(root.byteOffset) + "+" +
                      std::to_string(root.bytes) +
                      " bytes) is outside its buffer");
    args.push_back(buffer->data.get() + root.byteOffset);
    if (!llvm::is_contained(touched, buffer))
      touched.push_back(buffer);
  }
  if (std::string error =
          checkLaunch(kernel.name, kernel.grid, kernel.block, bounds_);
      !error.empty())
    return Failure{kKernelDefectExit, name_ + error};
  Launch run{&kernel.name,
             entry,
             args.data(),
             {},
             {},
             options_.allThreaded || needsThreads(kernel.source),
             options_.seed,
             options_.checkShared};
  std::copy(kernel.grid, kernel.grid + 3, run.grid);
  std::copy(kernel.block, kernel.block + 3, run.block);
  if (std::string error =
          launchUnderSchedules(run, touched, options_.schedules);
      !error.empty())
    return Failure{kKernelDefectExit, name_ + error};
  return std::nullopt;
}

std::vector<rt::HostTensor> EmulatedProgram::outputs() const {
  std::vector<rt::HostTensor> tensors(outputSpecs_.size());
  for (auto [spec, tensor, buffer] :
       llvm::zip(outputSpecs_, tensors, outputs_)) {
    tensor.dtype = spec.dtype;
    tensor.shape = spec.shape;
    tensor.data.resize(size_t(buffer.bytes));
    if (!tensor.data.empty())
      std::memcpy(tensor.data.data(), buffer.data.get(), tensor.data.size());
  }
  return tensors;
}

} // namespace kiln::emu
