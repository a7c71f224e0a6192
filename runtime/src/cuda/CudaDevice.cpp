//===- CudaDevice.cpp - One GPU's context and its sticky error ------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "CudaDevice.h"

#include <map>

namespace kiln::rt::cuda {

StatusOr<std::shared_ptr<CudaDevice>> CudaDevice::open(int ordinal) {
  StatusOr<const CudaDriver *> driver = CudaDriver::get();
  if (!driver.isOk())
    return driver.status();
  const CudaDriver &api = **driver;

  static std::mutex mutex;
  static std::map<std::pair<const CudaDriver *, int>, std::weak_ptr<CudaDevice>>
      open;
  std::lock_guard<std::mutex> lock(mutex);
  if (std::shared_ptr<CudaDevice> device = open[{&api, ordinal}].lock())
    return device;

  int count = 0;
  if (CUresult result = api.cuDeviceGetCount(&count); result != CUDA_SUCCESS)
    return api.error(result, "cuDeviceGetCount");
  if (ordinal < 0 || ordinal >= count)
    return Status(StatusCode::kUnavailable,
                  "no CUDA device " + std::to_string(ordinal) + " (" +
                      std::to_string(count) + " present)");
  std::shared_ptr<CudaDevice> device(new CudaDevice(api, ordinal));
  CUdevice handle = 0;
  if (CUresult result = api.cuDeviceGet(&handle, ordinal))
    return api.error(result, "cuDeviceGet");
  CudaDeviceInfo &info = device->info_;
  auto attribute = [&](CUdevice_attribute which, int &value) -> Status {
    if (CUresult result = api.cuDeviceGetAttribute(&value, which, handle))
      return api.error(result, "cuDeviceGetAttribute");
    return Status::ok();
  };
  int major = 0, minor = 0;
  KILN_RETURN_IF_ERROR(
      attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, major));
  KILN_RETURN_IF_ERROR(
      attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, minor));
  info.sm = major * 10 + minor;
  KILN_RETURN_IF_ERROR(attribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
                                 info.multiprocessors));
  KILN_RETURN_IF_ERROR(attribute(CU_DEVICE_ATTRIBUTE_CLOCK_RATE, info.clockKHz));
  KILN_RETURN_IF_ERROR(
      attribute(CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, info.memoryClockKHz));
  KILN_RETURN_IF_ERROR(attribute(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                                 info.maxThreadsPerBlock));
  KILN_RETURN_IF_ERROR(
      attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
                info.maxSharedBytesPerBlock));
  char name[256] = {};
  if (CUresult result = api.cuDeviceGetName(name, sizeof(name) - 1, handle))
    return api.error(result, "cuDeviceGetName");
  info.name = name;
  size_t total = 0;
  if (CUresult result = api.cuDeviceTotalMem_v2(&total, handle))
    return api.error(result, "cuDeviceTotalMem");
  info.totalMemoryBytes = total;
  info.ordinal = ordinal;
  info.driverVersion = api.version;
  info.driverFallbacks = api.fallbacks;
  // The primary context: the one every CUDA library in the process shares.
  if (CUresult result = api.cuDevicePrimaryCtxRetain(&device->context_, handle))
    return api.error(result, "cuDevicePrimaryCtxRetain");
  open[{&api, ordinal}] = device;
  return device;
}

CudaDevice::~CudaDevice() {
  if (context_)
    driver_.cuDevicePrimaryCtxRelease_v2(ordinal_);
}

Status CudaDevice::poisoned() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return poison_;
}

Status CudaDevice::check(CUresult result, const std::string &call) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!poison_.isOk())
    return poison_;
  if (result == CUDA_SUCCESS)
    return Status::ok();
  Status status = driver_.error(result, call);
  if (!isStickyError(result))
    return status;
  poison_ = Status(status.code(), "CUDA device " + std::to_string(ordinal_) +
                                      " is unusable after a sticky error: " +
                                      status.message());
  return poison_;
}

Status CudaDevice::makeCurrent() {
  // Bound even when poisoned, so that cleanup frees into the right context.
  return check(driver_.cuCtxSetCurrent(context_), "cuCtxSetCurrent");
}

} // namespace kiln::rt::cuda
