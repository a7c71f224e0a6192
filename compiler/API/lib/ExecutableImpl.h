//===- ExecutableImpl.h - What a kiln::Executable runs ----------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_API_EXECUTABLEIMPL_H
#define KILN_COMPILER_API_EXECUTABLEIMPL_H

#include "kiln/kiln.h"
#include "kiln/runtime/Artifact.h"
#include "kiln/runtime/DeviceExecutable.h"

namespace kiln {

/// A JIT-compiled module or a loaded artifact; both check every call.
class Executable::Impl {
public:
  virtual ~Impl() = default;
  virtual const std::vector<TensorInfo> &inputs() const = 0;
  virtual const std::vector<TensorInfo> &outputs() const = 0;
  virtual const std::string &description() const = 0;
  virtual const rt::Program &program() const = 0;
  virtual Status run(const std::vector<Tensor> &inputs,
                     std::vector<Tensor> &outputs) = 0;
  virtual Status run(const std::vector<TensorRef> &inputs,
                     const std::vector<TensorRef> &outputs) = 0;
  virtual Status run(const std::vector<Tensor> &inputs,
                     std::vector<Tensor> &outputs,
                     const RunOptions &options) = 0;
};

/// Runs a decoded artifact through the runtime (CPU or CUDA, as its
/// program says); `name` stands for it in messages. `description` replaces
/// the default "<device> (artifact)".
StatusOr<std::unique_ptr<Executable>>
makeArtifactExecutable(rt::Artifact artifact, const std::string &name,
                       const rt::ExecutableOptions &options,
                       std::string description = "");

/// The runtime's load options for `threads` and a GEMM path name
/// (kInvalidArgument for an unknown one).
StatusOr<rt::ExecutableOptions> executableOptions(unsigned threads,
                                                  const std::string &gemm,
                                                  const std::string &cache);

} // namespace kiln

#endif // KILN_COMPILER_API_EXECUTABLEIMPL_H
