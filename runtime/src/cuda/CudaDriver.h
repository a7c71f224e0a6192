//===- CudaDriver.h - The CUDA driver, loaded with dlopen -------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Kiln never links libcuda: a binary linked with -lcuda does not even start
// on a machine without an NVIDIA driver. The driver is opened on first use
// (KILN_CUDA_DRIVER=PATH overrides libcuda.so.1, for tests), its entry
// points resolved into a table, and cuInit called once. Drivers from CUDA
// 12.0 on are supported: entry points added later are optional, and the
// table says which older one stands in for a missing one.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_SRC_CUDA_CUDADRIVER_H
#define KILN_RUNTIME_SRC_CUDA_CUDADRIVER_H

#include "CudaApi.h"

#include "kiln/runtime/Status.h"

#include <string>
#include <vector>

namespace kiln::rt::cuda {

/// The driver's entry points. Loaded once per path and never unloaded
/// (drivers do not support it); immutable afterwards, so thread-safe.
struct CudaDriver {
  /// The process's driver: kUnavailable with an explanation when there is
  /// no driver or cuInit finds no device; kUnimplemented naming both
  /// versions when the driver is older than CUDA 12.0 or lacks a required
  /// entry point.
  static StatusOr<const CudaDriver *> get();

  /// "CUDA_ERROR_INVALID_PTX (a PTX JIT compilation failed)".
  std::string describe(CUresult result) const;

  /// "`call` failed: NAME (text)" with a Status code by error class:
  /// kUnavailable for a missing device, kResourceExhausted for memory,
  /// kUnimplemented for a driver too old for the image or the runtime
  /// (its version named), kDataLoss for an image the driver rejects,
  /// kInternal otherwise.
  Status error(CUresult result, const std::string &call) const;

  /// cuEventElapsedTime_v2, or the older entry point on drivers before
  /// CUDA 12.8.
  CUresult eventElapsedTime(float *milliseconds, CUevent start,
                            CUevent end) const;

  std::string path; ///< What was dlopen'ed.
  int version = 0;  ///< cuDriverGetVersion, e.g. 13000.
  /// One line per optional entry point the driver lacks, saying what is
  /// used instead ("cuEventElapsedTime_v2 (CUDA 12.8): using
  /// cuEventElapsedTime").
  std::vector<std::string> fallbacks;

#define KILN_CUDA_POINTER(name, parameters)                                    \
  CUresult(*name) parameters = nullptr;
  KILN_CUDA_DRIVER_FUNCTIONS(KILN_CUDA_POINTER)
#undef KILN_CUDA_POINTER
#define KILN_CUDA_OPTIONAL_POINTER(name, parameters, fallback, since)          \
  CUresult(*name) parameters = nullptr;
  KILN_CUDA_OPTIONAL_FUNCTIONS(KILN_CUDA_OPTIONAL_POINTER)
#undef KILN_CUDA_OPTIONAL_POINTER
};

/// "13.0" for cuDriverGetVersion's 13000.
std::string cudaVersionName(int version);

/// Errors after which the context is unusable (CUDA reports them to every
/// later call until the process exits).
bool isStickyError(CUresult result);

/// The message of a missing driver (also for docs and tests).
std::string noDriverMessage(const std::string &path, const std::string &why);

} // namespace kiln::rt::cuda

#endif // KILN_RUNTIME_SRC_CUDA_CUDADRIVER_H
