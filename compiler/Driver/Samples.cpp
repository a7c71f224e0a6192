//===- Samples.cpp - Folders of input samples (calibration, validation) ---===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "compiler/Driver/Samples.h"

#include "kiln/runtime/Npy.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>

using namespace kiln;
using namespace kiln::compiler;

namespace {

std::string describe(rt::DType dtype, const std::vector<int64_t> &shape) {
  std::string text = rt::dtypeName(dtype);
  text += "[";
  for (size_t i = 0; i < shape.size(); ++i)
    text += (i ? "," : "") + std::to_string(shape[i]);
  return text + "]";
}

} // namespace

DriverError kiln::compiler::listSamples(const std::string &folder,
                                        const std::string &flag,
                                        std::vector<std::string> &samples) {
  if (!llvm::sys::fs::is_directory(folder))
    return {ErrorKind::kInvalidInput,
            flag + " '" + folder + "' is not a folder"};
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(folder, ec), end; it != end && !ec;
       it.increment(ec))
    if (llvm::sys::fs::is_directory(it->path()))
      samples.push_back(it->path());
  if (ec)
    return {ErrorKind::kInvalidInput,
            flag + " '" + folder + "': " + ec.message()};
  if (samples.empty())
    return {ErrorKind::kInvalidInput,
            flag + " '" + folder +
                "' holds no sample folders (one per sample, with one "
                "INPUT.npy per model input)"};
  std::sort(samples.begin(), samples.end());
  return {};
}

DriverError kiln::compiler::readSample(const std::string &sample,
                                       const std::vector<rt::TensorSpec> &specs,
                                       std::vector<rt::HostTensor> &inputs) {
  inputs.clear();
  for (const rt::TensorSpec &spec : specs) {
    llvm::SmallString<256> path(sample);
    llvm::sys::path::append(path, spec.name + ".npy");
    if (!llvm::sys::fs::exists(path))
      return {ErrorKind::kInvalidInput, sample + ": no " + spec.name +
                                            ".npy for the model's input '" +
                                            spec.name + "'"};
    auto tensor = rt::readNpyFile(std::string(path));
    if (!tensor.isOk())
      return {ErrorKind::kInvalidInput, tensor.status().message()};
    if (tensor->dtype != spec.dtype || tensor->shape != spec.shape)
      return {ErrorKind::kInvalidInput,
              std::string(path) + ": " +
                  describe(tensor->dtype, tensor->shape) +
                  " but the model's input '" + spec.name + "' is " +
                  describe(spec.dtype, spec.shape)};
    inputs.push_back(std::move(*tensor));
  }
  return {};
}
