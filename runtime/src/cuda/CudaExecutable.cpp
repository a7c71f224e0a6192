//===- CudaExecutable.cpp - Run a .kiln artifact on a CUDA GPU ------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Load: open the device (CudaDevice), pick and load a module per kernel
// (CUBIN for this GPU, else PTX that the driver JIT-compiles), make one
// device allocation holding the constants, every input and output and the
// arena, upload the constants, and precompute each launch's parameters.
// Every kernel parameter is a device pointer to a fixed place in that one
// allocation, so a captured CUDA Graph stays valid for every later run.
//
// Run: copy inputs in, launch the steps in order on one stream (the second
// run captures them into a graph, later runs replay it), copy outputs out,
// wait. Host buffers are the caller's; only copies touch them.
//
// A rank of a sharded model also has collective steps: the stream drains
// before each and the run's collectives hook (a communicator on device
// memory: NCCL) exchanges the step's device buffers, so such programs run
// step by step and are never captured.
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/CudaExecutable.h"
#include "kiln/runtime/Bindings.h"
#include "kiln/runtime/CudaModuleChoice.h"

#include "CudaBlasLt.h"
#include "CudaDevice.h"
#include "GemmTimingCache.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>

namespace kiln::rt {

using namespace cuda;

namespace {
/// Alignment of every buffer inside the device allocation (what cudaMalloc
/// guarantees, and what the constants' entries assume).
constexpr uint64_t kDeviceAlignment = 256;

uint64_t alignUp(uint64_t value) {
  return (value + kDeviceAlignment - 1) / kDeviceAlignment * kDeviceAlignment;
}

uint64_t bytesOf(const TensorSpec &spec) {
  uint64_t count = 1;
  for (int64_t dim : spec.shape)
    count *= uint64_t(dim);
  return count * dtypeSize(spec.dtype);
}

bool graphsDisabledByEnvironment() {
  const char *value = std::getenv("KILN_CUDA_GRAPHS");
  return value && std::strcmp(value, "0") == 0;
}

struct Launch {
  CUfunction function = nullptr;
  unsigned grid[3] = {1, 1, 1};
  unsigned block[3] = {1, 1, 1};
  unsigned sharedBytes = 0;
  std::vector<CUdeviceptr> values; ///< One device pointer per parameter.
  std::vector<void *> parameters;  ///< &values[i], as cuLaunchKernel wants.
  /// Set when cuBLASLt runs this step instead of the kernel.
  const BlasLtGemm *gemm = nullptr;
  /// A collective step: the run's collectives hook runs it, not a kernel.
  bool collective = false;
};

/// Two events around some stream work; the elapsed device time.
class EventTimer {
public:
  EventTimer(const CudaDriver &api, CudaDevice &device)
      : api_(api), device_(device) {}
  ~EventTimer() {
    if (start_)
      api_.cuEventDestroy_v2(start_);
    if (end_)
      api_.cuEventDestroy_v2(end_);
  }
  /// May be called again after stop(): the events are reused.
  Status start(CUstream stream) {
    if (!start_)
      KILN_RETURN_IF_ERROR(
          device_.check(api_.cuEventCreate(&start_, 0), "cuEventCreate"));
    if (!end_)
      KILN_RETURN_IF_ERROR(
          device_.check(api_.cuEventCreate(&end_, 0), "cuEventCreate"));
    return device_.check(api_.cuEventRecord(start_, stream), "cuEventRecord");
  }
  StatusOr<double> stop(CUstream stream) {
    KILN_RETURN_IF_ERROR(
        device_.check(api_.cuEventRecord(end_, stream), "cuEventRecord"));
    KILN_RETURN_IF_ERROR(
        device_.check(api_.cuEventSynchronize(end_), "cuEventSynchronize"));
    float ms = 0;
    KILN_RETURN_IF_ERROR(device_.check(
        api_.eventElapsedTime(&ms, start_, end_), "cuEventElapsedTime"));
    return double(ms);
  }

private:
  const CudaDriver &api_;
  CudaDevice &device_;
  CUevent start_ = nullptr, end_ = nullptr;
};
} // namespace

struct CudaExecutable::State {
  std::string name;
  Program program;
  CudaLoadOptions options;
  std::shared_ptr<CudaDevice> device;
  std::vector<CUmodule> modules;
  std::vector<std::string> choices;
  std::vector<Launch> launches;
  bool hasCollectives = false;
  CUstream stream = nullptr;
  CUdeviceptr memory = 0;
  uint64_t memoryBytes = 0;
  CUdeviceptr constants = 0, arena = 0;
  /// Hooked runs: a host copy of `memory`, laid out the same way.
  std::vector<uint8_t> mirror;
  bool constantsMirrored = false;
  std::vector<CUdeviceptr> inputs, outputs;
  std::vector<uint64_t> inputBytes, outputBytes;
  CUgraphExec graph = nullptr;
  bool graphs = true;
  CudaRunCounters counters;
  std::vector<std::string> warnings;
  // The GEMM paths (GemmCall.h).
  void *blasLtHandle = nullptr;
  const BlasLtApi *blasLt = nullptr;
  CUdeviceptr workspace = 0;
  std::vector<std::unique_ptr<BlasLtGemm>> gemms;
  std::vector<std::string> gemmChoices;

  /// Device addresses a collective step's hook works on; fixed at load.
  std::vector<uint8_t *> inputViews, outputViews;
  RunBuffers deviceBuffers;

  const CudaDriver &api() const { return device->driver(); }
  Status check(CUresult result, const char *call) {
    return device->check(result, call);
  }

  ~State() {
    if (!device)
      return;
    // Best effort: on a poisoned context these fail, and nothing more can
    // be done about it.
    const CudaDriver &d = api();
    // makeCurrent binds the context even when it reports a poisoned device.
    if (device->makeCurrent().isOk() && stream)
      d.cuStreamSynchronize(stream);
    gemms.clear();
    if (blasLtHandle)
      blasLt->destroy(blasLtHandle);
    if (workspace)
      d.cuMemFree_v2(workspace);
    if (graph)
      d.cuGraphExecDestroy(graph);
    if (stream)
      d.cuStreamDestroy_v2(stream);
    if (memory)
      d.cuMemFree_v2(memory);
    for (CUmodule module : modules)
      d.cuModuleUnload(module);
  }

  Status loadModules(const std::vector<CudaModule> &images);
  StatusOr<CUmodule> loadModule(const CudaModule &image);
  Status checkLaunchLimits(const Step &step, CUfunction function);
  Status allocate(const std::vector<uint8_t> &constantBytes);
  Status prepareLaunches();
  Status planGemms(const std::vector<GemmCall> &calls);
  /// kAuto: device time of `launch` as a kernel and through `gemm`.
  StatusOr<GemmTiming> timeGemm(Launch &launch, const BlasLtGemm &gemm);
  Status launchOne(Launch &launch);
  Status launchAll();
  /// Runs collective step `s` through `hook` once the stream has drained,
  /// on the device buffers.
  Status runCollective(size_t s, CollectivesHook &hook);
  /// Every step in order; collectives through `hook`.
  Status runSteps(CollectivesHook &hook);
  Status capture();
  /// capture(), but a failure that left the device usable turns graphs
  /// off with a warning instead of failing the run.
  Status captureOrFallBack();
  Status copyInputs(const std::vector<TensorRef> &hostInputs);
  Status copyOutputsAndWait(const std::vector<TensorRef> &hostOutputs);
  Status runHooked(const std::vector<TensorRef> &hostInputs,
                   const std::vector<TensorRef> &hostOutputs, StepHooks &hooks,
                   CollectivesHook *collectives);
  uint8_t *mirrored(CUdeviceptr address) {
    return mirror.data() + (address - memory);
  }
};

StatusOr<CUmodule>
CudaExecutable::State::loadModule(const CudaModule &image) {
  // The JIT's log says which PTX line it rejects.
  char log[4096] = {};
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {log, reinterpret_cast<void *>(sizeof(log) - 1)};
  CUmodule module = nullptr;
  Status status = check(
      api().cuModuleLoadDataEx(&module, image.image.data(), 2, options, values),
      "cuModuleLoadDataEx");
  if (!status.isOk()) {
    std::string detail = log[0] ? std::string("\n") + log : "";
    return Status(status.code(), "loading the " + describeCudaModule(image) +
                                     " module: " + status.message() + detail);
  }
  modules.push_back(module);
  return module;
}

Status
CudaExecutable::State::loadModules(const std::vector<CudaModule> &images) {
  const DeviceProgram &code = program.devices[0];
  std::vector<std::string> kernels;
  for (const Step &step : code.steps)
    if (step.kind == Step::Kind::kLaunchKernel &&
        std::find(kernels.begin(), kernels.end(), step.kernel) == kernels.end())
      kernels.push_back(step.kernel);
  StatusOr<std::vector<std::vector<size_t>>> ranked =
      rankCudaModules(images, kernels, device->sm());
  if (!ranked.isOk())
    return ranked.status().withContext(name);

  std::map<size_t, CUmodule> loaded;
  std::map<size_t, Status> failed; // Modules that did not load, and why.
  std::map<std::string, CUfunction> functions;
  for (size_t k = 0; k < kernels.size(); ++k) {
    // The best candidate that loads. A CUBIN the driver rejects (built by
    // a newer toolkit, say) leaves the PTX, which the driver JIT-compiles.
    std::vector<std::string> reasons; // Of the candidates that failed.
    size_t index = 0;
    Status status;
    for (size_t candidate : (*ranked)[k]) {
      index = candidate;
      if (!loaded.count(index) && !failed.count(index)) {
        StatusOr<CUmodule> module = loadModule(images[index]);
        if (module.isOk())
          loaded[index] = *module;
        else
          failed.emplace(index, module.status());
      }
      if (loaded.count(index))
        break;
      status = failed.at(index);
      // Retrying cannot help on a dead context or without memory.
      if (!device->poisoned().isOk() ||
          status.code() == StatusCode::kResourceExhausted)
        return status.withContext(name);
      reasons.push_back("the " + describeCudaModule(images[index]) +
                        " failed: " + status.message());
    }
    std::string fellBack;
    for (const std::string &reason : reasons)
      fellBack += (fellBack.empty() ? ", after " : "; ") + reason;
    if (!loaded.count(index)) {
      if (reasons.size() == 1)
        return status.withContext(name);
      return Status(status.code(), name + ": kernel '" + kernels[k] +
                                       "': no module loaded" +
                                       fellBack.substr(1));
    }
    const CudaModule &image = images[index];
    choices.push_back(kernels[k] + ": " + describeCudaModule(image) +
                      fellBack);
    if (!fellBack.empty()) {
      warnings.push_back(name + ": kernel '" + kernels[k] + "' runs the " +
                         describeCudaModule(image) + fellBack);
      if (image.format == CudaModule::Format::kPtx)
        ++counters.cubinFallbacks;
    }
    CUfunction function = nullptr;
    status = check(
        api().cuModuleGetFunction(&function, loaded[index], kernels[k].c_str()),
        "cuModuleGetFunction");
    if (!status.isOk())
      return status.withContext(name + ": kernel '" + kernels[k] + "' in the " +
                                describeCudaModule(image) + " module");
    functions[kernels[k]] = function;
  }
  for (const Step &step : code.steps) {
    Launch launch;
    if (step.kind == Step::Kind::kCollective) {
      launch.collective = true;
      launches.push_back(std::move(launch));
      continue;
    }
    launch.function = functions[step.kernel];
    KILN_RETURN_IF_ERROR(checkLaunchLimits(step, launch.function));
    std::copy(step.grid, step.grid + 3, launch.grid);
    std::copy(step.block, step.block + 3, launch.block);
    launch.sharedBytes = step.sharedBytes;
    launches.push_back(std::move(launch));
  }
  return Status::ok();
}

Status CudaExecutable::State::checkLaunchLimits(const Step &step,
                                                CUfunction function) {
  // Checked at load, so that a launch never fails for a reason known now:
  // the driver would only say CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES.
  const CudaDeviceInfo &info = device->info();
  auto where = [&] { return name + ": kernel '" + step.kernel + "'"; };
  uint64_t threads = uint64_t(step.block[0]) * step.block[1] * step.block[2];
  int limit = 0, staticShared = 0, registers = 0;
  KILN_RETURN_IF_ERROR(
      check(api().cuFuncGetAttribute(
                &limit, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, function),
            "cuFuncGetAttribute")
          .withContext(where()));
  KILN_RETURN_IF_ERROR(
      check(api().cuFuncGetAttribute(&staticShared,
                                     CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES,
                                     function),
            "cuFuncGetAttribute")
          .withContext(where()));
  KILN_RETURN_IF_ERROR(
      check(api().cuFuncGetAttribute(&registers, CU_FUNC_ATTRIBUTE_NUM_REGS,
                                     function),
            "cuFuncGetAttribute")
          .withContext(where()));
  if (limit > 0 && threads > uint64_t(limit))
    return Status(StatusCode::kResourceExhausted,
                  where() + " is launched with " + std::to_string(threads) +
                      " threads per block, but with its " +
                      std::to_string(registers) +
                      " registers per thread this GPU runs at most " +
                      std::to_string(limit));
  uint64_t shared = uint64_t(staticShared) + step.sharedBytes;
  if (info.maxSharedBytesPerBlock > 0 &&
      shared > uint64_t(info.maxSharedBytesPerBlock))
    return Status(StatusCode::kResourceExhausted,
                  where() + " needs " + std::to_string(shared) +
                      " bytes of shared memory per block; this GPU (sm_" +
                      std::to_string(info.sm) + ") allows " +
                      std::to_string(info.maxSharedBytesPerBlock));
  // Above 48 KiB a kernel must opt in to its dynamic shared memory.
  if (shared > kDefaultSharedMemoryLimit)
    KILN_RETURN_IF_ERROR(
        check(api().cuFuncSetAttribute(
                  function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                  int(step.sharedBytes)),
              "cuFuncSetAttribute")
            .withContext(where()));
  return Status::ok();
}

Status
CudaExecutable::State::allocate(const std::vector<uint8_t> &constantBytes) {
  // One allocation, laid out: constants, inputs, outputs, arena; each part
  // 256-byte aligned. Zero-byte parts still get distinct addresses.
  uint64_t offset = 0;
  auto reserve = [&](uint64_t bytes) {
    uint64_t at = offset;
    offset += alignUp(bytes == 0 ? 1 : bytes);
    return at;
  };
  uint64_t constantsAt = reserve(constantBytes.size());
  std::vector<uint64_t> inputsAt, outputsAt;
  for (const TensorSpec &spec : program.inputs) {
    inputBytes.push_back(bytesOf(spec));
    inputsAt.push_back(reserve(inputBytes.back()));
  }
  for (const TensorSpec &spec : program.outputs) {
    outputBytes.push_back(bytesOf(spec));
    outputsAt.push_back(reserve(outputBytes.back()));
  }
  uint64_t arenaAt = reserve(program.devices[0].arenaBytes);
  memoryBytes = offset;
  Status status =
      check(api().cuMemAlloc_v2(&memory, size_t(offset)), "cuMemAlloc");
  if (!status.isOk())
    return status.withContext(name + ": allocating " + std::to_string(offset) +
                              " bytes of device memory");
  constants = memory + constantsAt;
  arena = memory + arenaAt;
  for (uint64_t at : inputsAt)
    inputs.push_back(memory + at);
  for (uint64_t at : outputsAt)
    outputs.push_back(memory + at);
  // Zeroed once, like the CPU arena: no run sees another process's data.
  KILN_RETURN_IF_ERROR(
      check(api().cuMemsetD8Async(memory, 0, size_t(offset), stream),
            "cuMemsetD8Async"));
  if (!constantBytes.empty())
    KILN_RETURN_IF_ERROR(
        check(api().cuMemcpyHtoDAsync_v2(constants, constantBytes.data(),
                                         constantBytes.size(), stream),
              "cuMemcpyHtoDAsync"));
  // The constants' host copy goes away with the artifact: wait for it.
  return check(api().cuStreamSynchronize(stream), "cuStreamSynchronize");
}

Status CudaExecutable::State::prepareLaunches() {
  const DeviceProgram &code = program.devices[0];
  for (size_t s = 0; s < code.steps.size(); ++s) {
    Launch &launch = launches[s];
    for (const KernelArg &arg : code.steps[s].args) {
      CUdeviceptr base = 0;
      switch (arg.base) {
      case KernelArg::Base::kInput:
        base = inputs[arg.index];
        break;
      case KernelArg::Base::kOutput:
        base = outputs[arg.index];
        break;
      case KernelArg::Base::kArena:
        base = arena;
        break;
      case KernelArg::Base::kConstants:
        base = constants;
        break;
      }
      launch.values.push_back(base + arg.offset);
    }
    // values no longer grows: its addresses are stable.
    for (CUdeviceptr &value : launch.values)
      launch.parameters.push_back(&value);
  }
  for (CUdeviceptr input : inputs)
    inputViews.push_back(reinterpret_cast<uint8_t *>(input));
  for (CUdeviceptr output : outputs)
    outputViews.push_back(reinterpret_cast<uint8_t *>(output));
  deviceBuffers.inputs = &inputViews;
  deviceBuffers.outputs = &outputViews;
  deviceBuffers.arena = reinterpret_cast<uint8_t *>(arena);
  deviceBuffers.constants = reinterpret_cast<const uint8_t *>(constants);
  return Status::ok();
}

Status CudaExecutable::State::launchOne(Launch &launch) {
  if (launch.gemm)
    return launch.gemm->run(stream);
  return check(api().cuLaunchKernel(launch.function, launch.grid[0],
                                    launch.grid[1], launch.grid[2],
                                    launch.block[0], launch.block[1],
                                    launch.block[2], launch.sharedBytes, stream,
                                    launch.parameters.data(), nullptr),
               "cuLaunchKernel");
}

Status CudaExecutable::State::launchAll() {
  for (Launch &launch : launches)
    KILN_RETURN_IF_ERROR(launchOne(launch));
  return Status::ok();
}

Status CudaExecutable::State::runCollective(size_t s, CollectivesHook &hook) {
  const Step &step = program.devices[0].steps[s];
  // The communicator works on its own stream: what this step reads must
  // be written first.
  KILN_RETURN_IF_ERROR(
      check(api().cuStreamSynchronize(stream), "cuStreamSynchronize"));
  StepEvent event;
  event.index = uint32_t(s);
  event.step = &step;
  event.buffers = &deviceBuffers;
  KILN_RETURN_IF_ERROR(hook.run(event).withContext(name));
  ++counters.collectiveSteps;
  return Status::ok();
}

Status CudaExecutable::State::runSteps(CollectivesHook &hook) {
  for (size_t s = 0; s < launches.size(); ++s)
    KILN_RETURN_IF_ERROR(launches[s].collective ? runCollective(s, hook)
                                                : launchOne(launches[s]));
  return Status::ok();
}

StatusOr<GemmTiming> CudaExecutable::State::timeGemm(Launch &launch,
                                                     const BlasLtGemm &gemm) {
  constexpr int kRepeats = 5;
  EventTimer timer(api(), *device);
  GemmTiming timing;
  for (bool library : {false, true}) {
    launch.gemm = library ? &gemm : nullptr;
    KILN_RETURN_IF_ERROR(launchOne(launch)); // Warm: JIT, heuristics.
    KILN_RETURN_IF_ERROR(timer.start(stream));
    for (int i = 0; i < kRepeats; ++i)
      KILN_RETURN_IF_ERROR(launchOne(launch));
    StatusOr<double> ms = timer.stop(stream);
    if (!ms.isOk())
      return ms.status();
    (library ? timing.blasLtMicroseconds : timing.kernelMicroseconds) =
        *ms * 1e3 / kRepeats;
  }
  launch.gemm = nullptr;
  timing.blasLt = timing.blasLtMicroseconds < timing.kernelMicroseconds;
  return timing;
}

Status
CudaExecutable::State::planGemms(const std::vector<GemmCall> &calls) {
  if (options.gemm == GemmPath::kGenerated || calls.empty())
    return Status::ok();
  StatusOr<const BlasLtApi *> library = BlasLtApi::get();
  if (!library.isOk()) {
    // Asked for by name, cuBLASLt must be there; `auto` does without.
    if (options.gemm == GemmPath::kCublasLt)
      return library.status().withContext(name + ": --gemm cublaslt");
    warnings.push_back(name + ": generated GEMM kernels only: " +
                       library.status().message());
    return Status::ok();
  }
  blasLt = *library;
  if (int result = blasLt->create(&blasLtHandle)) {
    blasLtHandle = nullptr;
    Status failed = internalError("cublasLtCreate failed: cuBLAS status " +
                                  std::to_string(result));
    if (options.gemm == GemmPath::kCublasLt)
      return failed.withContext(name);
    warnings.push_back(name + ": generated GEMM kernels only: " +
                       failed.message());
    return Status::ok();
  }
  // 32 MiB: what NVIDIA advises for Hopper; shared by the calls, which run
  // one after another on the stream.
  constexpr size_t kWorkspaceBytes = 32 << 20;
  KILN_RETURN_IF_ERROR(
      check(api().cuMemAlloc_v2(&workspace, kWorkspaceBytes), "cuMemAlloc")
          .withContext(name + ": cuBLASLt workspace"));
  std::string cachePath = options.gemmTimingCache;
  if (cachePath.empty())
    if (const char *env = std::getenv("KILN_CUDA_GEMM_CACHE"))
      cachePath = env;
  GemmTimingCache cache = GemmTimingCache::read(cachePath);
  const CudaDeviceInfo &info = device->info();
  for (const GemmCall &call : calls) {
    if (call.device != 0)
      continue;
    Launch &launch = launches[call.step];
    std::string what = call.describe();
    auto planned = BlasLtGemm::plan(*blasLt, blasLtHandle, call, launch.values,
                                    workspace, kWorkspaceBytes);
    if (!planned.isOk()) {
      gemmChoices.push_back(what + ": generated kernel (" +
                            planned.status().message() + ")");
      continue;
    }
    bool useLibrary = true;
    std::string why;
    if (options.gemm == GemmPath::kAuto) {
      std::string key = GemmTimingCache::key(info.name, info.driverVersion, call);
      GemmTiming timing;
      if (const GemmTiming *known = cache.find(key)) {
        timing = *known;
        why = ", from the timing cache";
      } else {
        StatusOr<GemmTiming> timed = timeGemm(launch, **planned);
        if (!timed.isOk())
          return timed.status().withContext(name + ": timing " + what);
        timing = *timed;
        ++counters.gemmTimings;
        // A cache that cannot be written only costs the next load a timing.
        if (Status saved = cache.append(key, timing); !saved.isOk())
          warnings.push_back(name + ": " + saved.message());
      }
      useLibrary = timing.blasLt;
      char text[96];
      std::snprintf(text, sizeof text, " (kernel %.1f us, cuBLASLt %.1f us",
                    timing.kernelMicroseconds, timing.blasLtMicroseconds);
      why = text + why + ")";
    }
    gemmChoices.push_back(what + (useLibrary ? ": cuBLASLt" : ": generated kernel") +
                          why);
    if (useLibrary) {
      launch.gemm = planned->get();
      ++counters.blasLtSteps;
    }
    gemms.push_back(std::move(*planned));
  }
  return Status::ok();
}

Status CudaExecutable::State::capture() {
  // Thread-local capture: other threads' CUDA work is not affected.
  KILN_RETURN_IF_ERROR(check(api().cuStreamBeginCapture_v2(
                                 stream, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL),
                             "cuStreamBeginCapture"));
  Status launched = launchAll();
  // Always end the capture, or the stream stays unusable.
  CUgraph captured = nullptr;
  Status ended =
      check(api().cuStreamEndCapture(stream, &captured), "cuStreamEndCapture");
  Status status = launched.isOk() ? ended : launched;
  if (status.isOk())
    status = check(api().cuGraphInstantiateWithFlags(&graph, captured, 0),
                   "cuGraphInstantiateWithFlags");
  if (captured)
    api().cuGraphDestroy(captured);
  if (!status.isOk()) {
    // Do not try again on every run; later runs launch directly.
    graph = nullptr;
    graphs = false;
  }
  return status;
}

Status CudaExecutable::State::captureOrFallBack() {
  Status status = capture();
  if (status.isOk() || !device->poisoned().isOk())
    return status;
  // A graph is only faster, never needed: what cannot be captured (a
  // driver that refuses, a library call on the stream) runs directly.
  ++counters.graphCaptureFailures;
  warnings.push_back(name + ": CUDA Graph capture failed, launching kernel " +
                     "by kernel from now on: " + status.message());
  return Status::ok();
}

CudaExecutable::CudaExecutable(std::unique_ptr<State> state)
    : state_(std::move(state)) {}
CudaExecutable::~CudaExecutable() = default;

StatusOr<std::unique_ptr<CudaExecutable>>
CudaExecutable::load(Artifact artifact, const std::string &name,
                     const CudaLoadOptions &options) {
  if (artifact.program.devices.size() != 1 ||
      artifact.program.devices[0].kind != DeviceProgram::Kind::kCuda)
    return unimplemented(name + ": the CUDA runtime runs single-device CUDA "
                                "programs");
  // Launches and collectives, in order on one stream (which satisfies
  // every `after`); copies and fills of format 2 need a newer runtime.
  const std::vector<Step> &steps = artifact.program.devices[0].steps;
  bool hasCollectives = false;
  for (size_t s = 0; s < steps.size(); ++s) {
    hasCollectives |= steps[s].kind == Step::Kind::kCollective;
    if (steps[s].kind != Step::Kind::kLaunchKernel &&
        steps[s].kind != Step::Kind::kCollective)
      return unimplemented(name + ": step #" + std::to_string(s) +
                           " is neither a kernel launch nor a collective; "
                           "this runtime runs CUDA programs of those only");
  }
  StatusOr<std::shared_ptr<CudaDevice>> device =
      CudaDevice::open(options.device);
  if (!device.isOk())
    return device.status().withContext(name);
  auto state = std::make_unique<State>();
  state->name = name;
  state->program = std::move(artifact.program);
  state->options = options;
  state->hasCollectives = hasCollectives;
  // A graph cannot hold a collective that waits on another stream.
  state->graphs =
      options.graphs && !hasCollectives && !graphsDisabledByEnvironment();
  state->device = std::move(*device);
  KILN_RETURN_IF_ERROR(state->device->makeCurrent().withContext(name));
  KILN_RETURN_IF_ERROR(state->loadModules(artifact.cudaModules));
  // A non-blocking stream: no implicit syncs with the legacy default stream.
  KILN_RETURN_IF_ERROR(state
                           ->check(state->api().cuStreamCreate(
                                       &state->stream, CU_STREAM_NON_BLOCKING),
                                   "cuStreamCreate")
                           .withContext(name));
  KILN_RETURN_IF_ERROR(state->allocate(artifact.constants));
  KILN_RETURN_IF_ERROR(state->prepareLaunches());
  KILN_RETURN_IF_ERROR(state->planGemms(artifact.gemmCalls));
  return std::unique_ptr<CudaExecutable>(new CudaExecutable(std::move(state)));
}

const Program &CudaExecutable::program() const { return state_->program; }

std::string CudaExecutable::description() const {
  return "cuda:" + std::to_string(state_->device->ordinal()) + " sm_" +
         std::to_string(state_->device->sm());
}

int CudaExecutable::sm() const { return state_->device->sm(); }

const std::vector<std::string> &CudaExecutable::moduleChoices() const {
  return state_->choices;
}

const CudaRunCounters &CudaExecutable::counters() const {
  return state_->counters;
}

const std::vector<std::string> &CudaExecutable::gemmChoices() const {
  return state_->gemmChoices;
}

const CudaDeviceInfo &CudaExecutable::deviceInfo() const {
  return state_->device->info();
}

const std::vector<std::string> &CudaExecutable::warnings() const {
  return state_->warnings;
}

StatusOr<CudaDeviceInfo> describeCudaDevice(int ordinal) {
  StatusOr<std::shared_ptr<CudaDevice>> device = CudaDevice::open(ordinal);
  if (!device.isOk())
    return device.status();
  return (*device)->info();
}

Status CudaExecutable::run(const std::vector<HostTensor> &inputs,
                           std::vector<HostTensor> &outputs) {
  return run(inputs, outputs, RunOptions());
}

Status CudaExecutable::State::copyInputs(
    const std::vector<TensorRef> &hostInputs) {
  for (size_t i = 0; i < hostInputs.size(); ++i)
    if (inputBytes[i])
      KILN_RETURN_IF_ERROR(
          check(api().cuMemcpyHtoDAsync_v2(inputs[i], hostInputs[i].data,
                                           size_t(inputBytes[i]), stream),
                "cuMemcpyHtoDAsync"));
  return Status::ok();
}

Status CudaExecutable::State::copyOutputsAndWait(
    const std::vector<TensorRef> &hostOutputs) {
  for (size_t i = 0; i < hostOutputs.size(); ++i)
    if (outputBytes[i])
      KILN_RETURN_IF_ERROR(
          check(api().cuMemcpyDtoHAsync_v2(hostOutputs[i].data, outputs[i],
                                           size_t(outputBytes[i]), stream),
                "cuMemcpyDtoHAsync"));
  // Kernel faults surface here.
  KILN_RETURN_IF_ERROR(
      check(api().cuStreamSynchronize(stream), "cuStreamSynchronize"));
  ++counters.runs;
  return Status::ok();
}

Status
CudaExecutable::State::runHooked(const std::vector<TensorRef> &hostInputs,
                                 const std::vector<TensorRef> &hostOutputs,
                                 StepHooks &hooks,
                                 CollectivesHook *collectives) {
  const CudaDriver &d = api();
  if (mirror.size() != memoryBytes)
    mirror.assign(size_t(memoryBytes), 0);
  if (!constantsMirrored) {
    // Hooks may read a step's constant operands; they never change.
    KILN_RETURN_IF_ERROR(check(d.cuMemcpyDtoHAsync_v2(mirror.data(), memory,
                                                      size_t(arena - memory),
                                                      stream),
                               "cuMemcpyDtoHAsync"));
    KILN_RETURN_IF_ERROR(
        check(d.cuStreamSynchronize(stream), "cuStreamSynchronize"));
    constantsMirrored = true;
  }
  std::vector<uint8_t *> inputViews, outputViews;
  for (size_t i = 0; i < hostInputs.size(); ++i) {
    inputViews.push_back(mirrored(inputs[i]));
    if (inputBytes[i])
      std::memcpy(inputViews.back(), hostInputs[i].data,
                  size_t(inputBytes[i]));
  }
  for (CUdeviceptr output : outputs)
    outputViews.push_back(mirrored(output));
  RunBuffers buffers;
  buffers.inputs = &inputViews;
  buffers.outputs = &outputViews;
  buffers.arena = mirrored(arena);
  buffers.constants = mirrored(constants);

  KILN_RETURN_IF_ERROR(copyInputs(hostInputs));
  const std::vector<Step> &steps = program.devices[0].steps;
  EventTimer timer(d, *device);
  for (size_t s = 0; s < launches.size(); ++s) {
    StepEvent event;
    event.index = uint32_t(s);
    event.step = &steps[s];
    event.buffers = &buffers;
    hooks.beforeStep(event);
    Launch &launch = launches[s];
    auto where = [&] {
      return name + ": step #" + std::to_string(s) + " (" + steps[s].kernel +
             ")";
    };
    KILN_RETURN_IF_ERROR(timer.start(stream).withContext(where()));
    if (launch.collective)
      KILN_RETURN_IF_ERROR(runCollective(s, *collectives));
    else
      KILN_RETURN_IF_ERROR(launchOne(launch).withContext(where()));
    // Waits for the step: its faults are reported as its own.
    StatusOr<double> ms = timer.stop(stream);
    if (!ms.isOk())
      return ms.status().withContext(where());
    for (size_t a = 0; a < steps[s].args.size(); ++a) {
      const KernelArg &arg = steps[s].args[a];
      if (arg.access == KernelArg::Access::kRead || arg.bytes == 0)
        continue;
      KILN_RETURN_IF_ERROR(
          check(d.cuMemcpyDtoHAsync_v2(mirrored(launch.values[a]),
                                       launch.values[a], size_t(arg.bytes),
                                       stream),
                "cuMemcpyDtoHAsync")
              .withContext(where()));
    }
    KILN_RETURN_IF_ERROR(
        check(d.cuStreamSynchronize(stream), "cuStreamSynchronize")
            .withContext(where()));
    event.deviceNanoseconds = int64_t(*ms * 1e6);
    hooks.afterStep(event);
  }
  ++counters.directRuns;
  ++counters.hookedRuns;
  return copyOutputsAndWait(hostOutputs);
}

Status CudaExecutable::run(const std::vector<TensorRef> &inputs,
                           const std::vector<TensorRef> &outputs) {
  return run(inputs, outputs, RunOptions());
}

Status CudaExecutable::run(const std::vector<TensorRef> &inputs,
                           const std::vector<TensorRef> &outputs,
                           const RunOptions &options) {
  State &s = *state_;
  if (s.hasCollectives && !options.collectives)
    return Status(StatusCode::kFailedPrecondition,
                  s.name + ": the program has collective steps (one rank of "
                           "a sharded model): run it with a collectives hook, "
                           "or every rank through MultiRankExecutable");
  KILN_RETURN_IF_ERROR(
      checkBindings(inputs, s.program.inputs, outputs, s.program.outputs));
  KILN_RETURN_IF_ERROR(s.device->makeCurrent());
  if (options.hooks)
    return s.runHooked(inputs, outputs, *options.hooks, options.collectives);
  const CudaDriver &api = s.api();
  KILN_RETURN_IF_ERROR(s.copyInputs(inputs));
  if (s.hasCollectives) {
    KILN_RETURN_IF_ERROR(s.runSteps(*options.collectives));
    ++s.counters.directRuns;
  } else if (s.graph) {
    KILN_RETURN_IF_ERROR(
        s.check(api.cuGraphLaunch(s.graph, s.stream), "cuGraphLaunch"));
    ++s.counters.graphLaunches;
  } else if (s.graphs && s.counters.runs >= 1 && !s.launches.empty()) {
    // The first run stays direct: a model run once should not pay for a
    // capture, and its errors are easier to read.
    KILN_RETURN_IF_ERROR(s.captureOrFallBack());
    if (s.graph) {
      KILN_RETURN_IF_ERROR(
          s.check(api.cuGraphLaunch(s.graph, s.stream), "cuGraphLaunch"));
      ++s.counters.graphCaptures;
    } else {
      KILN_RETURN_IF_ERROR(s.launchAll());
      ++s.counters.directRuns;
    }
  } else {
    KILN_RETURN_IF_ERROR(s.launchAll());
    ++s.counters.directRuns;
  }
  return s.copyOutputsAndWait(outputs);
}

Status CudaExecutable::run(const std::vector<HostTensor> &inputs,
                           std::vector<HostTensor> &outputs,
                           const RunOptions &options) {
  // Outputs are only allocated for a valid call.
  KILN_RETURN_IF_ERROR(checkBindings(refsOf(inputs), program().inputs,
                                     std::vector<TensorRef>(), {}));
  for (size_t i = 0; i < inputs.size(); ++i)
    KILN_RETURN_IF_ERROR(checkTensor(inputs[i], program().inputs[i]));
  std::vector<TensorRef> outputRefs =
      allocateOutputs(program().outputs, outputs);
  KILN_RETURN_IF_ERROR(run(refsOf(inputs), outputRefs, options));
  return applyRuntimeLengths(program().outputs, outputs);
}

StatusOr<double> CudaExecutable::timeLaunches(int iterations, bool graph) {
  State &s = *state_;
  if (iterations < 1)
    return invalidArgument("timeLaunches needs at least one iteration");
  if (s.hasCollectives)
    return Status(StatusCode::kFailedPrecondition,
                  s.name + ": timeLaunches times programs without collective "
                           "steps (a rank's steps wait for its peers)");
  KILN_RETURN_IF_ERROR(s.device->makeCurrent());
  const CudaDriver &api = s.api();
  if (graph && !s.graph && !s.launches.empty() &&
      s.counters.graphCaptureFailures == 0)
    KILN_RETURN_IF_ERROR(s.captureOrFallBack());
  auto once = [&]() -> Status {
    if (graph && s.graph)
      return s.check(api.cuGraphLaunch(s.graph, s.stream), "cuGraphLaunch");
    return s.launchAll();
  };
  KILN_RETURN_IF_ERROR(once()); // Warm: module JIT, caches.
  EventTimer timer(api, *s.device);
  KILN_RETURN_IF_ERROR(timer.start(s.stream));
  for (int i = 0; i < iterations; ++i)
    KILN_RETURN_IF_ERROR(once());
  StatusOr<double> ms = timer.stop(s.stream);
  if (!ms.isOk())
    return ms.status();
  return *ms / iterations;
}

StatusOr<double> CudaExecutable::timeDeviceCopy(uint64_t bytes,
                                                int iterations) {
  State &s = *state_;
  if (iterations < 1 || bytes == 0)
    return invalidArgument("timeDeviceCopy needs bytes and iterations");
  KILN_RETURN_IF_ERROR(s.device->makeCurrent());
  const CudaDriver &api = s.api();
  CUdeviceptr from = 0, to = 0;
  KILN_RETURN_IF_ERROR(
      s.check(api.cuMemAlloc_v2(&from, size_t(bytes)), "cuMemAlloc"));
  Status status = s.check(api.cuMemAlloc_v2(&to, size_t(bytes)), "cuMemAlloc");
  StatusOr<double> ms = status;
  if (status.isOk()) {
    EventTimer timer(api, *s.device);
    status = s.check(api.cuMemcpyDtoDAsync_v2(to, from, size_t(bytes), s.stream),
                     "cuMemcpyDtoDAsync");
    if (status.isOk())
      status = timer.start(s.stream);
    for (int i = 0; status.isOk() && i < iterations; ++i)
      status = s.check(
          api.cuMemcpyDtoDAsync_v2(to, from, size_t(bytes), s.stream),
          "cuMemcpyDtoDAsync");
    ms = status.isOk() ? timer.stop(s.stream) : StatusOr<double>(status);
  }
  if (to)
    api.cuMemFree_v2(to);
  api.cuMemFree_v2(from);
  if (!ms.isOk())
    return ms.status();
  return *ms / iterations;
}

uint64_t CudaExecutable::launchArgumentBytes() const {
  uint64_t total = 0;
  for (const Step &step : state_->program.devices[0].steps)
    for (const KernelArg &arg : step.args)
      total += arg.bytes;
  return total;
}

} // namespace kiln::rt
