//===- Executable.cpp - Run compiled models -------------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "ExecutableImpl.h"

#include "kiln/runtime/DeviceExecutable.h"
#include "kiln/runtime/MultiRankExecutable.h"

namespace kiln {

namespace {
/// An artifact loaded by the runtime (CPU or CUDA, as its program says),
/// exactly as kiln-run runs it.
class ArtifactExecutable : public Executable::Impl {
public:
  ArtifactExecutable(std::unique_ptr<rt::DeviceExecutable> executable,
                     std::string description)
      : executable_(std::move(executable)),
        description_(description.empty()
                         ? executable_->description() + " (artifact)"
                         : std::move(description)) {}
  const std::vector<TensorInfo> &inputs() const override {
    return executable_->program().inputs;
  }
  const std::vector<TensorInfo> &outputs() const override {
    return executable_->program().outputs;
  }
  const std::string &description() const override { return description_; }
  const rt::Program &program() const override { return executable_->program(); }
  Status run(const std::vector<Tensor> &inputs,
             std::vector<Tensor> &outputs) override {
    return executable_->run(inputs, outputs);
  }
  Status run(const std::vector<TensorRef> &inputs,
             const std::vector<TensorRef> &outputs) override {
    return executable_->run(inputs, outputs);
  }
  Status run(const std::vector<Tensor> &inputs, std::vector<Tensor> &outputs,
             const RunOptions &options) override {
    return executable_->run(inputs, outputs, options);
  }

private:
  std::unique_ptr<rt::DeviceExecutable> executable_;
  std::string description_;
};

} // namespace

StatusOr<rt::ExecutableOptions> executableOptions(unsigned threads,
                                                  const std::string &gemm,
                                                  const std::string &cache) {
  std::optional<rt::GemmPath> path = rt::parseGemmPath(gemm);
  if (!path)
    return Status(StatusCode::kInvalidArgument,
                  "unknown GEMM path '" + gemm +
                      "' (generated, cublaslt or auto)");
  rt::ExecutableOptions options;
  options.threads = threads;
  options.gemm = *path;
  options.gemmTimingCache = cache;
  return options;
}

StatusOr<std::unique_ptr<Executable>>
makeArtifactExecutable(rt::Artifact artifact, const std::string &name,
                       const rt::ExecutableOptions &options,
                       std::string description) {
  auto executable = rt::loadExecutable(std::move(artifact), name, options);
  if (!executable.isOk())
    return executable.status();
  return std::make_unique<Executable>(std::make_unique<ArtifactExecutable>(
      std::move(*executable), std::move(description)));
}

StatusOr<std::unique_ptr<Executable>>
Executable::loadArtifact(const std::string &path, unsigned threads) {
  LoadOptions options;
  options.threads = threads;
  return loadArtifact(path, options);
}

StatusOr<std::unique_ptr<Executable>>
Executable::loadArtifact(const std::string &path, const LoadOptions &options) {
  auto load =
      executableOptions(options.threads, options.gemm, options.gemmTimingCache);
  if (!load.isOk())
    return load.status();
  rt::StatusOr<rt::RankedArtifact> ranked = rt::readRankedArtifactFile(path);
  if (!ranked.isOk())
    return ranked.status();
  if (ranked->worldSize() == 1)
    return makeArtifactExecutable(std::move(ranked->ranks.front()), path,
                                  *load);
  rt::MultiRankOptions ranks;
  ranks.threadsPerRank = options.threads == 0 ? 1 : options.threads;
  auto executable =
      rt::MultiRankExecutable::load(std::move(*ranked), path, ranks);
  if (!executable.isOk())
    return executable.status();
  return std::make_unique<Executable>(
      std::make_unique<ArtifactExecutable>(std::move(*executable), ""));
}

Executable::Executable(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Executable::~Executable() = default;

const std::vector<TensorInfo> &Executable::inputs() const {
  return impl_->inputs();
}
const std::vector<TensorInfo> &Executable::outputs() const {
  return impl_->outputs();
}
const std::string &Executable::description() const {
  return impl_->description();
}

const rt::Program &Executable::program() const { return impl_->program(); }

Status Executable::run(const std::vector<Tensor> &inputs,
                       std::vector<Tensor> &outputs) {
  return impl_->run(inputs, outputs);
}

StatusOr<std::vector<Tensor>>
Executable::run(const std::vector<Tensor> &inputs) {
  std::vector<Tensor> outputs;
  Status status = impl_->run(inputs, outputs);
  if (!status.isOk())
    return status;
  return outputs;
}

Status Executable::run(const std::vector<TensorRef> &inputs,
                       const std::vector<TensorRef> &outputs) {
  return impl_->run(inputs, outputs);
}

Status Executable::run(const std::vector<Tensor> &inputs,
                       std::vector<Tensor> &outputs,
                       const RunOptions &options) {
  return impl_->run(inputs, outputs, options);
}

int exitCodeFor(const Status &status) {
  switch (status.code()) {
  case StatusCode::kOk:
    return 0;
  case StatusCode::kFailedPrecondition:
    return 1;
  case StatusCode::kInvalidArgument:
  case StatusCode::kNotFound:
  case StatusCode::kDataLoss:
    return 2;
  case StatusCode::kUnimplemented:
    return 3;
  case StatusCode::kInternal:
    return 4;
  case StatusCode::kUnavailable:
  case StatusCode::kResourceExhausted:
    return 5;
  case StatusCode::kAborted:
  case StatusCode::kDeadlineExceeded:
    return 7;
  }
  return 4;
}

const char *versionString() { return "0.1.0"; }

} // namespace kiln
