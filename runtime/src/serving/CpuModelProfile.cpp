//===- CpuModelProfile.cpp - Measure a CPU artifact for the pool ----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The pool plans from measured figures, never from guesses: a model served
// on CPU devices is loaded once here and timed on zero inputs.
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/serving/CpuDevice.h"

#include "kiln/runtime/Artifact.h"

#include <algorithm>
#include <chrono>
#include <sys/stat.h>

namespace kiln::rt::serving {

static Micros elapsedSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::steady_clock::now() - start)
      .count();
}

StatusOr<ModelSpec> profileCpuModel(const std::string &name,
                                    const std::string &path, unsigned threads,
                                    int runs, Program *program) {
  struct stat info;
  if (stat(path.c_str(), &info) != 0)
    return notFound("model '" + name + "': cannot read '" + path + "'");
  auto readStart = std::chrono::steady_clock::now();
  StatusOr<Artifact> artifact = readArtifactFile(path);
  if (!artifact.isOk())
    return artifact.status().withContext("model '" + name + "'");
  return profileCpuArtifact(name, std::move(*artifact), uint64_t(info.st_size),
                            threads, runs, readStart, program);
}

StatusOr<ModelSpec>
profileCpuArtifact(const std::string &name, Artifact artifact,
                   uint64_t weightsBytes, unsigned threads, int runs,
                   std::chrono::steady_clock::time_point readStart,
                   Program *program) {
  for (const DeviceProgram &device : artifact.program.devices)
    if (device.kind != DeviceProgram::Kind::kCpu)
      return unimplemented("model '" + name +
                           "': only CPU artifacts can be served on CPU "
                           "devices (compile with --target cpu)");
  uint64_t arenaBytes = 0;
  for (const DeviceProgram &device : artifact.program.devices)
    arenaBytes += device.arenaBytes;
  ExecutableOptions options;
  options.threads = threads;
  StatusOr<std::unique_ptr<DeviceExecutable>> executable =
      loadExecutable(std::move(artifact), name, options);
  if (!executable.isOk())
    return executable.status().withContext("model '" + name + "'");
  Micros loadTime = std::max<Micros>(1, elapsedSince(readStart));

  const Program &loaded = (*executable)->program();
  if (program)
    *program = loaded;
  std::vector<HostTensor> inputs;
  for (const TensorSpec &spec : loaded.inputs) {
    HostTensor tensor;
    tensor.dtype = spec.dtype;
    tensor.shape = spec.shape;
    tensor.data.assign(size_t(tensor.numElements()) * dtypeSize(spec.dtype),
                       0);
    inputs.push_back(std::move(tensor));
  }
  std::vector<HostTensor> outputs;
  std::vector<Micros> times;
  for (int run = 0; run < std::max(1, runs) + 1; ++run) {
    auto start = std::chrono::steady_clock::now();
    Status status = (*executable)->run(inputs, outputs);
    if (!status.isOk())
      return status.withContext("model '" + name + "': timing run");
    if (run > 0) // the first run warms caches and pages in the arena
      times.push_back(std::max<Micros>(1, elapsedSince(start)));
  }
  std::nth_element(times.begin(), times.begin() + times.size() / 2,
                   times.end());
  Micros latency = times[times.size() / 2];

  ModelSpec model;
  model.name = name;
  model.footprint.weightsBytes = weightsBytes;
  model.footprint.arenaBytes = arenaBytes;
  model.coldLoadTime = loadTime;
  // Host memory is the device's memory: a reload is a load.
  model.reloadTime = loadTime;
  model.stepTime = latency;
  Status set = model.profile.set(1, latency);
  if (!set.isOk())
    return set;
  return model;
}

} // namespace kiln::rt::serving
