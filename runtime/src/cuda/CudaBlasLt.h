//===- CudaBlasLt.h - GEMM calls through cuBLASLt -----------------*- C++
//-*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// cuBLASLt, loaded with dlopen on first use like the driver (never linked:
// the runtime must start where it is absent). KILN_CUBLASLT=PATH overrides
// the library (the tests point it at the fake driver, which exports a fake
// cuBLASLt). A BlasLtGemm is one GemmCall planned on an executable's
// buffers: its layouts are built once at load, and run() queues the GEMM on
// the stream (capturable into a CUDA graph).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_SRC_CUDA_CUDABLASLT_H
#define KILN_RUNTIME_SRC_CUDA_CUDABLASLT_H

#include "CudaApi.h"

#include "kiln/runtime/GemmCall.h"
#include "kiln/runtime/Status.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kiln::rt::cuda {

/// The cuBLASLt entry points the runtime uses.
struct BlasLtApi {
  using Opaque = void *;
  int (*create)(Opaque *);
  int (*destroy)(Opaque);
  int (*descCreate)(Opaque *, int, int);
  int (*descDestroy)(Opaque);
  int (*descSetAttribute)(Opaque, int, const void *, size_t);
  int (*layoutCreate)(Opaque *, int, uint64_t, uint64_t, int64_t);
  int (*layoutDestroy)(Opaque);
  int (*layoutSetAttribute)(Opaque, int, const void *, size_t);
  int (*matmul)(Opaque, Opaque, const void *, const void *, Opaque,
                const void *, Opaque, const void *, const void *, Opaque,
                void *, Opaque, const void *, void *, size_t, CUstream);
  std::string path;

  /// The process-wide library; kUnavailable when it cannot be loaded.
  static StatusOr<const BlasLtApi *> get();
};

class BlasLtGemm {
public:
  /// Plans `call` with its operands at `pointers` (the launch's argument
  /// pointers); `handle` and the workspace belong to the caller.
  static StatusOr<std::unique_ptr<BlasLtGemm>>
  plan(const BlasLtApi &api, void *handle, const GemmCall &call,
       const std::vector<CUdeviceptr> &pointers, CUdeviceptr workspace,
       size_t workspaceBytes);
  ~BlasLtGemm();
  BlasLtGemm(const BlasLtGemm &) = delete;
  BlasLtGemm &operator=(const BlasLtGemm &) = delete;

  /// Queues the GEMM on `stream`.
  Status run(CUstream stream) const;
  const GemmCall &call() const { return call_; }

private:
  BlasLtGemm(const BlasLtApi &api, const GemmCall &call)
      : api_(api), call_(call) {}

  const BlasLtApi &api_;
  GemmCall call_;
  void *handle_ = nullptr, *desc_ = nullptr;
  void *first_ = nullptr, *second_ = nullptr, *out_ = nullptr; ///< Layouts.
  CUdeviceptr firstPtr_ = 0, secondPtr_ = 0, outPtr_ = 0, bias_ = 0;
  CUdeviceptr workspace_ = 0;
  size_t workspaceBytes_ = 0;
  float alpha_ = 1, beta_ = 0;
};

} // namespace kiln::rt::cuda

#endif // KILN_RUNTIME_SRC_CUDA_CUDABLASLT_H
