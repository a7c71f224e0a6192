//===- JitModel.cpp - A model compiled for the inputs it runs on ----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The JIT learns which inputs it must specialise on from where the ONNX
// importer stops (compiler::DriverError carries the names): each attempt
// binds what the previous one asked for, so a model needing k such inputs
// compiles after at most k + 1 attempts, the first time only.
//
//===----------------------------------------------------------------------===//

#include "kiln/JitModel.h"

#include "CompilerImpl.h"

#include "kiln/runtime/Bindings.h"

#include <algorithm>
#include <cstring>

namespace kiln {

namespace {
bool contains(const std::vector<std::string> &names, const std::string &name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

/// Appends what `from` names that `to` lacks; whether there was any.
bool learnNames(const std::vector<std::string> &from,
                std::vector<std::string> &to) {
  bool learnt = false;
  for (const std::string &name : from)
    if (!contains(to, name)) {
      to.push_back(name);
      learnt = true;
    }
  return learnt;
}

void appendShape(std::string &key, const std::vector<int64_t> &shape) {
  for (int64_t dim : shape)
    key += std::to_string(dim) + "x";
  key += ';';
}
} // namespace

JitModel::JitModel(std::unique_ptr<Compiler> compiler, ModelSource source,
                   size_t maxVariants)
    : compiler_(std::move(compiler)), source_(std::move(source)),
      maxVariants_(maxVariants) {}

JitModel::~JitModel() = default;

StatusOr<std::unique_ptr<JitModel>>
JitModel::create(std::unique_ptr<Compiler> compiler, ModelSource source,
                 size_t maxVariants) {
  if (!compiler)
    return Status(StatusCode::kFailedPrecondition,
                  "JitModel::create needs a compiler");
  if (maxVariants == 0)
    return Status(StatusCode::kFailedPrecondition,
                  "JitModel::create: maxVariants must be at least 1");
  std::unique_ptr<JitModel> model(
      new JitModel(std::move(compiler), std::move(source), maxVariants));
  const Compiler::Impl &impl = *model->compiler_->impl_;
  compiler::DriverError stop;
  StatusOr<std::unique_ptr<Executable>> executable =
      impl.compile(model->source_, impl.options, &stop);
  model->compilations_ = 1;
  if (executable.isOk()) {
    for (const TensorInfo &input : (*executable)->inputs())
      model->inputNames_.push_back(input.name);
    model->variants_.push_front({"", std::move(*executable)});
    return model;
  }
  bool learnt = learnNames(stop.compileTimeInputs, model->compileTimeInputs_);
  learnt |= learnNames(stop.inputsWithoutShape, model->shapeInputs_);
  if (!learnt)
    return executable.status();
  for (const std::string &name : stop.graphInputs)
    if (!impl.options.boundInputs.count(name))
      model->inputNames_.push_back(name);
  return model;
}

int JitModel::indexOf(const std::string &name) const {
  auto it = std::find(inputNames_.begin(), inputNames_.end(), name);
  return it == inputNames_.end() ? -1 : int(it - inputNames_.begin());
}

std::string JitModel::keyFor(const std::vector<Tensor> &inputs) const {
  std::string key;
  for (const std::string &name : compileTimeInputs_) {
    const Tensor &tensor = inputs[size_t(indexOf(name))];
    key += name + '\0' + rt::dtypeName(tensor.dtype) + ':';
    appendShape(key, tensor.shape);
    key.append(reinterpret_cast<const char *>(tensor.data.data()),
               tensor.data.size());
    key += '\0';
  }
  for (const std::string &name : shapeInputs_) {
    key += name + '\0';
    appendShape(key, inputs[size_t(indexOf(name))].shape);
  }
  return key;
}

StatusOr<std::unique_ptr<Executable>>
JitModel::compileFor(const std::vector<Tensor> &inputs) {
  const Compiler::Impl &impl = *compiler_->impl_;
  // Each attempt that fails at a new input learns it; there are only so
  // many inputs to learn.
  for (size_t attempt = 0;; ++attempt) {
    CompileOptions options = impl.options;
    for (const std::string &name : compileTimeInputs_)
      options.boundInputs[name] = inputs[size_t(indexOf(name))];
    for (const std::string &name : shapeInputs_)
      if (!options.boundInputs.count(name) &&
          !impl.options.inputShapes.count(name))
        options.inputShapes[name] = inputs[size_t(indexOf(name))].shape;
    compiler::DriverError stop;
    StatusOr<std::unique_ptr<Executable>> executable =
        impl.compile(source_, options, &stop);
    ++compilations_;
    if (executable.isOk() || attempt > inputNames_.size())
      return executable;
    bool learnt = false;
    for (const std::string &name : stop.compileTimeInputs)
      learnt |= indexOf(name) >= 0 && learnNames({name}, compileTimeInputs_);
    for (const std::string &name : stop.inputsWithoutShape)
      learnt |= indexOf(name) >= 0 && learnNames({name}, shapeInputs_);
    if (!learnt)
      return executable.status();
  }
}

StatusOr<Executable *> JitModel::specialize(const std::vector<Tensor> &inputs) {
  if (inputs.size() != inputNames_.size()) {
    std::string names;
    for (const std::string &name : inputNames_)
      names += (names.empty() ? "" : ", ") + name;
    return Status(StatusCode::kInvalidArgument,
                  "the model takes " + std::to_string(inputNames_.size()) +
                      " inputs (" + names + "), got " +
                      std::to_string(inputs.size()));
  }
  for (size_t i = 0; i < inputs.size(); ++i)
    if (inputs[i].data.size() !=
        size_t(inputs[i].numElements()) * rt::dtypeSize(inputs[i].dtype))
      return Status(StatusCode::kInvalidArgument,
                    "input '" + inputNames_[i] +
                        "': its bytes do not match its shape");
  std::string key = keyFor(inputs);
  for (auto it = variants_.begin(); it != variants_.end(); ++it)
    if (it->key == key) {
      variants_.splice(variants_.begin(), variants_, it);
      return variants_.front().executable.get();
    }
  StatusOr<std::unique_ptr<Executable>> executable = compileFor(inputs);
  if (!executable.isOk())
    return executable.status();
  // Compiling may have learnt inputs to specialise on: key by all of them.
  variants_.push_front({keyFor(inputs), std::move(*executable)});
  if (variants_.size() > maxVariants_)
    variants_.pop_back();
  return variants_.front().executable.get();
}

StatusOr<std::vector<Tensor>>
JitModel::runtimeInputs(const Executable &executable,
                        const std::vector<Tensor> &inputs) const {
  std::vector<Tensor> selected;
  for (const TensorInfo &spec : executable.inputs()) {
    int index = indexOf(spec.name);
    if (index < 0 || size_t(index) >= inputs.size())
      return Status(StatusCode::kInternal,
                    "the specialised model takes input '" + spec.name +
                        "', which the JIT does not know");
    selected.push_back(inputs[size_t(index)]);
  }
  return selected;
}

Status JitModel::run(const std::vector<Tensor> &inputs,
                     std::vector<Tensor> &outputs) {
  StatusOr<Executable *> executable = specialize(inputs);
  if (!executable.isOk())
    return executable.status();
  // Views, not copies, of the run-time inputs.
  std::vector<TensorRef> refs;
  for (const TensorInfo &spec : (*executable)->inputs()) {
    int index = indexOf(spec.name);
    if (index < 0)
      return Status(StatusCode::kInternal,
                    "the specialised model takes input '" + spec.name +
                        "', which the JIT does not know");
    refs.push_back(TensorRef::of(inputs[size_t(index)]));
  }
  std::vector<TensorRef> outputRefs =
      rt::allocateOutputs((*executable)->outputs(), outputs);
  if (Status status = (*executable)->run(refs, outputRefs); !status.isOk())
    return status;
  return rt::applyRuntimeLengths((*executable)->outputs(), outputs);
}

StatusOr<std::vector<Tensor>> JitModel::run(const std::vector<Tensor> &inputs) {
  std::vector<Tensor> outputs;
  Status status = run(inputs, outputs);
  if (!status.isOk())
    return status;
  return outputs;
}

} // namespace kiln
