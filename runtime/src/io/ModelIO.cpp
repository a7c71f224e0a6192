//===- ModelIO.cpp - Model inputs and outputs as .npy files ---------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/ModelIO.h"

#include "kiln/runtime/CpuExecutable.h"
#include "kiln/runtime/Npy.h"

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>
#include <random>
#include <sys/stat.h>

namespace kiln::rt {

std::string fileSafeName(const std::string &name) {
  std::string safe = name;
  for (char &c : safe)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-' &&
        c != '.')
      c = '_';
  if (safe.empty() || safe[0] == '.')
    safe.insert(safe.begin(), '_');
  return safe;
}

namespace {
std::string shapeString(const std::vector<int64_t> &shape) {
  std::string out = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    out += (i ? ", " : "") + std::to_string(shape[i]);
  return out + "]";
}

HostTensor synthesize(const TensorSpec &spec, std::mt19937 &random) {
  HostTensor tensor{spec.dtype, spec.shape, {}};
  tensor.data.resize(size_t(tensor.numElements()) * dtypeSize(spec.dtype));
  if (spec.dtype == DType::kF32) {
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    auto *values = reinterpret_cast<float *>(tensor.data.data());
    for (int64_t i = 0; i < tensor.numElements(); ++i)
      values[i] = uniform(random);
  }
  return tensor;
}
} // namespace

StatusOr<InputFile> parseInputSpec(const std::string &spec) {
  size_t equals = spec.find('=');
  if (equals == std::string::npos || equals == 0 || equals + 1 == spec.size())
    return invalidArgument("--input expects NAME=FILE.npy, got '" + spec + "'");
  return InputFile{spec.substr(0, equals), spec.substr(equals + 1)};
}

StatusOr<std::vector<HostTensor>>
loadInputs(const std::vector<InputFile> &files,
           const std::vector<TensorSpec> &inputs, bool synthesizeMissing) {
  std::map<std::string, std::string> byName;
  for (const InputFile &file : files) {
    bool known = false;
    std::string names;
    for (const TensorSpec &input : inputs) {
      known |= input.name == file.name;
      names += (names.empty() ? "" : ", ") + input.name;
    }
    if (!known)
      return notFound("the model has no input named '" + file.name +
                      "' (inputs: " + names + ")");
    byName[file.name] = file.path;
  }
  std::mt19937 random(42);
  std::vector<HostTensor> tensors;
  for (const TensorSpec &input : inputs) {
    auto file = byName.find(input.name);
    if (file == byName.end()) {
      if (!synthesizeMissing)
        return notFound("missing --input " + input.name + "=FILE.npy");
      tensors.push_back(synthesize(input, random));
      continue;
    }
    StatusOr<HostTensor> tensor = readNpyFile(file->second);
    if (!tensor.isOk())
      return tensor.status();
    KILN_RETURN_IF_ERROR(checkTensor(*tensor, input).withContext(file->second));
    tensors.push_back(std::move(*tensor));
  }
  return tensors;
}

Status writeOutputs(const std::string &folder,
                    const std::vector<TensorSpec> &specs,
                    const std::vector<HostTensor> &outputs) {
  // Create the folder and its parents.
  for (size_t slash = 0; slash != std::string::npos;) {
    slash = folder.find('/', slash + 1);
    std::string prefix = folder.substr(0, slash);
    if (!prefix.empty() && mkdir(prefix.c_str(), 0777) != 0 && errno != EEXIST)
      return notFound("cannot create " + prefix + ": " + std::strerror(errno));
  }
  for (size_t i = 0; i < outputs.size() && i < specs.size(); ++i)
    KILN_RETURN_IF_ERROR(writeNpyFile(
        folder + "/" + fileSafeName(specs[i].name) + ".npy", outputs[i]));
  return Status::ok();
}

std::string summarizeOutputs(const std::vector<TensorSpec> &specs,
                             const std::vector<HostTensor> &outputs) {
  std::string out;
  for (size_t i = 0; i < outputs.size() && i < specs.size(); ++i) {
    out += "output '" + specs[i].name + "': " + dtypeName(specs[i].dtype) +
           shapeString(outputs[i].shape);
    if (specs[i].dtype == DType::kF32) {
      const auto *values = reinterpret_cast<const float *>(outputs[i].data.data());
      int64_t shown = std::min<int64_t>(outputs[i].numElements(), 8);
      out += " = [";
      for (int64_t j = 0; j < shown; ++j) {
        char buffer[32];
        std::snprintf(buffer, sizeof(buffer), "%s%.6g", j ? ", " : "",
                      double(values[j]));
        out += buffer;
      }
      out += outputs[i].numElements() > shown ? ", ...]" : "]";
    }
    out += "\n";
  }
  return out;
}

} // namespace kiln::rt
