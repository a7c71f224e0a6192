//===- CudaBlasLt.cpp - GEMM calls through cuBLASLt -----------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "CudaBlasLt.h"

#include <cstdlib>
#include <dlfcn.h>
#include <map>
#include <mutex>

namespace kiln::rt::cuda {

namespace {
// Values from cublasLt.h, cublas_api.h and library_types.h.
constexpr int kComputeF32 = 68; // CUBLAS_COMPUTE_32F
constexpr int kR32F = 0, kR16F = 2, kR16BF = 14;
constexpr int kTransA = 3, kTransB = 4, kEpilogue = 7, kBiasPointer = 8;
constexpr int kBatchCount = 5, kBatchStride = 6;
constexpr uint32_t kEpilogueDefault = 1, kRelu = 2, kBias = 4, kGelu = 32;

int cudaType(DType type) {
  return type == DType::kF16 ? kR16F : type == DType::kBF16 ? kR16BF : kR32F;
}

template <typename F> bool bind(void *library, const char *name, F &slot) {
  slot = reinterpret_cast<F>(dlsym(library, name));
  return slot != nullptr;
}

/// A column-major matrix as cuBLASLt takes it: rows x cols, leading
/// dimension ld, and whether the GEMM reads it transposed.
struct Stored {
  int64_t rows, cols, ld;
  bool transposed;
  int64_t batchStride;
};

/// Logical r x c matrix with strides (rs, cs), stored column-major: needs
/// unit row stride (any, when r is 1).
std::optional<Stored> columnMajor(int64_t r, int64_t c, int64_t rs, int64_t cs,
                                  int64_t batchStride) {
  if (rs != 1 && r != 1)
    return std::nullopt;
  int64_t ld = c == 1 ? r : cs;
  if (ld < r)
    return std::nullopt;
  return Stored{r, c, ld, false, batchStride};
}

/// op(X) for a logical r x c operand: X itself if column-major, else X
/// stored row-major (its transpose column-major) read transposed.
std::optional<Stored> operand(int64_t r, int64_t c, int64_t rs, int64_t cs,
                              int64_t batchStride) {
  if (auto plain = columnMajor(r, c, rs, cs, batchStride))
    return plain;
  if (auto transposed = columnMajor(c, r, cs, rs, batchStride)) {
    transposed->transposed = true;
    return transposed;
  }
  return std::nullopt;
}

/// The problem as cuBLASLt computes it: out = op(first) * op(second), all
/// column-major. Row-major D is handled as D^T = B^T * A^T.
struct Formulation {
  Stored first, second, out;
  bool swapped; ///< first is B, second is A.
};

std::optional<Formulation> formulate(const GemmCall &call) {
  const GemmCall::Matrix &a = call.a, &b = call.b, &d = call.d;
  // D^T (n x m) column-major = D row-major: the usual case, bias along n.
  if (auto out = columnMajor(call.n, call.m, d.colStride, d.rowStride,
                             d.batchStride)) {
    auto first =
        operand(call.n, call.k, b.colStride, b.rowStride, b.batchStride);
    auto second =
        operand(call.k, call.m, a.colStride, a.rowStride, a.batchStride);
    if (first && second)
      return Formulation{*first, *second, *out, true};
  }
  // D column-major: its bias would run along m, which cuBLASLt cannot add.
  if (call.bias)
    return std::nullopt;
  if (auto out = columnMajor(call.m, call.n, d.rowStride, d.colStride,
                             d.batchStride)) {
    auto first =
        operand(call.m, call.k, a.rowStride, a.colStride, a.batchStride);
    auto second =
        operand(call.k, call.n, b.rowStride, b.colStride, b.batchStride);
    if (first && second)
      return Formulation{*first, *second, *out, false};
  }
  return std::nullopt;
}

/// The formulation of `call`, or why it has none.
std::optional<Formulation> formulateOrExplain(const GemmCall &call,
                                              std::string &why) {
  if (call.bias && call.bias->colStride != 1 && call.n != 1) {
    why = "its bias is not contiguous";
    return std::nullopt;
  }
  std::optional<Formulation> f = formulate(call);
  if (!f)
    why = "an operand is neither row- nor column-major, or its bias runs "
          "along a column-major output's rows";
  return f;
}
} // namespace

namespace {
StatusOr<std::unique_ptr<BlasLtApi>>
load(const std::vector<std::string> &names) {
  auto api = std::make_unique<BlasLtApi>();
  void *library = nullptr;
  std::string why;
  for (const std::string &name : names) {
    if ((library = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL))) {
      api->path = name;
      break;
    }
    const char *error = dlerror();
    why = error ? error : "dlopen failed";
  }
  if (!library)
    return Status(StatusCode::kUnavailable,
                  "cuBLASLt is not installed (" + why + ")");
  bool ok =
      bind(library, "cublasLtCreate", api->create) &&
      bind(library, "cublasLtDestroy", api->destroy) &&
      bind(library, "cublasLtMatmulDescCreate", api->descCreate) &&
      bind(library, "cublasLtMatmulDescDestroy", api->descDestroy) &&
      bind(library, "cublasLtMatmulDescSetAttribute", api->descSetAttribute) &&
      bind(library, "cublasLtMatrixLayoutCreate", api->layoutCreate) &&
      bind(library, "cublasLtMatrixLayoutDestroy", api->layoutDestroy) &&
      bind(library, "cublasLtMatrixLayoutSetAttribute",
           api->layoutSetAttribute) &&
      bind(library, "cublasLtMatmul", api->matmul);
  if (!ok)
    return Status(StatusCode::kUnavailable,
                  api->path + " lacks a cuBLASLt entry point Kiln uses");
  return api;
}
} // namespace

StatusOr<const BlasLtApi *> BlasLtApi::get() {
  // Per library path (KILN_CUBLASLT may change between loads in tests);
  // libraries are never unloaded.
  static std::mutex mutex;
  static std::map<std::string, StatusOr<std::unique_ptr<BlasLtApi>>> loaded;
  const char *override = std::getenv("KILN_CUBLASLT");
  std::string key = override && *override ? override : "";
  std::lock_guard<std::mutex> lock(mutex);
  auto found = loaded.find(key);
  if (found == loaded.end())
    found =
        loaded
            .emplace(key,
                     load(key.empty()
                              ? std::vector<std::string>{"libcublasLt.so.13",
                                                         "libcublasLt.so.12",
                                                         "libcublasLt.so"}
                              : std::vector<std::string>{key}))
            .first;
  if (!found->second.isOk())
    return found->second.status();
  return found->second->get();
}

StatusOr<std::unique_ptr<BlasLtGemm>>
BlasLtGemm::plan(const BlasLtApi &api, void *handle, const GemmCall &call,
                 const std::vector<CUdeviceptr> &pointers,
                 CUdeviceptr workspace, size_t workspaceBytes) {
  std::string why;
  std::optional<Formulation> formulated = formulateOrExplain(call, why);
  if (!formulated)
    return unimplemented(call.describe() + ": no cuBLASLt form: " + why);
  const Formulation &f = *formulated;
  std::unique_ptr<BlasLtGemm> gemm(new BlasLtGemm(api, call));
  gemm->handle_ = handle;
  gemm->workspace_ = workspace;
  gemm->workspaceBytes_ = workspaceBytes;
  gemm->beta_ = call.accumulate ? 1.0f : 0.0f;
  auto elementBytes = int64_t(dtypeSize(call.element));
  auto at = [&](const GemmCall::Matrix &m) {
    return pointers[m.arg] + CUdeviceptr(m.offset * elementBytes);
  };
  gemm->firstPtr_ = at(f.swapped ? call.b : call.a);
  gemm->secondPtr_ = at(f.swapped ? call.a : call.b);
  gemm->outPtr_ = at(call.d);
  auto checked = [&](int result, const char *what) {
    return result == 0 ? Status::ok()
                       : internalError(call.describe() + ": " + what +
                                       " failed: cuBLAS status " +
                                       std::to_string(result));
  };
  KILN_RETURN_IF_ERROR(checked(api.descCreate(&gemm->desc_, kComputeF32, kR32F),
                               "cublasLtMatmulDescCreate"));
  int transA = f.first.transposed, transB = f.second.transposed;
  KILN_RETURN_IF_ERROR(checked(
      api.descSetAttribute(gemm->desc_, kTransA, &transA, sizeof transA),
      "setting TRANSA"));
  KILN_RETURN_IF_ERROR(checked(
      api.descSetAttribute(gemm->desc_, kTransB, &transB, sizeof transB),
      "setting TRANSB"));
  uint32_t epilogue = call.activation == GemmCall::Activation::kRelu ? kRelu
                      : call.activation == GemmCall::Activation::kGeluTanh
                          ? kGelu
                          : 0;
  if (call.bias) {
    epilogue |= kBias;
    gemm->bias_ = at(*call.bias);
    void *bias = reinterpret_cast<void *>(gemm->bias_);
    KILN_RETURN_IF_ERROR(checked(
        api.descSetAttribute(gemm->desc_, kBiasPointer, &bias, sizeof bias),
        "setting the bias pointer"));
  }
  if (!epilogue)
    epilogue = kEpilogueDefault;
  KILN_RETURN_IF_ERROR(checked(
      api.descSetAttribute(gemm->desc_, kEpilogue, &epilogue, sizeof epilogue),
      "setting the epilogue"));
  int type = cudaType(call.element);
  int32_t batch = int32_t(call.batch);
  for (auto [layout, stored] :
       {std::pair{&gemm->first_, &f.first},
        std::pair{&gemm->second_, &f.second}, std::pair{&gemm->out_, &f.out}}) {
    KILN_RETURN_IF_ERROR(
        checked(api.layoutCreate(layout, type, uint64_t(stored->rows),
                                 uint64_t(stored->cols), stored->ld),
                "cublasLtMatrixLayoutCreate"));
    if (batch > 1) {
      int64_t stride = stored->batchStride;
      KILN_RETURN_IF_ERROR(checked(
          api.layoutSetAttribute(*layout, kBatchCount, &batch, sizeof batch),
          "setting the batch count"));
      KILN_RETURN_IF_ERROR(checked(
          api.layoutSetAttribute(*layout, kBatchStride, &stride, sizeof stride),
          "setting the batch stride"));
    }
  }
  return gemm;
}

BlasLtGemm::~BlasLtGemm() {
  for (void *layout : {first_, second_, out_})
    if (layout)
      api_.layoutDestroy(layout);
  if (desc_)
    api_.descDestroy(desc_);
}

Status BlasLtGemm::run(CUstream stream) const {
  void *out = reinterpret_cast<void *>(outPtr_);
  // C is D: accumulating GEMMs add D's previous contents (beta 1).
  int result = api_.matmul(
      handle_, desc_, &alpha_, reinterpret_cast<void *>(firstPtr_), first_,
      reinterpret_cast<void *>(secondPtr_), second_, &beta_, out, out_, out,
      out_, nullptr, reinterpret_cast<void *>(workspace_), workspaceBytes_,
      stream);
  if (result != 0)
    return internalError(call_.describe() +
                         ": cublasLtMatmul failed: cuBLAS status " +
                         std::to_string(result));
  return Status::ok();
}

} // namespace kiln::rt::cuda
