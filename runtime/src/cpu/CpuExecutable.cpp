//===- CpuExecutable.cpp - Run a .kiln artifact on the CPU ----------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The kernels section is an ELF shared object. It is loaded from memory
// (memfd_create + dlopen of /proc/self/fd/N) so nothing is written to disk,
// after checking that it is a 64-bit x86-64 ELF file: dlopen's own errors on
// garbage are far less clear.
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/CpuExecutable.h"

#include <cstring>
#include <dlfcn.h>
#include <sys/mman.h>
#include <unistd.h>

namespace kiln::rt {

namespace {
std::string describeShape(const std::vector<int64_t> &shape) {
  std::string out = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    out += (i ? ", " : "") + std::to_string(shape[i]);
  return out + "]";
}

Status checkElf(const std::vector<uint8_t> &image, const std::string &name) {
  // e_ident: magic, class 2 (64-bit), data 1 (little-endian); e_machine 62
  // (x86-64) at offset 18.
  if (image.size() < 64 || std::memcmp(image.data(), "\x7f" "ELF", 4) != 0 ||
      image[4] != 2 || image[5] != 1)
    return dataLoss(name + ": the CPU kernels are not a 64-bit ELF object");
  uint16_t machine = uint16_t(image[18] | image[19] << 8);
  if (machine != 62)
    return unimplemented(name + ": the CPU kernels are for ELF machine " +
                         std::to_string(machine) + ", this is x86-64");
  return Status::ok();
}
} // namespace

Status checkTensor(const HostTensor &tensor, const TensorSpec &spec) {
  if (tensor.dtype != spec.dtype)
    return invalidArgument("input '" + spec.name + "' must be " +
                           dtypeName(spec.dtype) + ", got " +
                           dtypeName(tensor.dtype));
  if (tensor.shape != spec.shape)
    return invalidArgument("input '" + spec.name + "' must have shape " +
                           describeShape(spec.shape) + ", got " +
                           describeShape(tensor.shape));
  size_t bytes = size_t(tensor.numElements()) * dtypeSize(tensor.dtype);
  if (tensor.data.size() != bytes)
    return invalidArgument("input '" + spec.name + "' holds " +
                           std::to_string(tensor.data.size()) +
                           " bytes, its shape needs " + std::to_string(bytes));
  return Status::ok();
}

CpuExecutable::CpuExecutable(Program program, void *library,
                             std::vector<PackedKernel> kernels)
    : program_(std::move(program)), library_(library),
      kernels_(std::move(kernels)) {}

CpuExecutable::~CpuExecutable() {
  if (library_)
    dlclose(library_);
}

StatusOr<std::unique_ptr<CpuExecutable>>
CpuExecutable::load(Artifact artifact, const std::string &name) {
  if (artifact.program.devices.size() != 1 ||
      artifact.program.devices[0].kind != DeviceProgram::Kind::kCpu)
    return unimplemented(name + ": this runtime runs single-device CPU "
                                "programs");
  KILN_RETURN_IF_ERROR(checkElf(artifact.cpuKernels, name));

  int fd = memfd_create("kiln-kernels", MFD_CLOEXEC);
  if (fd < 0)
    return internalError(name + ": memfd_create failed: " +
                         std::strerror(errno));
  size_t written = 0;
  while (written < artifact.cpuKernels.size()) {
    ssize_t n = write(fd, artifact.cpuKernels.data() + written,
                      artifact.cpuKernels.size() - written);
    if (n <= 0) {
      close(fd);
      return internalError(name + ": cannot stage the kernels in memory");
    }
    written += size_t(n);
  }
  std::string path = "/proc/self/fd/" + std::to_string(fd);
  void *library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  close(fd); // dlopen keeps its own mapping.
  if (!library)
    return dataLoss(name + ": cannot load the CPU kernels: " + dlerror());

  std::vector<PackedKernel> kernels;
  for (const Step &step : artifact.program.devices[0].steps) {
    void *symbol = dlsym(library, step.kernel.c_str());
    if (!symbol) {
      dlclose(library);
      return dataLoss(name + ": kernel '" + step.kernel +
                      "' is missing from the CPU kernels");
    }
    kernels.push_back(reinterpret_cast<PackedKernel>(symbol));
  }
  Arena arena;
  if (Status status = arena.allocate(artifact.program.devices[0].arenaBytes);
      !status.isOk()) {
    dlclose(library);
    return status.withContext(name);
  }
  auto executable = std::unique_ptr<CpuExecutable>(new CpuExecutable(
      std::move(artifact.program), library, std::move(kernels)));
  executable->arena_ = std::move(arena);
  return executable;
}

Status CpuExecutable::run(const std::vector<HostTensor> &inputs,
                          std::vector<HostTensor> &outputs) {
  if (inputs.size() != program_.inputs.size())
    return invalidArgument("the model takes " +
                           std::to_string(program_.inputs.size()) +
                           " inputs, got " + std::to_string(inputs.size()));
  for (size_t i = 0; i < inputs.size(); ++i)
    KILN_RETURN_IF_ERROR(checkTensor(inputs[i], program_.inputs[i]));
  outputs.resize(program_.outputs.size());
  for (size_t i = 0; i < outputs.size(); ++i) {
    const TensorSpec &spec = program_.outputs[i];
    outputs[i].dtype = spec.dtype;
    outputs[i].shape = spec.shape;
    outputs[i].data.assign(size_t(outputs[i].numElements()) *
                               dtypeSize(spec.dtype),
                           0);
  }
  // Today every step is a whole-model kernel on the model's inputs and
  // outputs; memory planning will give steps their own buffers.
  for (PackedKernel kernel : kernels_) {
    PackedArguments arguments;
    for (const HostTensor &input : inputs)
      // Kernels never write their inputs; the convention is not const-aware.
      arguments.addTensor(const_cast<uint8_t *>(input.data.data()),
                          input.shape);
    for (HostTensor &output : outputs)
      arguments.addTensor(output.data.data(), output.shape);
    arguments.addTensor(arena_.data(), {int64_t(arena_.size())});
    kernel(arguments.data());
  }
  return Status::ok();
}

} // namespace kiln::rt
