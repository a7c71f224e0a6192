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
  if (image.size() < 64 ||
      std::memcmp(image.data(),
                  "\x7f"
                  "ELF",
                  4) != 0 ||
      image[4] != 2 || image[5] != 1)
    return dataLoss(name + ": the CPU kernels are not a 64-bit ELF object");
  uint16_t machine = uint16_t(image[18] | image[19] << 8);
  if (machine != 62)
    return unimplemented(name + ": the CPU kernels are for ELF machine " +
                         std::to_string(machine) + ", this is x86-64");
  return Status::ok();
}
} // namespace

CpuExecutable::CpuExecutable(Program program, CpuSchedule schedule,
                             std::shared_ptr<void> owner,
                             std::shared_ptr<ThreadPool> pool)
    : program_(std::move(program)), schedule_(std::move(schedule)),
      owner_(std::move(owner)), pool_(std::move(pool)) {}

CpuExecutable::~CpuExecutable() = default;

StatusOr<std::unique_ptr<CpuExecutable>>
CpuExecutable::create(Program program,
                      const std::function<void *(const std::string &)> &lookup,
                      std::shared_ptr<void> owner, const std::string &name,
                      const ExecutableOptions &options) {
  if (program.devices.size() != 1 ||
      program.devices[0].kind != DeviceProgram::Kind::kCpu)
    return unimplemented(name + ": this runtime runs single-device CPU "
                                "programs");
  auto schedule = CpuSchedule::create(program.devices[0], lookup, name);
  if (!schedule.isOk())
    return schedule.status();
  unsigned threads =
      options.threads ? options.threads : ThreadPool::availableThreads();
  std::shared_ptr<ThreadPool> pool;
  if (threads > 1)
    pool = ThreadPool::shared(threads);
  auto executable = std::unique_ptr<CpuExecutable>(
      new CpuExecutable(std::move(program), std::move(*schedule),
                        std::move(owner), std::move(pool)));
  // One arena up front: a program too large for memory fails at load.
  auto arena = executable->takeArena();
  if (!arena.isOk())
    return arena.status().withContext(name);
  executable->returnArena(std::move(*arena));
  return executable;
}

StatusOr<std::unique_ptr<CpuExecutable>>
CpuExecutable::load(Artifact artifact, const std::string &name,
                    const ExecutableOptions &options) {
  if (artifact.program.devices.size() != 1 ||
      artifact.program.devices[0].kind != DeviceProgram::Kind::kCpu)
    return unimplemented(name + ": this runtime runs single-device CPU "
                                "programs");
  KILN_RETURN_IF_ERROR(checkElf(artifact.cpuKernels, name));

  int fd = memfd_create("kiln-kernels", MFD_CLOEXEC);
  if (fd < 0)
    return internalError(name +
                         ": memfd_create failed: " + std::strerror(errno));
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
  if (!library) {
    close(fd);
    return dataLoss(name + ": cannot load the CPU kernels: " + dlerror());
  }
  // The descriptor stays open as long as the library is loaded: dlopen
  // recognises libraries by path, and a closed descriptor's number (so its
  // /proc/self/fd path) would be reused by the next artifact loaded, which
  // would then get this one's kernels (two ranks of a sharded model, two
  // models in one process).
  std::shared_ptr<void> owner(library, [fd](void *handle) {
    dlclose(handle);
    close(fd);
  });
  return create(
      std::move(artifact.program),
      [&](const std::string &symbol) { return dlsym(library, symbol.c_str()); },
      std::move(owner), name, options);
}

StatusOr<std::unique_ptr<Arena>> CpuExecutable::takeArena() {
  {
    std::lock_guard<std::mutex> lock(arenasMutex_);
    if (!freeArenas_.empty()) {
      std::unique_ptr<Arena> arena = std::move(freeArenas_.back());
      freeArenas_.pop_back();
      return arena;
    }
  }
  auto arena = std::make_unique<Arena>();
  KILN_RETURN_IF_ERROR(arena->allocate(program_.devices[0].arenaBytes));
  return arena;
}

void CpuExecutable::returnArena(std::unique_ptr<Arena> arena) {
  std::lock_guard<std::mutex> lock(arenasMutex_);
  freeArenas_.push_back(std::move(arena));
}

Status CpuExecutable::run(const std::vector<HostTensor> &inputs,
                          std::vector<HostTensor> &outputs) {
  return run(inputs, outputs, RunOptions());
}

Status CpuExecutable::run(const std::vector<HostTensor> &inputs,
                          std::vector<HostTensor> &outputs,
                          const RunOptions &options) {
  // Outputs are only allocated for a valid call.
  KILN_RETURN_IF_ERROR(checkBindings(refsOf(inputs), program_.inputs,
                                     std::vector<TensorRef>(), {}));
  for (size_t i = 0; i < inputs.size(); ++i)
    KILN_RETURN_IF_ERROR(checkTensor(inputs[i], program_.inputs[i]));
  std::vector<TensorRef> outputRefs =
      allocateOutputs(program_.outputs, outputs);
  KILN_RETURN_IF_ERROR(run(refsOf(inputs), outputRefs, options));
  return applyRuntimeLengths(program_.outputs, outputs);
}

Status CpuExecutable::run(const std::vector<TensorRef> &inputs,
                          const std::vector<TensorRef> &outputs) {
  return run(inputs, outputs, RunOptions());
}

Status CpuExecutable::run(const std::vector<TensorRef> &inputs,
                          const std::vector<TensorRef> &outputs,
                          const RunOptions &options) {
  KILN_RETURN_IF_ERROR(
      checkBindings(inputs, program_.inputs, outputs, program_.outputs));
  auto arena = takeArena();
  if (!arena.isOk())
    return arena.status();
  PackedArguments arguments;
  packModelArguments(arguments, inputs, outputs, (*arena)->data(),
                     (*arena)->size());
  std::vector<uint8_t *> inputData, outputData;
  for (const TensorRef &input : inputs)
    inputData.push_back(static_cast<uint8_t *>(input.data));
  for (const TensorRef &output : outputs)
    outputData.push_back(static_cast<uint8_t *>(output.data));
  RunBuffers buffers;
  buffers.inputs = &inputData;
  buffers.outputs = &outputData;
  buffers.arena = static_cast<uint8_t *>((*arena)->data());
  Status status =
      schedule_.run(pool_.get(), arguments.data(), buffers, options);
  returnArena(std::move(*arena));
  return status;
}

} // namespace kiln::rt
