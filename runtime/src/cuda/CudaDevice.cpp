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
  int major = 0, minor = 0;
  if (CUresult result = api.cuDeviceGet(&handle, ordinal))
    return api.error(result, "cuDeviceGet");
  if (CUresult result = api.cuDeviceGetAttribute(
          &major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, handle))
    return api.error(result, "cuDeviceGetAttribute");
  if (CUresult result = api.cuDeviceGetAttribute(
          &minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, handle))
    return api.error(result, "cuDeviceGetAttribute");
  device->sm_ = major * 10 + minor;
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
