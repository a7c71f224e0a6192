//===- CublasLt.cpp - cuBLASLt SGEMM, loaded at run time ------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "CublasLt.h"

#include <dlfcn.h>
#include <string>

namespace kiln::gpucheck {

namespace {
// cuBLASLt's and the CUDA runtime's C ABI: the few calls used here (no
// CUDA headers: the runner builds where CUDA is absent).
using Opaque = void *;
constexpr int kComputeF32 = 68;  // CUBLAS_COMPUTE_32F
constexpr int kComputeTf32 = 77; // CUBLAS_COMPUTE_32F_FAST_TF32
constexpr int kRealF32 = 0;      // CUDA_R_32F
constexpr int kHostToDevice = 1, kDeviceToHost = 2; // cudaMemcpyKind
constexpr int kCaptureThreadLocal = 1; // cudaStreamCaptureModeThreadLocal

struct Api {
  int (*ltCreate)(Opaque *);
  int (*ltDestroy)(Opaque);
  int (*descCreate)(Opaque *, int, int);
  int (*descDestroy)(Opaque);
  int (*layoutCreate)(Opaque *, int, uint64_t, uint64_t, int64_t);
  int (*layoutDestroy)(Opaque);
  int (*matmul)(Opaque, Opaque, const void *, const void *, Opaque,
                const void *, Opaque, const void *, const void *, Opaque,
                void *, Opaque, const void *, void *, size_t, Opaque);
  int (*malloc)(void **, size_t);
  int (*free)(void *);
  int (*memcpy)(void *, const void *, size_t, int);
  int (*streamCreate)(Opaque *);
  int (*streamDestroy)(Opaque);
  int (*beginCapture)(Opaque, int);
  int (*endCapture)(Opaque, Opaque *);
  int (*instantiate)(Opaque *, Opaque, unsigned long long);
  int (*graphLaunch)(Opaque, Opaque);
  int (*graphExecDestroy)(Opaque);
  int (*graphDestroy)(Opaque);
  int (*eventCreate)(Opaque *);
  int (*eventDestroy)(Opaque);
  int (*eventRecord)(Opaque, Opaque);
  int (*eventSynchronize)(Opaque);
  int (*eventElapsed)(float *, Opaque, Opaque);
  const char *(*errorString)(int);
};

template <typename F> bool bind(void *library, const char *name, F &slot) {
  slot = reinterpret_cast<F>(dlsym(library, name));
  return slot != nullptr;
}

void *openFirst(std::initializer_list<const char *> names) {
  for (const char *name : names)
    if (void *library = dlopen(name, RTLD_NOW | RTLD_LOCAL))
      return library;
  return nullptr;
}

rt::StatusOr<const Api *> loadApi() {
  static Api api;
  static rt::Status status = [] {
    void *lt =
        openFirst({"libcublasLt.so.13", "libcublasLt.so.12", "libcublasLt.so",
                   "/usr/local/cuda/lib64/libcublasLt.so"});
    void *cudart =
        openFirst({"libcudart.so.13", "libcudart.so.12", "libcudart.so",
                   "/usr/local/cuda/lib64/libcudart.so"});
    if (!lt || !cudart)
      return rt::Status(
          rt::StatusCode::kUnavailable,
          "cuBLASLt or the CUDA runtime library is not installed");
    bool ok = bind(lt, "cublasLtCreate", api.ltCreate) &&
              bind(lt, "cublasLtDestroy", api.ltDestroy) &&
              bind(lt, "cublasLtMatmulDescCreate", api.descCreate) &&
              bind(lt, "cublasLtMatmulDescDestroy", api.descDestroy) &&
              bind(lt, "cublasLtMatrixLayoutCreate", api.layoutCreate) &&
              bind(lt, "cublasLtMatrixLayoutDestroy", api.layoutDestroy) &&
              bind(lt, "cublasLtMatmul", api.matmul) &&
              bind(cudart, "cudaMalloc", api.malloc) &&
              bind(cudart, "cudaFree", api.free) &&
              bind(cudart, "cudaMemcpy", api.memcpy) &&
              bind(cudart, "cudaStreamCreate", api.streamCreate) &&
              bind(cudart, "cudaStreamDestroy", api.streamDestroy) &&
              bind(cudart, "cudaStreamBeginCapture", api.beginCapture) &&
              bind(cudart, "cudaStreamEndCapture", api.endCapture) &&
              bind(cudart, "cudaGraphInstantiate", api.instantiate) &&
              bind(cudart, "cudaGraphLaunch", api.graphLaunch) &&
              bind(cudart, "cudaGraphExecDestroy", api.graphExecDestroy) &&
              bind(cudart, "cudaGraphDestroy", api.graphDestroy) &&
              bind(cudart, "cudaEventCreate", api.eventCreate) &&
              bind(cudart, "cudaEventDestroy", api.eventDestroy) &&
              bind(cudart, "cudaEventRecord", api.eventRecord) &&
              bind(cudart, "cudaEventSynchronize", api.eventSynchronize) &&
              bind(cudart, "cudaEventElapsedTime", api.eventElapsed) &&
              bind(cudart, "cudaGetErrorString", api.errorString);
    return ok ? rt::Status::ok()
              : rt::Status(rt::StatusCode::kUnavailable,
                           "cuBLASLt or the CUDA runtime lacks an expected "
                           "entry point");
  }();
  if (!status.isOk())
    return status;
  return &api;
}

/// Everything one GEMM run holds, released on every path.
struct Session {
  const Api &api;
  Opaque lt = nullptr, desc = nullptr, a = nullptr, b = nullptr, c = nullptr;
  void *da = nullptr, *db = nullptr, *dc = nullptr, *workspace = nullptr;
  Opaque stream = nullptr, graph = nullptr, exec = nullptr;
  Opaque start = nullptr, stop = nullptr;

  explicit Session(const Api &api) : api(api) {}
  ~Session() {
    if (exec)
      api.graphExecDestroy(exec);
    if (graph)
      api.graphDestroy(graph);
    for (Opaque event : {start, stop})
      if (event)
        api.eventDestroy(event);
    if (stream)
      api.streamDestroy(stream);
    for (void *buffer : {da, db, dc, workspace})
      if (buffer)
        api.free(buffer);
    for (Opaque layout : {a, b, c})
      if (layout)
        api.layoutDestroy(layout);
    if (desc)
      api.descDestroy(desc);
    if (lt)
      api.ltDestroy(lt);
  }

  rt::Status cuda(int code, const char *call) const {
    if (code == 0)
      return rt::Status::ok();
    // cudaErrorMemoryAllocation 2; cudaErrorInsufficientDriver 35 and
    // cudaErrorNoDevice 100 mean no usable GPU.
    rt::StatusCode kind = code == 2 ? rt::StatusCode::kResourceExhausted
                          : code == 35 || code == 100
                              ? rt::StatusCode::kUnavailable
                              : rt::StatusCode::kInternal;
    return rt::Status(kind,
                      std::string(call) + " failed: " + api.errorString(code));
  }
  static rt::Status cublas(int code, const char *call) {
    if (code == 0)
      return rt::Status::ok();
    return rt::internalError(std::string(call) + " failed: cuBLAS status " +
                             std::to_string(code));
  }
};
} // namespace

rt::StatusOr<CublasLtGemm> runCublasLtSgemm(int64_t m, int64_t n, int64_t k,
                                            const std::vector<float> &a,
                                            const std::vector<float> &b,
                                            int iterations, bool tf32) {
  if (int64_t(a.size()) != m * k || int64_t(b.size()) != k * n ||
      iterations < 1)
    return rt::invalidArgument("cuBLASLt GEMM: operands do not match " +
                               std::to_string(m) + "x" + std::to_string(n) +
                               "x" + std::to_string(k));
  auto api = loadApi();
  if (!api.isOk())
    return api.status();
  Session s(**api);
  const Api &f = **api;
  // Row-major C = A * B is column-major C^T = B^T * A^T: hand cuBLASLt the
  // row-major B as the column-major [n, k] left operand, A as [k, m].
  KILN_RETURN_IF_ERROR(s.cublas(f.ltCreate(&s.lt), "cublasLtCreate"));
  KILN_RETURN_IF_ERROR(s.cublas(
      f.descCreate(&s.desc, tf32 ? kComputeTf32 : kComputeF32, kRealF32),
      "cublasLtMatmulDescCreate"));
  KILN_RETURN_IF_ERROR(s.cublas(f.layoutCreate(&s.a, kRealF32, n, k, n),
                                "cublasLtMatrixLayoutCreate"));
  KILN_RETURN_IF_ERROR(s.cublas(f.layoutCreate(&s.b, kRealF32, k, m, k),
                                "cublasLtMatrixLayoutCreate"));
  KILN_RETURN_IF_ERROR(s.cublas(f.layoutCreate(&s.c, kRealF32, n, m, n),
                                "cublasLtMatrixLayoutCreate"));
  size_t workspaceBytes = 32 << 20;
  KILN_RETURN_IF_ERROR(s.cuda(f.malloc(&s.da, a.size() * 4), "cudaMalloc"));
  KILN_RETURN_IF_ERROR(s.cuda(f.malloc(&s.db, b.size() * 4), "cudaMalloc"));
  KILN_RETURN_IF_ERROR(s.cuda(f.malloc(&s.dc, m * n * 4), "cudaMalloc"));
  KILN_RETURN_IF_ERROR(
      s.cuda(f.malloc(&s.workspace, workspaceBytes), "cudaMalloc"));
  KILN_RETURN_IF_ERROR(s.cuda(
      f.memcpy(s.da, a.data(), a.size() * 4, kHostToDevice), "cudaMemcpy"));
  KILN_RETURN_IF_ERROR(s.cuda(
      f.memcpy(s.db, b.data(), b.size() * 4, kHostToDevice), "cudaMemcpy"));
  KILN_RETURN_IF_ERROR(s.cuda(f.streamCreate(&s.stream), "cudaStreamCreate"));
  KILN_RETURN_IF_ERROR(s.cuda(f.eventCreate(&s.start), "cudaEventCreate"));
  KILN_RETURN_IF_ERROR(s.cuda(f.eventCreate(&s.stop), "cudaEventCreate"));

  float alpha = 1, beta = 0;
  auto once = [&] {
    return s.cublas(f.matmul(s.lt, s.desc, &alpha, s.db, s.a, s.da, s.b, &beta,
                             s.dc, s.c, s.dc, s.c, nullptr, s.workspace,
                             workspaceBytes, s.stream),
                    "cublasLtMatmul");
  };
  // The first call picks the algorithm and gives the result to compare.
  KILN_RETURN_IF_ERROR(once());
  CublasLtGemm result;
  result.c.resize(size_t(m * n));
  KILN_RETURN_IF_ERROR(s.cuda(
      f.memcpy(result.c.data(), s.dc, result.c.size() * 4, kDeviceToHost),
      "cudaMemcpy"));

  KILN_RETURN_IF_ERROR(s.cuda(f.beginCapture(s.stream, kCaptureThreadLocal),
                              "cudaStreamBeginCapture"));
  rt::Status captured = rt::Status::ok();
  for (int i = 0; i < iterations && captured.isOk(); ++i)
    captured = once();
  // End the capture whatever happened, or the stream stays unusable.
  rt::Status ended =
      s.cuda(f.endCapture(s.stream, &s.graph), "cudaStreamEndCapture");
  KILN_RETURN_IF_ERROR(captured);
  KILN_RETURN_IF_ERROR(ended);
  KILN_RETURN_IF_ERROR(
      s.cuda(f.instantiate(&s.exec, s.graph, 0), "cudaGraphInstantiate"));
  // One untimed replay uploads the graph.
  KILN_RETURN_IF_ERROR(
      s.cuda(f.graphLaunch(s.exec, s.stream), "cudaGraphLaunch"));
  KILN_RETURN_IF_ERROR(
      s.cuda(f.eventRecord(s.start, s.stream), "cudaEventRecord"));
  KILN_RETURN_IF_ERROR(
      s.cuda(f.graphLaunch(s.exec, s.stream), "cudaGraphLaunch"));
  KILN_RETURN_IF_ERROR(
      s.cuda(f.eventRecord(s.stop, s.stream), "cudaEventRecord"));
  KILN_RETURN_IF_ERROR(
      s.cuda(f.eventSynchronize(s.stop), "cudaEventSynchronize"));
  float ms = 0;
  KILN_RETURN_IF_ERROR(
      s.cuda(f.eventElapsed(&ms, s.start, s.stop), "cudaEventElapsedTime"));
  result.ms = double(ms) / iterations;
  return result;
}

} // namespace kiln::gpucheck
