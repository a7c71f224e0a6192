//===- CudaDevice.h - One GPU's context and its sticky error ----*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Executables on the same GPU share its primary context, so they share its
// fate too: after a sticky error (an illegal address in a kernel, say) the
// context is unusable until it is released, and every later call on the
// device returns that first error instead of an unrelated one.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_SRC_CUDA_CUDADEVICE_H
#define KILN_RUNTIME_SRC_CUDA_CUDADEVICE_H

#include "CudaDriver.h"

#include "kiln/runtime/CudaExecutable.h"

#include <memory>
#include <mutex>

namespace kiln::rt::cuda {

class CudaDevice {
public:
  /// The device `ordinal`, shared by every executable that holds it; its
  /// primary context is released with the last holder.
  static StatusOr<std::shared_ptr<CudaDevice>> open(int ordinal);

  ~CudaDevice();
  CudaDevice(const CudaDevice &) = delete;
  CudaDevice &operator=(const CudaDevice &) = delete;

  const CudaDriver &driver() const { return driver_; }
  int ordinal() const { return ordinal_; }
  /// Compute capability as major * 10 + minor (90 for an H100/H200).
  int sm() const { return info_.sm; }
  /// Name, limits, clocks and the driver, read once at open.
  const CudaDeviceInfo &info() const { return info_; }

  /// OK, or the device's first sticky error: check before every use.
  Status poisoned() const;

  /// Turns a driver result into a Status; a sticky error poisons the
  /// device, and once poisoned every call reports that first error.
  Status check(CUresult result, const std::string &call);

  /// Makes the primary context current on this thread.
  Status makeCurrent();

private:
  CudaDevice(const CudaDriver &driver, int ordinal)
      : driver_(driver), ordinal_(ordinal) {}

  const CudaDriver &driver_;
  int ordinal_;
  CudaDeviceInfo info_;
  CUcontext context_ = nullptr;
  mutable std::mutex mutex_;
  Status poison_;
};

} // namespace kiln::rt::cuda

#endif // KILN_RUNTIME_SRC_CUDA_CUDADEVICE_H
