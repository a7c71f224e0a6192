//===- Bindings.cpp - Check a call's tensors against a signature ----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/Bindings.h"

#include <cstring>

namespace kiln::rt {

std::string describeShape(const std::vector<int64_t> &shape) {
  std::string out = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    out += (i ? ", " : "") + std::to_string(shape[i]);
  return out + "]";
}

namespace {
/// `role` is "input" or "output".
Status checkRef(const TensorRef &ref, const TensorSpec &spec,
                const char *role) {
  std::string what = std::string(role) + " '" + spec.name + "'";
  if (ref.dtype != spec.dtype)
    return invalidArgument(what + " must be " + dtypeName(spec.dtype) +
                           ", got " + dtypeName(ref.dtype));
  if (ref.shape != spec.shape)
    return invalidArgument(what + " must have shape " +
                           describeShape(spec.shape) + ", got " +
                           describeShape(ref.shape));
  size_t bytes = tensorBytes(spec);
  if (ref.bytes < bytes)
    return invalidArgument(what + " has a buffer of " +
                           std::to_string(ref.bytes) +
                           " bytes, its shape needs " + std::to_string(bytes));
  if (bytes != 0 && ref.data == nullptr)
    return invalidArgument(what + " has no buffer (null data)");
  return Status::ok();
}

Status checkCount(size_t given, size_t expected, const char *role) {
  if (given == expected)
    return Status::ok();
  return invalidArgument("the model takes " + std::to_string(expected) + " " +
                         role + "s, got " + std::to_string(given));
}
} // namespace

Status checkTensor(const HostTensor &tensor, const TensorSpec &spec) {
  KILN_RETURN_IF_ERROR(checkRef(TensorRef::of(tensor), spec, "input"));
  if (tensor.data.size() != tensorBytes(spec))
    return invalidArgument("input '" + spec.name + "' holds " +
                           std::to_string(tensor.data.size()) +
                           " bytes, its shape needs " +
                           std::to_string(tensorBytes(spec)));
  return Status::ok();
}

Status checkBindings(const std::vector<TensorRef> &inputs,
                     const std::vector<TensorSpec> &inputSpecs,
                     const std::vector<TensorRef> &outputs,
                     const std::vector<TensorSpec> &outputSpecs) {
  KILN_RETURN_IF_ERROR(checkCount(inputs.size(), inputSpecs.size(), "input"));
  KILN_RETURN_IF_ERROR(
      checkCount(outputs.size(), outputSpecs.size(), "output"));
  for (size_t i = 0; i < inputs.size(); ++i)
    KILN_RETURN_IF_ERROR(checkRef(inputs[i], inputSpecs[i], "input"));
  for (size_t i = 0; i < outputs.size(); ++i)
    KILN_RETURN_IF_ERROR(checkRef(outputs[i], outputSpecs[i], "output"));
  // Kernels write an output while inputs (and other outputs) are still
  // read: a result is computed in place in its buffer, not copied at the
  // end (docs/memory-planning.md).
  auto overlaps = [](const TensorRef &a, size_t aBytes, const TensorRef &b,
                     size_t bBytes) {
    auto x = reinterpret_cast<uintptr_t>(a.data);
    auto y = reinterpret_cast<uintptr_t>(b.data);
    return aBytes != 0 && bBytes != 0 && x < y + bBytes && y < x + aBytes;
  };
  for (size_t i = 0; i < outputs.size(); ++i) {
    size_t bytes = tensorBytes(outputSpecs[i]);
    for (size_t j = 0; j < inputs.size(); ++j)
      if (overlaps(outputs[i], bytes, inputs[j], tensorBytes(inputSpecs[j])))
        return invalidArgument("output '" + outputSpecs[i].name +
                               "' shares memory with input '" +
                               inputSpecs[j].name + "'");
    for (size_t j = 0; j < i; ++j)
      if (overlaps(outputs[i], bytes, outputs[j], tensorBytes(outputSpecs[j])))
        return invalidArgument("output '" + outputSpecs[i].name +
                               "' shares memory with output '" +
                               outputSpecs[j].name + "'");
  }
  return Status::ok();
}

std::vector<TensorRef> allocateOutputs(const std::vector<TensorSpec> &specs,
                                       std::vector<HostTensor> &outputs) {
  outputs.resize(specs.size());
  std::vector<TensorRef> refs;
  for (size_t i = 0; i < specs.size(); ++i) {
    outputs[i].dtype = specs[i].dtype;
    outputs[i].shape = specs[i].shape;
    outputs[i].data.assign(tensorBytes(specs[i]), 0);
    refs.push_back(TensorRef::of(outputs[i]));
  }
  return refs;
}

std::vector<TensorRef> refsOf(const std::vector<HostTensor> &tensors) {
  std::vector<TensorRef> refs;
  for (const HostTensor &tensor : tensors)
    refs.push_back(TensorRef::of(tensor));
  return refs;
}

Status applyRuntimeLengths(const std::vector<TensorSpec> &specs,
                           std::vector<HostTensor> &outputs) {
  if (outputs.size() != specs.size())
    return internalError("outputs do not match the program's");
  for (size_t i = 0; i < specs.size(); ++i) {
    const TensorSpec &spec = specs[i];
    if (!spec.hasRuntimeLength())
      continue;
    const HostTensor &holder = outputs[spec.lengthOutput];
    int64_t length = 0;
    if (holder.data.size() != sizeof(length))
      return internalError("output '" + spec.name +
                           "': no length to cut it to");
    std::memcpy(&length, holder.data.data(), sizeof(length));
    HostTensor &output = outputs[i];
    size_t axis = size_t(spec.lengthAxis);
    int64_t bound = output.shape[axis];
    if (length < 0 || length > bound)
      return internalError("output '" + spec.name + "': run-time length " +
                           std::to_string(length) + " outside [0, " +
                           std::to_string(bound) + "]");
    // Each run of `bound` rows (one per index before the axis) keeps its
    // first `length` rows.
    size_t rowBytes = dtypeSize(output.dtype);
    for (size_t d = axis + 1; d < output.shape.size(); ++d)
      rowBytes *= size_t(output.shape[d]);
    size_t outer = 1;
    for (size_t d = 0; d < axis; ++d)
      outer *= size_t(output.shape[d]);
    size_t kept = size_t(length) * rowBytes, block = size_t(bound) * rowBytes;
    for (size_t o = 0; o < outer; ++o)
      std::memmove(output.data.data() + o * kept,
                   output.data.data() + o * block, kept);
    output.data.resize(outer * kept);
    output.shape[axis] = length;
  }
  return Status::ok();
}

void packModelArguments(PackedArguments &arguments,
                        const std::vector<TensorRef> &inputs,
                        const std::vector<TensorRef> &outputs, void *arena,
                        size_t arenaBytes) {
  for (const TensorRef &input : inputs)
    arguments.addTensor(input.data, input.shape);
  for (const TensorRef &output : outputs)
    arguments.addTensor(output.data, output.shape);
  arguments.addTensor(arena, {int64_t(arenaBytes)});
}

} // namespace kiln::rt
