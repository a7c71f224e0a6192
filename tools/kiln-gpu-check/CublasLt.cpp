//===- CublasLt.cpp - cuBLASLt SGEMM timing, loaded at run time -----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "CublasLt.h"

#include <chrono>
#include <dlfcn.h>
#include <string>

namespace kiln::gpucheck {

namespace {
// cuBLASLt's and the CUDA runtime's C ABI: the few calls used here.
using Handle = void *;
using Desc = void *;
using Layout = void *;
using Status = int;
constexpr int kComputeF32 = 68;  // CUBLAS_COMPUTE_32F
constexpr int kComputeTf32 = 77; // CUBLAS_COMPUTE_32F_FAST_TF32
constexpr int kRealF32 = 0;      // CUDA_R_32F

struct Api {
  Status (*create)(Handle *);
  Status (*descCreate)(Desc *, int, int);
  Status (*layoutCreate)(Layout *, int, uint64_t, uint64_t, int64_t);
  Status (*matmul)(Handle, Desc, const void *, const void *, Layout,
                   const void *, Layout, const void *, const void *, Layout,
                   void *, Layout, const void *, void *, size_t, void *);
  int (*malloc)(void **, size_t);
  int (*free)(void *);
  int (*sync)();
};

template <typename F> bool bind(void *library, const char *name, F &slot) {
  slot = reinterpret_cast<F>(dlsym(library, name));
  return slot != nullptr;
}
} // namespace

rt::StatusOr<double> timeCublasLtSgemm(int64_t m, int64_t n, int64_t k,
                                       int iterations, bool tf32) {
  void *lt = nullptr, *cudart = nullptr;
  for (const char *name :
       {"libcublasLt.so.13", "libcublasLt.so.12", "libcublasLt.so",
        "/usr/local/cuda/lib64/libcublasLt.so"})
    if ((lt = dlopen(name, RTLD_NOW | RTLD_LOCAL)))
      break;
  for (const char *name : {"libcudart.so.13", "libcudart.so.12", "libcudart.so",
                           "/usr/local/cuda/lib64/libcudart.so"})
    if ((cudart = dlopen(name, RTLD_NOW | RTLD_LOCAL)))
      break;
  if (!lt || !cudart)
    return rt::Status(rt::StatusCode::kUnavailable,
                      "cuBLASLt or the CUDA runtime library is not installed");
  Api api;
  if (!bind(lt, "cublasLtCreate", api.create) ||
      !bind(lt, "cublasLtMatmulDescCreate", api.descCreate) ||
      !bind(lt, "cublasLtMatrixLayoutCreate", api.layoutCreate) ||
      !bind(lt, "cublasLtMatmul", api.matmul) ||
      !bind(cudart, "cudaMalloc", api.malloc) ||
      !bind(cudart, "cudaFree", api.free) ||
      !bind(cudart, "cudaDeviceSynchronize", api.sync))
    return rt::Status(rt::StatusCode::kUnavailable,
                      "cuBLASLt lacks the expected API");
  Handle handle = nullptr;
  Desc desc = nullptr;
  Layout a = nullptr, b = nullptr, c = nullptr;
  if (api.create(&handle) ||
      api.descCreate(&desc, tf32 ? kComputeTf32 : kComputeF32, kRealF32) ||
      api.layoutCreate(&a, kRealF32, m, k, m) ||
      api.layoutCreate(&b, kRealF32, k, n, k) ||
      api.layoutCreate(&c, kRealF32, m, n, m))
    return rt::internalError("cuBLASLt set-up failed");
  void *da = nullptr, *db = nullptr, *dc = nullptr, *workspace = nullptr;
  size_t workspaceBytes = 32 << 20;
  if (api.malloc(&da, m * k * 4) || api.malloc(&db, k * n * 4) ||
      api.malloc(&dc, m * n * 4) || api.malloc(&workspace, workspaceBytes))
    return rt::Status(rt::StatusCode::kUnavailable, "cudaMalloc failed");
  float alpha = 1, beta = 0;
  auto once = [&] {
    return api.matmul(handle, desc, &alpha, da, a, db, b, &beta, dc, c, dc, c,
                      nullptr, workspace, workspaceBytes, nullptr);
  };
  if (Status status = once())
    return rt::internalError("cublasLtMatmul failed: " +
                             std::to_string(status));
  api.sync();
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < iterations; ++i)
    once();
  api.sync();
  double ms = std::chrono::duration<double, std::milli>(
                  std::chrono::steady_clock::now() - start)
                  .count();
  api.free(da);
  api.free(db);
  api.free(dc);
  api.free(workspace);
  return ms / iterations;
}

} // namespace kiln::gpucheck
