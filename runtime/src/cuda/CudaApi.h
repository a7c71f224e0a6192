//===- CudaApi.h - The slice of the CUDA driver API Kiln uses ---*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Types, constants and signatures of the driver API functions the runtime
// calls, declared here so that the runtime builds without the CUDA toolkit
// (values as in cuda.h of CUDA 12/13, which keeps them stable). The list
// is an X-macro: CudaDriver resolves each entry with dlsym, and the test
// driver (test/unit/runtime/FakeCudaDriver.cpp) defines each one.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_SRC_CUDA_CUDAAPI_H
#define KILN_RUNTIME_SRC_CUDA_CUDAAPI_H

#include <cstddef>
#include <cstdint>

namespace kiln::rt::cuda {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;
using CUgraph = struct CUgraph_st *;
using CUgraphExec = struct CUgraphExec_st *;
using CUevent = struct CUevent_st *;
using CUjit_option = int;
using CUdevice_attribute = int;
using CUstreamCaptureMode = int;

inline constexpr CUresult CUDA_SUCCESS = 0;
inline constexpr CUresult CUDA_ERROR_OUT_OF_MEMORY = 2;
inline constexpr CUresult CUDA_ERROR_NOT_INITIALIZED = 3;
inline constexpr CUresult CUDA_ERROR_INSUFFICIENT_DRIVER = 35;
inline constexpr CUresult CUDA_ERROR_NO_DEVICE = 100;
inline constexpr CUresult CUDA_ERROR_INVALID_DEVICE = 101;
inline constexpr CUresult CUDA_ERROR_INVALID_VALUE = 1;
inline constexpr CUresult CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES = 701;
inline constexpr CUresult CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED = 900;
inline constexpr CUresult CUDA_ERROR_STREAM_CAPTURE_INVALIDATED = 901;
inline constexpr CUresult CUDA_ERROR_NO_BINARY_FOR_GPU = 209;
inline constexpr CUresult CUDA_ERROR_ECC_UNCORRECTABLE = 214;
inline constexpr CUresult CUDA_ERROR_INVALID_PTX = 218;
inline constexpr CUresult CUDA_ERROR_UNSUPPORTED_PTX_VERSION = 222;
inline constexpr CUresult CUDA_ERROR_INVALID_IMAGE = 200;
inline constexpr CUresult CUDA_ERROR_NOT_FOUND = 500;
inline constexpr CUresult CUDA_ERROR_NOT_READY = 600;
inline constexpr CUresult CUDA_ERROR_ILLEGAL_ADDRESS = 700;
inline constexpr CUresult CUDA_ERROR_LAUNCH_TIMEOUT = 702;
inline constexpr CUresult CUDA_ERROR_ASSERT = 710;
inline constexpr CUresult CUDA_ERROR_HARDWARE_STACK_ERROR = 714;
inline constexpr CUresult CUDA_ERROR_ILLEGAL_INSTRUCTION = 715;
inline constexpr CUresult CUDA_ERROR_MISALIGNED_ADDRESS = 716;
inline constexpr CUresult CUDA_ERROR_INVALID_ADDRESS_SPACE = 717;
inline constexpr CUresult CUDA_ERROR_INVALID_PC = 718;
inline constexpr CUresult CUDA_ERROR_LAUNCH_FAILED = 719;
inline constexpr CUresult CUDA_ERROR_TENSOR_MEMORY_LEAK = 721;
inline constexpr CUresult CUDA_ERROR_SYSTEM_DRIVER_MISMATCH = 803;
inline constexpr CUresult CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE = 804;
inline constexpr CUresult CUDA_ERROR_EXTERNAL_DEVICE = 911;

inline constexpr CUdevice_attribute
    CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1;
inline constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_CLOCK_RATE = 13;
inline constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT =
    16;
inline constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE = 36;
inline constexpr CUdevice_attribute
    CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
inline constexpr CUdevice_attribute
    CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;
/// The most shared memory one block may opt in to (227 KiB on sm_90).
inline constexpr CUdevice_attribute
    CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97;

using CUfunction_attribute = int;
inline constexpr CUfunction_attribute CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK =
    0;
inline constexpr CUfunction_attribute CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1;
inline constexpr CUfunction_attribute CU_FUNC_ATTRIBUTE_NUM_REGS = 4;
inline constexpr CUfunction_attribute
    CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8;
/// Shared memory a kernel may use without opting in (every GPU since sm_20).
inline constexpr unsigned kDefaultSharedMemoryLimit = 48 * 1024;
inline constexpr unsigned CU_STREAM_NON_BLOCKING = 1;
inline constexpr CUstreamCaptureMode CU_STREAM_CAPTURE_MODE_THREAD_LOCAL = 1;
inline constexpr CUjit_option CU_JIT_ERROR_LOG_BUFFER = 5;
inline constexpr CUjit_option CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6;

/// The oldest driver Kiln supports (cuDriverGetVersion's 12000 = CUDA
/// 12.0, driver r525): every entry point below is in it.
inline constexpr int kOldestSupportedDriver = 12000;

/// X(name, parameter list) for every driver entry point the runtime
/// requires. Names are the exported symbols (cuda.h maps cuMemAlloc to
/// cuMemAlloc_v2 and so on). All exist since CUDA 12.0 at the latest.
#define KILN_CUDA_DRIVER_FUNCTIONS(X)                                          \
  X(cuInit, (unsigned flags))                                                  \
  X(cuDriverGetVersion, (int *version))                                        \
  X(cuDeviceGetCount, (int *count))                                            \
  X(cuDeviceGet, (CUdevice * device, int ordinal))                             \
  X(cuDeviceGetAttribute,                                                      \
    (int *value, CUdevice_attribute attribute, CUdevice device))               \
  X(cuDevicePrimaryCtxRetain, (CUcontext * context, CUdevice device))          \
  X(cuDevicePrimaryCtxRelease_v2, (CUdevice device))                           \
  X(cuCtxSetCurrent, (CUcontext context))                                      \
  X(cuCtxSynchronize, ())                                                      \
  X(cuModuleLoadDataEx,                                                        \
    (CUmodule * module, const void *image, unsigned numOptions,                \
     CUjit_option *options, void **optionValues))                              \
  X(cuModuleGetFunction,                                                       \
    (CUfunction * function, CUmodule module, const char *name))                \
  X(cuModuleUnload, (CUmodule module))                                         \
  X(cuMemAlloc_v2, (CUdeviceptr * pointer, size_t bytes))                      \
  X(cuMemFree_v2, (CUdeviceptr pointer))                                       \
  X(cuMemcpyHtoDAsync_v2, (CUdeviceptr destination, const void *source,        \
                           size_t bytes, CUstream stream))                     \
  X(cuMemcpyDtoHAsync_v2,                                                      \
    (void *destination, CUdeviceptr source, size_t bytes, CUstream stream))    \
  X(cuMemsetD8Async, (CUdeviceptr destination, unsigned char value,            \
                      size_t count, CUstream stream))                          \
  X(cuLaunchKernel,                                                            \
    (CUfunction function, unsigned gridX, unsigned gridY, unsigned gridZ,      \
     unsigned blockX, unsigned blockY, unsigned blockZ, unsigned sharedBytes,  \
     CUstream stream, void **parameters, void **extra))                        \
  X(cuStreamCreate, (CUstream * stream, unsigned flags))                       \
  X(cuStreamSynchronize, (CUstream stream))                                    \
  X(cuStreamQuery, (CUstream stream))                                          \
  X(cuStreamDestroy_v2, (CUstream stream))                                     \
  X(cuStreamBeginCapture_v2, (CUstream stream, CUstreamCaptureMode mode))      \
  X(cuStreamEndCapture, (CUstream stream, CUgraph * graph))                    \
  X(cuGraphInstantiateWithFlags,                                               \
    (CUgraphExec * exec, CUgraph graph, unsigned long long flags))             \
  X(cuGraphLaunch, (CUgraphExec exec, CUstream stream))                        \
  X(cuGraphExecDestroy, (CUgraphExec exec))                                    \
  X(cuGraphDestroy, (CUgraph graph))                                           \
  X(cuEventCreate, (CUevent * event, unsigned flags))                          \
  X(cuEventRecord, (CUevent event, CUstream stream))                           \
  X(cuEventSynchronize, (CUevent event))                                       \
  X(cuEventElapsedTime, (float *milliseconds, CUevent start, CUevent end))     \
  X(cuEventDestroy_v2, (CUevent event))                                        \
  X(cuMemcpyDtoDAsync_v2, (CUdeviceptr destination, CUdeviceptr source,        \
                           size_t bytes, CUstream stream))                     \
  X(cuGetErrorName, (CUresult error, const char **name))                       \
  X(cuGetErrorString, (CUresult error, const char **text))                     \
  X(cuDeviceGetName, (char *name, int length, CUdevice device))                \
  X(cuDeviceTotalMem_v2, (size_t * bytes, CUdevice device))                    \
  X(cuMemGetInfo_v2, (size_t * free, size_t * total))                          \
  X(cuFuncGetAttribute,                                                        \
    (int *value, CUfunction_attribute attribute, CUfunction function))         \
  X(cuFuncSetAttribute,                                                        \
    (CUfunction function, CUfunction_attribute attribute, int value))

/// Entry points newer than the oldest supported driver: null when the
/// driver lacks them, and CudaDriver uses the older one it names instead.
/// X(name, parameter list, the entry point used without it, since).
#define KILN_CUDA_OPTIONAL_FUNCTIONS(X)                                        \
  X(cuEventElapsedTime_v2,                                                     \
    (float *milliseconds, CUevent start, CUevent end), cuEventElapsedTime,     \
    "CUDA 12.8")

} // namespace kiln::rt::cuda

#endif // KILN_RUNTIME_SRC_CUDA_CUDAAPI_H
