//===- FakeCudaDriver.cpp - A CUDA driver on host memory, for tests -------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Built only for tests (libkiln_fake_cuda.so); see FakeCudaDriver.h. The
// signatures come from the runtime's own CudaApi.h so that they cannot
// drift from what the runtime resolves.
//
//===----------------------------------------------------------------------===//

#include "FakeCudaDriver.h"

#include "CudaApi.h"

#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>

#ifndef KILN_FAKE_CUDA_VERSION
#define KILN_FAKE_CUDA_VERSION 13000
#endif

using namespace kiln::rt::cuda;

// The opaque handle types, declared in kiln::rt::cuda by CudaApi.h.
namespace kiln::rt::cuda {
struct CUfunc_st {
  std::string name;
  int sharedOptIn = 48 * 1024;
};
struct CUmod_st {
  std::string image;
  /// As in the real driver, functions live as long as their module.
  std::vector<std::unique_ptr<CUfunc_st>> functions;
};
struct CUstream_st {
  bool capturing = false;
  std::vector<FakeLaunch> captured;
};
struct CUgraph_st {
  std::vector<FakeLaunch> launches;
};
struct CUgraphExec_st {
  std::vector<FakeLaunch> launches;
};
struct CUctx_st {};
struct CUevent_st {
  double clockMs = 0; ///< The fake clock when recorded.
};
} // namespace kiln::rt::cuda

namespace {
FakeCudaState state;
CUctx_st context;

/// state.deviceCount, or $KILN_FAKE_CUDA_DEVICES for tools run by lit.
int deviceCount() {
  const char *devices = std::getenv("KILN_FAKE_CUDA_DEVICES");
  return devices && *devices ? std::atoi(devices) : state.deviceCount;
}

/// Applies the failure injection to a call of `name`.
CUresult enter(const char *name) {
  ++state.calls;
  if (state.stickyResult != CUDA_SUCCESS)
    return state.stickyResult;
  if (!state.failCall.empty() && state.failCall == name) {
    if (state.failSkip-- > 0)
      return CUDA_SUCCESS;
    CUresult result = state.failResult;
    state.failCall.clear();
    if (state.failSticky)
      state.stickyResult = result;
    return result;
  }
  return CUDA_SUCCESS;
}

// One call at a time: the NCCL tests drive the driver from a thread per
// rank.
std::recursive_mutex driverMutex;
#define LOCKED std::lock_guard<std::recursive_mutex> lockedDriver(driverMutex)
#define ENTER(name)                                                            \
  LOCKED;                                                                      \
  if (CUresult injected = enter(name); injected != CUDA_SUCCESS)               \
  return injected

void execute(FakeLaunch launch, bool fromGraph) {
  launch.fromGraph = fromGraph;
  if (launch.hostWork) {
    launch.hostWork();
    state.clockMs += state.blasLtMs;
  } else {
    auto body = state.kernels.find(launch.kernel);
    if (body != state.kernels.end() && body->second.body)
      body->second.body(launch.args);
    auto cost = state.kernelMs.find(launch.kernel);
    state.clockMs += cost == state.kernelMs.end() ? 1.0 : cost->second;
  }
  state.launches.push_back(std::move(launch));
}
} // namespace

void fakeEnqueue(void *stream, const std::string &name,
                 std::function<void()> work) {
  FakeLaunch launch{name, {1, 1, 1}, {1, 1, 1}, 0, {}, false, std::move(work)};
  auto *s = static_cast<CUstream_st *>(stream);
  if (s && s->capturing)
    s->captured.push_back(std::move(launch));
  else
    execute(std::move(launch), false);
}

extern "C" {

FakeCudaState *kilnFakeCudaState() { return &state; }

CUresult cuInit(unsigned) {
  ENTER("cuInit");
  return CUDA_SUCCESS;
}
CUresult cuDriverGetVersion(int *version) {
  *version = state.driverVersion ? state.driverVersion : KILN_FAKE_CUDA_VERSION;
  return CUDA_SUCCESS;
}
CUresult cuDeviceGetCount(int *count) {
  ENTER("cuDeviceGetCount");
  *count = deviceCount();
  return CUDA_SUCCESS;
}
CUresult cuDeviceGet(CUdevice *device, int ordinal) {
  ENTER("cuDeviceGet");
  if (ordinal < 0 || ordinal >= deviceCount())
    return CUDA_ERROR_INVALID_DEVICE;
  *device = ordinal;
  return CUDA_SUCCESS;
}
CUresult cuDeviceGetAttribute(int *value, CUdevice_attribute attribute,
                              CUdevice) {
  ENTER("cuDeviceGetAttribute");
  switch (attribute) {
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR:
    *value = state.major;
    break;
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR:
    *value = state.minor;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN:
    *value = state.maxSharedOptin;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
    *value = 1024;
    break;
  case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT:
    *value = 132;
    break;
  case CU_DEVICE_ATTRIBUTE_CLOCK_RATE:
    *value = 1980000;
    break;
  case CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE:
    *value = 2619000;
    break;
  default:
    return CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_SUCCESS;
}
CUresult cuDeviceGetName(char *name, int length, CUdevice) {
  ENTER("cuDeviceGetName");
  std::strncpy(name, state.name.c_str(), size_t(length));
  return CUDA_SUCCESS;
}
CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice) {
  ENTER("cuDeviceTotalMem_v2");
  *bytes = size_t(state.totalMemory);
  return CUDA_SUCCESS;
}
CUresult cuMemGetInfo_v2(size_t *free, size_t *total) {
  ENTER("cuMemGetInfo_v2");
  *free = *total = size_t(state.totalMemory);
  return CUDA_SUCCESS;
}
CUresult cuDevicePrimaryCtxRetain(CUcontext *out, CUdevice) {
  ENTER("cuDevicePrimaryCtxRetain");
  ++state.primaryRetains;
  *out = &context;
  return CUDA_SUCCESS;
}
CUresult cuDevicePrimaryCtxRelease_v2(CUdevice) {
  LOCKED;
  ++state.primaryReleases;
  return CUDA_SUCCESS;
}
CUresult cuCtxSetCurrent(CUcontext) {
  ENTER("cuCtxSetCurrent");
  return CUDA_SUCCESS;
}
CUresult cuCtxSynchronize() {
  ENTER("cuCtxSynchronize");
  return CUDA_SUCCESS;
}

CUresult cuModuleLoadDataEx(CUmodule *module, const void *image,
                            unsigned numOptions, CUjit_option *options,
                            void **values) {
  CUresult injected = enter("cuModuleLoadDataEx");
  if (injected != CUDA_SUCCESS) {
    // Fill the error log like the JIT does.
    char *log = nullptr;
    size_t size = 0;
    for (unsigned i = 0; i < numOptions; ++i) {
      if (options[i] == CU_JIT_ERROR_LOG_BUFFER)
        log = static_cast<char *>(values[i]);
      if (options[i] == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES)
        size = reinterpret_cast<size_t>(values[i]);
    }
    if (log && size)
      std::strncpy(log, state.jitLog.c_str(), size);
    return injected;
  }
  const char *bytes = static_cast<const char *>(image);
  // Test CUBINs are "\x7fELF" followed by a NUL-terminated description;
  // real ones (NVRTC's, ELFCLASS64) end with their section header table.
  bool elf = std::memcmp(bytes,
                         "\x7f"
                         "ELF",
                         4) == 0;
  std::string text;
  if (elf && bytes[4] == 2 && bytes[5] == 1) {
    uint64_t sectionTable;
    uint16_t entrySize, entries;
    std::memcpy(&sectionTable, bytes + 0x28, 8);
    std::memcpy(&entrySize, bytes + 0x3A, 2);
    std::memcpy(&entries, bytes + 0x3C, 2);
    text = "CUBIN " +
           std::string(bytes, sectionTable + uint64_t(entrySize) * entries);
  } else {
    text = elf ? "CUBIN " + std::string(bytes + 4) : std::string(bytes);
  }
  state.loadedImages.push_back(text);
  *module = new CUmod_st{text, {}};
  ++state.liveModules;
  return CUDA_SUCCESS;
}
CUresult cuModuleGetFunction(CUfunction *function, CUmodule module,
                             const char *name) {
  ENTER("cuModuleGetFunction");
  if (module->image.find(name) == std::string::npos)
    return CUDA_ERROR_NOT_FOUND;
  module->functions.push_back(std::make_unique<CUfunc_st>(CUfunc_st{name}));
  *function = module->functions.back().get();
  return CUDA_SUCCESS;
}
CUresult cuFuncGetAttribute(int *value, CUfunction_attribute attribute,
                            CUfunction) {
  ENTER("cuFuncGetAttribute");
  switch (attribute) {
  case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
    *value = state.kernelMaxThreads;
    break;
  case CU_FUNC_ATTRIBUTE_NUM_REGS:
    *value = state.kernelRegisters;
    break;
  case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES:
    *value = state.kernelStaticShared;
    break;
  default:
    return CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_SUCCESS;
}
CUresult cuFuncSetAttribute(CUfunction function,
                            CUfunction_attribute attribute, int value) {
  ENTER("cuFuncSetAttribute");
  if (attribute != CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES ||
      value > state.maxSharedOptin)
    return CUDA_ERROR_INVALID_VALUE;
  function->sharedOptIn = value;
  state.sharedOptIns[function->name] = value;
  return CUDA_SUCCESS;
}
CUresult cuModuleUnload(CUmodule module) {
  LOCKED;
  delete module;
  --state.liveModules;
  return CUDA_SUCCESS;
}

CUresult cuMemAlloc_v2(CUdeviceptr *pointer, size_t bytes) {
  ENTER("cuMemAlloc_v2");
  if (bytes == 0)
    return 1; // CUDA_ERROR_INVALID_VALUE, as the real driver.
  void *memory = std::aligned_alloc(256, (bytes + 255) / 256 * 256);
  if (!memory)
    return CUDA_ERROR_OUT_OF_MEMORY;
  // Garbage, as on a GPU: the runtime must clear what it relies on.
  std::memset(memory, 0xA5, bytes);
  *pointer = reinterpret_cast<CUdeviceptr>(memory);
  ++state.liveAllocations;
  state.allocatedBytes = bytes;
  return CUDA_SUCCESS;
}
CUresult cuMemFree_v2(CUdeviceptr pointer) {
  LOCKED;
  std::free(reinterpret_cast<void *>(pointer));
  --state.liveAllocations;
  return CUDA_SUCCESS;
}
CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr destination, const void *source,
                              size_t bytes, CUstream) {
  ENTER("cuMemcpyHtoDAsync_v2");
  std::memcpy(reinterpret_cast<void *>(destination), source, bytes);
  return CUDA_SUCCESS;
}
CUresult cuMemcpyDtoHAsync_v2(void *destination, CUdeviceptr source,
                              size_t bytes, CUstream) {
  ENTER("cuMemcpyDtoHAsync_v2");
  std::memcpy(destination, reinterpret_cast<const void *>(source), bytes);
  return CUDA_SUCCESS;
}
CUresult cuMemsetD8Async(CUdeviceptr destination, unsigned char value,
                         size_t count, CUstream) {
  ENTER("cuMemsetD8Async");
  std::memset(reinterpret_cast<void *>(destination), value, count);
  return CUDA_SUCCESS;
}

CUresult cuLaunchKernel(CUfunction function, unsigned gridX, unsigned gridY,
                        unsigned gridZ, unsigned blockX, unsigned blockY,
                        unsigned blockZ, unsigned sharedBytes, CUstream stream,
                        void **parameters, void **) {
  ENTER("cuLaunchKernel");
  // As on a GPU: more than 48 KiB only after opting in.
  if (sharedBytes + unsigned(state.kernelStaticShared) >
      unsigned(function->sharedOptIn))
    return CUDA_ERROR_INVALID_VALUE;
  FakeLaunch launch{function->name,
                    {gridX, gridY, gridZ},
                    {blockX, blockY, blockZ},
                    sharedBytes,
                    {},
                    false};
  // The driver API does not pass the parameter count: the test says it.
  auto known = state.kernels.find(launch.kernel);
  size_t count = known == state.kernels.end() ? 0 : known->second.arity;
  for (size_t i = 0; i < count; ++i)
    launch.args.push_back(*static_cast<CUdeviceptr *>(parameters[i]));
  if (stream && stream->capturing)
    stream->captured.push_back(std::move(launch));
  else
    execute(std::move(launch), false);
  return CUDA_SUCCESS;
}

CUresult cuStreamCreate(CUstream *stream, unsigned) {
  ENTER("cuStreamCreate");
  *stream = new CUstream_st;
  ++state.liveStreams;
  return CUDA_SUCCESS;
}
CUresult cuStreamSynchronize(CUstream) {
  ENTER("cuStreamSynchronize");
  return CUDA_SUCCESS;
}
CUresult cuStreamQuery(CUstream stream) {
  ENTER("cuStreamQuery");
  return fakeNcclPendingOn(stream) > 0 ? CUDA_ERROR_NOT_READY : CUDA_SUCCESS;
}
CUresult cuStreamDestroy_v2(CUstream stream) {
  LOCKED;
  delete stream;
  --state.liveStreams;
  return CUDA_SUCCESS;
}
CUresult cuStreamBeginCapture_v2(CUstream stream, CUstreamCaptureMode) {
  ENTER("cuStreamBeginCapture_v2");
  stream->capturing = true;
  stream->captured.clear();
  ++state.captures;
  return CUDA_SUCCESS;
}
CUresult cuStreamEndCapture(CUstream stream, CUgraph *graph) {
  stream->capturing = false;
  ENTER("cuStreamEndCapture");
  *graph = new CUgraph_st{std::move(stream->captured)};
  ++state.liveGraphs;
  return CUDA_SUCCESS;
}
CUresult cuGraphInstantiateWithFlags(CUgraphExec *exec, CUgraph graph,
                                     unsigned long long) {
  ENTER("cuGraphInstantiateWithFlags");
  *exec = new CUgraphExec_st{graph->launches};
  ++state.instantiations;
  return CUDA_SUCCESS;
}
CUresult cuGraphLaunch(CUgraphExec exec, CUstream) {
  ENTER("cuGraphLaunch");
  ++state.graphLaunches;
  for (const FakeLaunch &launch : exec->launches)
    execute(launch, true);
  return CUDA_SUCCESS;
}
// Events measure nothing here: time is always 1 ms.
CUresult cuEventCreate(CUevent *event, unsigned) {
  ENTER("cuEventCreate");
  *event = new CUevent_st;
  return CUDA_SUCCESS;
}
CUresult cuEventRecord(CUevent event, CUstream) {
  ENTER("cuEventRecord");
  event->clockMs = state.clockMs;
  return CUDA_SUCCESS;
}
CUresult cuEventSynchronize(CUevent) {
  ENTER("cuEventSynchronize");
  return CUDA_SUCCESS;
}
CUresult cuEventElapsedTime(float *milliseconds, CUevent start, CUevent end) {
  ENTER("cuEventElapsedTime");
  ++state.elapsedTimeCalls;
  *milliseconds =
      state.timedEvents ? float(end->clockMs - start->clockMs) : 1.0f;
  return CUDA_SUCCESS;
}
#if KILN_FAKE_CUDA_VERSION >= 12080
CUresult cuEventElapsedTime_v2(float *milliseconds, CUevent start,
                               CUevent end) {
  ENTER("cuEventElapsedTime_v2");
  ++state.elapsedTimeV2Calls;
  *milliseconds =
      state.timedEvents ? float(end->clockMs - start->clockMs) : 1.0f;
  return CUDA_SUCCESS;
}
#endif
CUresult cuEventDestroy_v2(CUevent event) {
  LOCKED;
  delete event;
  return CUDA_SUCCESS;
}
CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr destination, CUdeviceptr source,
                              size_t bytes, CUstream) {
  ENTER("cuMemcpyDtoDAsync_v2");
  std::memmove(reinterpret_cast<void *>(destination),
               reinterpret_cast<const void *>(source), bytes);
  return CUDA_SUCCESS;
}
CUresult cuGraphExecDestroy(CUgraphExec exec) {
  LOCKED;
  delete exec;
  return CUDA_SUCCESS;
}
CUresult cuGraphDestroy(CUgraph graph) {
  LOCKED;
  delete graph;
  --state.liveGraphs;
  return CUDA_SUCCESS;
}

CUresult cuGetErrorName(CUresult error, const char **name) {
  static const std::map<CUresult, const char *> names = {
      {CUDA_SUCCESS, "CUDA_SUCCESS"},
      {CUDA_ERROR_OUT_OF_MEMORY, "CUDA_ERROR_OUT_OF_MEMORY"},
      {CUDA_ERROR_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE"},
      {CUDA_ERROR_INVALID_IMAGE, "CUDA_ERROR_INVALID_IMAGE"},
      {CUDA_ERROR_INSUFFICIENT_DRIVER, "CUDA_ERROR_INSUFFICIENT_DRIVER"},
      {CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED,
       "CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED"},
      {CUDA_ERROR_NO_DEVICE, "CUDA_ERROR_NO_DEVICE"},
      {CUDA_ERROR_INVALID_PTX, "CUDA_ERROR_INVALID_PTX"},
      {CUDA_ERROR_NOT_FOUND, "CUDA_ERROR_NOT_FOUND"},
      {CUDA_ERROR_ILLEGAL_ADDRESS, "CUDA_ERROR_ILLEGAL_ADDRESS"},
      {CUDA_ERROR_LAUNCH_FAILED, "CUDA_ERROR_LAUNCH_FAILED"},
      {CUDA_ERROR_UNSUPPORTED_PTX_VERSION,
       "CUDA_ERROR_UNSUPPORTED_PTX_VERSION"}};
  auto found = names.find(error);
  if (found == names.end())
    return 1; // CUDA_ERROR_INVALID_VALUE
  *name = found->second;
  return CUDA_SUCCESS;
}
CUresult cuGetErrorString(CUresult error, const char **text) {
  if (error == CUDA_ERROR_ILLEGAL_ADDRESS) {
    *text = "an illegal memory access was encountered";
    return CUDA_SUCCESS;
  }
  if (error == CUDA_ERROR_INVALID_PTX) {
    *text = "a PTX JIT compilation failed";
    return CUDA_SUCCESS;
  }
  return 1;
}

} // extern "C"
