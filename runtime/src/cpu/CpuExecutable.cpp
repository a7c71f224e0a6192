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
#include "kiln/runtime/Bindings.h"

#include <cstring>
#include <dlfcn.h>
#include <sys/mman.h>
#include <unistd.h>

namespace kiln::rt {

namespace {
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
  // Outputs are only allocated for a valid call.
  KILN_RETURN_IF_ERROR(checkBindings(refsOf(inputs), program_.inputs,
                                     std::vector<TensorRef>(), {}));
  for (size_t i = 0; i < inputs.size(); ++i)
    KILN_RETURN_IF_ERROR(checkTensor(inputs[i], program_.inputs[i]));
  std::vector<TensorRef> outputRefs =
      allocateOutputs(program_.outputs, outputs);
  return run(refsOf(inputs), outputRefs);
}

Status CpuExecutable::run(const std::vector<TensorRef> &inputs,
                          const std::vector<TensorRef> &outputs) {
  KILN_RETURN_IF_ERROR(
      checkBindings(inputs, program_.inputs, outputs, program_.outputs));
  // Today every step is a whole-model kernel on the model's inputs and
  // outputs; the memory plan places everything else in the arena.
  for (PackedKernel kernel : kernels_) {
    PackedArguments arguments;
    packModelArguments(arguments, inputs, outputs, arena_.data(),
                       arena_.size());
    kernel(arguments.data());
  }
  return Status::ok();
}

} // namespace kiln::rt
