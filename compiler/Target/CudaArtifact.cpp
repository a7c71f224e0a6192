//===- CudaArtifact.cpp - Ahead-of-time CUDA artifacts --------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "compiler/Target/CudaArtifact.h"

#include "compiler/Target/DiskCache.h"
#include "compiler/Target/Nvrtc.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <atomic>
#include <thread>

namespace kiln::compiler {

namespace {

/// Kernels per NVRTC program: small enough to compile programs in
/// parallel, large enough that per-program overhead stays small.
constexpr size_t kKernelsPerProgram = 32;
constexpr unsigned kKnownArchs[] = {75, 80, 86, 87, 89, 90, 100, 120};

/// One NVRTC program for one architecture: its CUBIN and the PTX it was
/// assembled from, both from one compilation.
struct Job {
  size_t first = 0, count = 0; // kernels
  unsigned arch = 0;
  rt::StatusOr<std::vector<uint8_t>> cubin =
      rt::Status(rt::StatusCode::kInternal, "not compiled");
  std::vector<uint8_t> ptx;
  bool hit = false;
};

std::string cacheKey(const Nvrtc &nvrtc, const std::string &source,
                     const std::vector<std::string> &options, unsigned arch,
                     NvrtcOutput output) {
  std::string key = "nvrtc " + nvrtc.version() + "\n";
  key += output == NvrtcOutput::kPtx ? "ptx " : "cubin ";
  key += std::to_string(arch) + "\n";
  for (const std::string &option : options)
    key += option + "\n";
  return key + "\n" + source;
}

} // namespace

bool CudaTarget::isCuda(const std::string &target) {
  return target == "cuda" || llvm::StringRef(target).starts_with("cuda:");
}

rt::StatusOr<CudaTarget> CudaTarget::parse(const std::string &target) {
  CudaTarget parsed;
  if (target == "cuda") {
    parsed.archs = {80, 90};
    return parsed;
  }
  llvm::StringRef rest(target);
  if (!rest.consume_front("cuda:"))
    return rt::invalidArgument("unknown target '" + target + "'");
  llvm::SmallVector<llvm::StringRef> names;
  rest.split(names, ',');
  for (llvm::StringRef name : names) {
    unsigned arch = 0;
    if (!name.consume_front("sm_") || name.getAsInteger(10, arch) ||
        !llvm::is_contained(kKnownArchs, arch))
      return rt::invalidArgument(
          "unknown CUDA architecture in '" + target +
          "' (expected e.g. cuda:sm_90; known: sm_75 sm_80 sm_86 sm_87 sm_89 "
          "sm_90 sm_100 sm_120)");
    if (!llvm::is_contained(parsed.archs, arch))
      parsed.archs.push_back(arch);
  }
  std::sort(parsed.archs.begin(), parsed.archs.end());
  return parsed;
}

std::string CudaTarget::describe() const {
  std::string text = "cuda ";
  for (size_t i = 0; i < archs.size(); ++i)
    text += (i ? ",sm_" : "sm_") + std::to_string(archs[i]);
  return text;
}

rt::StatusOr<rt::Artifact> buildCudaArtifact(const cuda::CudaProgram &program,
                                             const EntrySignature &signature,
                                             const CudaTarget &target,
                                             CudaBuildStats *stats) {
  auto nvrtc = Nvrtc::get();
  if (!nvrtc.isOk())
    return nvrtc.status();
  std::vector<std::string> options = Nvrtc::defaultOptions();
  DiskCache cache = DiskCache::fromEnvironment("cuda");

  std::vector<Job> jobs;
  for (size_t first = 0; first < program.kernels.size();
       first += kKernelsPerProgram)
    for (unsigned arch : target.archs) {
      Job job;
      job.first = first;
      job.count = std::min(kKernelsPerProgram, program.kernels.size() - first);
      job.arch = arch;
      jobs.push_back(std::move(job));
    }
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i; (i = next++) < jobs.size();) {
      Job &job = jobs[i];
      std::string source = program.source(
          llvm::ArrayRef(program.kernels).slice(job.first, job.count));
      std::string ptxKey =
          cacheKey(**nvrtc, source, options, job.arch, NvrtcOutput::kPtx);
      std::string cubinKey =
          cacheKey(**nvrtc, source, options, job.arch, NvrtcOutput::kCubin);
      std::optional<std::vector<uint8_t>> ptx = cache.lookup(ptxKey);
      std::optional<std::vector<uint8_t>> cubin = cache.lookup(cubinKey);
      if (ptx && cubin) {
        job.ptx = std::move(*ptx);
        job.cubin = std::move(*cubin);
        job.hit = true;
        continue;
      }
      job.cubin = (*nvrtc)->compile(source, job.arch, NvrtcOutput::kCubin,
                                    options, &job.ptx);
      if (job.cubin.isOk()) {
        cache.store(ptxKey, job.ptx);
        cache.store(cubinKey, *job.cubin);
      }
    }
  };
  unsigned threads =
      std::clamp<unsigned>(std::thread::hardware_concurrency(), 1, 8);
  threads = std::min<unsigned>(threads, jobs.size());
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t)
    pool.emplace_back(worker);
  worker();
  for (std::thread &thread : pool)
    thread.join();

  rt::Artifact artifact;
  artifact.target = target.describe();
  artifact.program.inputs = signature.inputs;
  artifact.program.outputs = signature.outputs;
  for (Job &job : jobs) {
    if (!job.cubin.isOk())
      return job.cubin.status();
    for (auto format :
         {rt::CudaModule::Format::kPtx, rt::CudaModule::Format::kCubin}) {
      rt::CudaModule module;
      module.format = format;
      module.arch = job.arch;
      for (size_t k = job.first; k < job.first + job.count; ++k)
        module.kernels.push_back(program.kernels[k].name);
      if (format == rt::CudaModule::Format::kPtx) {
        module.image = std::move(job.ptx);
        // PTX is text the driver reads up to its terminator.
        if (module.image.empty() || module.image.back() != 0)
          module.image.push_back(0);
      } else {
        module.image = std::move(*job.cubin);
      }
      artifact.cudaModules.push_back(std::move(module));
    }
    if (stats) {
      stats->compiled += job.hit ? 0 : 1;
      stats->cacheHits += job.hit ? 1 : 0;
    }
  }
  if (stats)
    stats->programs = unsigned(jobs.size());

  // The schedule of the exec level (addCudaSchedule, run by generateCuda).
  if (program.schedule.steps.size() !=
      program.kernels.size() + program.collectives.size())
    return rt::internalError(
        "the CUDA program has no schedule for its " +
        std::to_string(program.kernels.size()) + " kernels and " +
        std::to_string(program.collectives.size()) + " collectives");
  rt::DeviceProgram device = program.schedule;
  device.kind = rt::DeviceProgram::Kind::kCuda;
  device.arenaBytes = signature.arenaBytes;
  artifact.program.devices.push_back(std::move(device));
  artifact.constants = program.constants;
  // Kernel k's launch, with its parameters as arguments, is the k-th
  // launch step.
  for (size_t k = 0; k < program.kernels.size(); ++k)
    if (std::optional<rt::GemmCall> call = program.kernels[k].gemm) {
      call->step = uint32_t(program.stepOfKernel(k));
      if (std::optional<std::string> why =
              rt::checkGemmCall(*call, artifact.program))
        return rt::internalError("kernel " + program.kernels[k].name +
                                 " has an invalid GEMM call: " + *why);
      artifact.gemmCalls.push_back(*call);
    }
  return artifact;
}

rt::StatusOr<std::string> compileCudaToPtx(const cuda::CudaProgram &program,
                                           unsigned arch) {
  auto nvrtc = Nvrtc::get();
  if (!nvrtc.isOk())
    return nvrtc.status();
  auto image = (*nvrtc)->compile(program.source(), arch, NvrtcOutput::kPtx,
                                 Nvrtc::defaultOptions());
  if (!image.isOk())
    return image.status();
  std::string text(image->begin(), image->end());
  while (!text.empty() && text.back() == '\0')
    text.pop_back();
  return text;
}

} // namespace kiln::compiler
