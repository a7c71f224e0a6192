//===- CudaDriver.cpp - The CUDA driver, loaded with dlopen ---------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "CudaDriver.h"

#include <cstdlib>
#include <dlfcn.h>
#include <map>
#include <memory>
#include <mutex>

namespace kiln::rt::cuda {

namespace {
constexpr const char *kDefaultDriver = "libcuda.so.1";

StatusOr<std::unique_ptr<CudaDriver>> open(const std::string &path) {
  // RTLD_LOCAL: the driver's symbols stay out of the global namespace.
  void *library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char *why = dlerror();
    return Status(StatusCode::kUnavailable,
                  noDriverMessage(path, why ? why : "dlopen failed"));
  }
  auto driver = std::make_unique<CudaDriver>();
  driver->path = path;
  // The version first: it explains a missing entry point better than the
  // entry point's name does. cuDriverGetVersion needs no cuInit.
  auto getVersion = reinterpret_cast<decltype(driver->cuDriverGetVersion)>(
      dlsym(library, "cuDriverGetVersion"));
  if (getVersion)
    getVersion(&driver->version);
  std::string missing;
#define KILN_CUDA_RESOLVE(name, parameters)                                    \
  driver->name =                                                               \
      reinterpret_cast<decltype(driver->name)>(dlsym(library, #name));         \
  if (!driver->name)                                                           \
    missing += std::string(missing.empty() ? "" : ", ") + #name;
  KILN_CUDA_DRIVER_FUNCTIONS(KILN_CUDA_RESOLVE)
#undef KILN_CUDA_RESOLVE
#define KILN_CUDA_RESOLVE_OPTIONAL(name, parameters, fallback, since)          \
  driver->name =                                                               \
      reinterpret_cast<decltype(driver->name)>(dlsym(library, #name));         \
  if (!driver->name)                                                           \
    driver->fallbacks.push_back(std::string(#name " (") + since +              \
                                "): using " #fallback);
  KILN_CUDA_OPTIONAL_FUNCTIONS(KILN_CUDA_RESOLVE_OPTIONAL)
#undef KILN_CUDA_RESOLVE_OPTIONAL
  std::string found =
      driver->version ? "CUDA " + cudaVersionName(driver->version)
                      : std::string("a version it does not report");
  std::string needed =
      "Kiln needs a driver for CUDA " + cudaVersionName(kOldestSupportedDriver) +
      " or newer (r525+); update the NVIDIA driver";
  if (driver->version && driver->version < kOldestSupportedDriver) {
    dlclose(library);
    return unimplemented("the CUDA driver " + path + " supports " + found +
                         "; " + needed);
  }
  if (!missing.empty()) {
    dlclose(library);
    return unimplemented("the CUDA driver " + path + " (" + found +
                         ") lacks " + missing + "; " + needed);
  }
  // The library stays loaded for the life of the process.
  if (CUresult result = driver->cuInit(0); result != CUDA_SUCCESS) {
    Status status = driver->error(result, "cuInit");
    if (status.code() != StatusCode::kUnavailable)
      return status.withContext("the CUDA driver " + path + " (" + found + ")");
    return Status(StatusCode::kUnavailable,
                  "no usable CUDA device: " + status.message() +
                      "; run this artifact on a machine with an NVIDIA GPU "
                      "or compile with --target cpu");
  }
  return driver;
}
} // namespace

std::string cudaVersionName(int version) {
  return std::to_string(version / 1000) + "." +
         std::to_string(version % 1000 / 10);
}

CUresult CudaDriver::eventElapsedTime(float *milliseconds, CUevent start,
                                      CUevent end) const {
  return cuEventElapsedTime_v2 ? cuEventElapsedTime_v2(milliseconds, start, end)
                               : cuEventElapsedTime(milliseconds, start, end);
}

std::string noDriverMessage(const std::string &path, const std::string &why) {
  return "no CUDA driver: cannot load " + path + " (" + why +
         "; this machine has no NVIDIA GPU driver); run this artifact on a "
         "machine with an NVIDIA GPU or compile with --target cpu";
}

StatusOr<const CudaDriver *> CudaDriver::get() {
  const char *override = std::getenv("KILN_CUDA_DRIVER");
  std::string path = override && *override ? override : kDefaultDriver;
  // One table per path; failures are not cached (a later call may find a
  // driver installed meanwhile, and tests switch paths).
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<CudaDriver>> drivers;
  std::lock_guard<std::mutex> lock(mutex);
  auto found = drivers.find(path);
  if (found != drivers.end())
    return static_cast<const CudaDriver *>(found->second.get());
  StatusOr<std::unique_ptr<CudaDriver>> opened = open(path);
  if (!opened.isOk())
    return opened.status();
  const CudaDriver *driver = opened->get();
  drivers.emplace(path, std::move(*opened));
  return driver;
}

std::string CudaDriver::describe(CUresult result) const {
  const char *name = nullptr, *text = nullptr;
  if (cuGetErrorName(result, &name) != CUDA_SUCCESS || !name)
    return "CUDA error " + std::to_string(result);
  std::string out = name;
  if (cuGetErrorString(result, &text) == CUDA_SUCCESS && text)
    out += std::string(" (") + text + ")";
  return out;
}

Status CudaDriver::error(CUresult result, const std::string &call) const {
  std::string message = call + " failed: " + describe(result);
  std::string driver = "CUDA " + cudaVersionName(version);
  switch (result) {
  case CUDA_ERROR_NO_DEVICE:
  case CUDA_ERROR_INVALID_DEVICE:
    return Status(StatusCode::kUnavailable, message);
  case CUDA_ERROR_OUT_OF_MEMORY:
    return Status(StatusCode::kResourceExhausted,
                  message + " (out of device memory)");
  case CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES:
    return Status(StatusCode::kResourceExhausted,
                  message + " (too many registers or threads for one block)");
  case CUDA_ERROR_UNSUPPORTED_PTX_VERSION:
    return unimplemented(message + ": the PTX is newer than this driver (" +
                         driver +
                         ") can JIT-compile; update the driver, or compile a "
                         "CUBIN for this GPU (--target cuda:sm_XX)");
  case CUDA_ERROR_NOT_INITIALIZED:
  case CUDA_ERROR_INSUFFICIENT_DRIVER:
  case CUDA_ERROR_SYSTEM_DRIVER_MISMATCH:
  case CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE:
    return unimplemented(message + "; this driver supports " + driver +
                         ": install a matching NVIDIA driver, CUDA " +
                         cudaVersionName(kOldestSupportedDriver) + " or newer");
  case CUDA_ERROR_INVALID_PTX:
  case CUDA_ERROR_INVALID_IMAGE:
  case CUDA_ERROR_NOT_FOUND:
    return dataLoss(message);
  case CUDA_ERROR_NO_BINARY_FOR_GPU:
    return unimplemented(message);
  default:
    return internalError(message);
  }
}

bool isStickyError(CUresult result) {
  switch (result) {
  case CUDA_ERROR_ECC_UNCORRECTABLE:
  case CUDA_ERROR_ILLEGAL_ADDRESS:
  case CUDA_ERROR_LAUNCH_TIMEOUT:
  case CUDA_ERROR_ASSERT:
  case CUDA_ERROR_HARDWARE_STACK_ERROR:
  case CUDA_ERROR_ILLEGAL_INSTRUCTION:
  case CUDA_ERROR_MISALIGNED_ADDRESS:
  case CUDA_ERROR_INVALID_ADDRESS_SPACE:
  case CUDA_ERROR_INVALID_PC:
  case CUDA_ERROR_LAUNCH_FAILED:
  case CUDA_ERROR_TENSOR_MEMORY_LEAK:
  case CUDA_ERROR_EXTERNAL_DEVICE:
    return true;
  default:
    return false;
  }
}

} // namespace kiln::rt::cuda
