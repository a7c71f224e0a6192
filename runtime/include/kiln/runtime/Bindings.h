//===- Bindings.h - Check a call's tensors against a signature --*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Every way of running a model (the AOT runtime, the JIT, the C++ API)
// checks the caller's tensors here first, so that a wrong count, dtype,
// shape or buffer size is the same clear error everywhere and never reaches
// a kernel.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_BINDINGS_H
#define KILN_RUNTIME_BINDINGS_H

#include "kiln/runtime/Artifact.h"
#include "kiln/runtime/CpuCallingConvention.h"
#include "kiln/runtime/HostTensor.h"
#include "kiln/runtime/Status.h"

#include <vector>

namespace kiln::rt {

/// "[2, 3]".
std::string describeShape(const std::vector<int64_t> &shape);

/// Checks an owning input tensor against its spec.
Status checkTensor(const HostTensor &tensor, const TensorSpec &spec);

/// Checks a call: counts, then each input and output ref against its spec
/// (dtype, shape, a buffer large enough, non-null when non-empty), then
/// that no output shares bytes with an input or another output.
Status checkBindings(const std::vector<TensorRef> &inputs,
                     const std::vector<TensorSpec> &inputSpecs,
                     const std::vector<TensorRef> &outputs,
                     const std::vector<TensorSpec> &outputSpecs);

/// Sizes `outputs` to `specs` (zero-filled) and returns refs to them.
std::vector<TensorRef> allocateOutputs(const std::vector<TensorSpec> &specs,
                                       std::vector<HostTensor> &outputs);

/// Refs to owning tensors (read-only use).
std::vector<TensorRef> refsOf(const std::vector<HostTensor> &tensors);

/// Cuts every output with a run-time length (TensorSpec::lengthAxis) to the
/// length its length output holds, after a run; a length outside [0, bound]
/// is an internal error naming the output.
Status applyRuntimeLengths(const std::vector<TensorSpec> &specs,
                           std::vector<HostTensor> &outputs);

/// The packed arguments of a whole-model kernel: inputs, outputs, arena.
void packModelArguments(PackedArguments &arguments,
                        const std::vector<TensorRef> &inputs,
                        const std::vector<TensorRef> &outputs, void *arena,
                        size_t arenaBytes);

} // namespace kiln::rt

#endif // KILN_RUNTIME_BINDINGS_H
