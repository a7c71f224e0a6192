//===- FakeCublasLt.cpp - cuBLASLt on host memory, for tests --------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The cuBLASLt entry points the runtime uses (runtime/src/cuda/CudaBlasLt.h;
// the signatures match its types exactly, as UBSan checks calls through
// function pointers), exported by libkiln_fake_cuda.so next to the fake
// driver, so that device pointers are the same host pointers.
// cublasLtMatmul computes what the documentation says, column-major with
// op(A), op(B), alpha, beta, strided batches, bias and ReLU/GELU epilogues,
// queued on the stream like a kernel (recorded when the stream captures a
// graph). Tests point KILN_CUBLASLT at the library.
//
//===----------------------------------------------------------------------===//

#include "FakeCudaDriver.h"

#include "CudaApi.h"

#include <cmath>
#include <cstdint>
#include <cstring>

namespace {
constexpr int kSuccess = 0, kNotInitialized = 1, kInvalidValue = 7,
              kNotSupported = 15;
// Attribute and enum values as in cublasLt.h / library_types.h.
constexpr int kTransA = 3, kTransB = 4, kEpilogue = 7, kBiasPointer = 8;
constexpr int kBatchCount = 5, kBatchStride = 6;
constexpr int kR32F = 0, kR16F = 2, kR16BF = 14;
constexpr unsigned kEpilogueDefault = 1, kRelu = 2, kBias = 4, kGelu = 32;

struct Desc {
  int computeType = 0, scaleType = 0;
  int transA = 0, transB = 0;
  unsigned epilogue = kEpilogueDefault;
  const void *bias = nullptr;
};
struct Layout {
  int type = 0;
  uint64_t rows = 0, cols = 0;
  int64_t ld = 0;
  int batch = 1;
  int64_t batchStride = 0;
};

float load(const void *base, int type, int64_t i) {
  switch (type) {
  case kR16F:
    return float(static_cast<const _Float16 *>(base)[i]);
  case kR16BF: {
    uint32_t bits = uint32_t(static_cast<const uint16_t *>(base)[i]) << 16;
    float value;
    std::memcpy(&value, &bits, 4);
    return value;
  }
  default:
    return static_cast<const float *>(base)[i];
  }
}

void store(void *base, int type, int64_t i, float value) {
  switch (type) {
  case kR16F:
    static_cast<_Float16 *>(base)[i] = _Float16(value);
    break;
  case kR16BF: {
    uint32_t bits;
    std::memcpy(&bits, &value, 4);
    bits += 0x7fff + ((bits >> 16) & 1); // round to nearest even
    static_cast<uint16_t *>(base)[i] = uint16_t(bits >> 16);
    break;
  }
  default:
    static_cast<float *>(base)[i] = value;
  }
}

/// Element (r, c) of op(X) for a column-major X.
float element(const void *x, const Layout &l, int transpose, int64_t batch,
              int64_t r, int64_t c) {
  int64_t row = transpose ? c : r, col = transpose ? r : c;
  return load(x, l.type, batch * l.batchStride + row + col * l.ld);
}
} // namespace

extern "C" {

int cublasLtCreate(void **handle) {
  FakeCudaState *state = kilnFakeCudaState();
  if (state->blasLtCreateStatus)
    return state->blasLtCreateStatus;
  ++state->liveBlasLtHandles;
  *handle = new int(0);
  return kSuccess;
}
int cublasLtDestroy(void *handle) {
  --kilnFakeCudaState()->liveBlasLtHandles;
  delete static_cast<int *>(handle);
  return kSuccess;
}
int cublasLtMatmulDescCreate(void **desc, int computeType, int scaleType) {
  ++kilnFakeCudaState()->liveBlasLtDescriptors;
  *desc = new Desc{computeType, scaleType};
  return kSuccess;
}
int cublasLtMatmulDescDestroy(void *desc) {
  --kilnFakeCudaState()->liveBlasLtDescriptors;
  delete static_cast<Desc *>(desc);
  return kSuccess;
}
int cublasLtMatmulDescSetAttribute(void *desc, int attribute, const void *buf,
                                   size_t size) {
  Desc &d = *static_cast<Desc *>(desc);
  switch (attribute) {
  case kTransA:
  case kTransB:
    if (size != 4)
      return kInvalidValue;
    std::memcpy(attribute == kTransA ? &d.transA : &d.transB, buf, 4);
    return kSuccess;
  case kEpilogue:
    if (size != 4)
      return kInvalidValue;
    std::memcpy(&d.epilogue, buf, 4);
    return kSuccess;
  case kBiasPointer:
    if (size != sizeof(void *))
      return kInvalidValue;
    std::memcpy(&d.bias, buf, sizeof(void *));
    return kSuccess;
  default:
    return kNotSupported;
  }
}
int cublasLtMatrixLayoutCreate(void **layout, int type, uint64_t rows,
                               uint64_t cols, int64_t ld) {
  if (ld < int64_t(rows) || (type != kR32F && type != kR16F && type != kR16BF))
    return kInvalidValue;
  ++kilnFakeCudaState()->liveBlasLtDescriptors;
  *layout = new Layout{type, rows, cols, ld};
  return kSuccess;
}
int cublasLtMatrixLayoutDestroy(void *layout) {
  --kilnFakeCudaState()->liveBlasLtDescriptors;
  delete static_cast<Layout *>(layout);
  return kSuccess;
}
int cublasLtMatrixLayoutSetAttribute(void *layout, int attribute,
                                     const void *buf, size_t size) {
  Layout &l = *static_cast<Layout *>(layout);
  if (attribute == kBatchCount && size == 4) {
    std::memcpy(&l.batch, buf, 4);
    return kSuccess;
  }
  if (attribute == kBatchStride && size == 8) {
    std::memcpy(&l.batchStride, buf, 8);
    return kSuccess;
  }
  return kNotSupported;
}

int cublasLtMatmul(void *handle, void *desc, const void *alpha, const void *a,
                   void *aDesc, const void *b, void *bDesc, const void *beta,
                   const void *c, void *cDesc, void *d, void *dDesc,
                   const void *, void *, size_t,
                   kiln::rt::cuda::CUstream stream) {
  if (!handle)
    return kNotInitialized;
  const Desc &op = *static_cast<Desc *>(desc);
  const Layout &la = *static_cast<Layout *>(aDesc),
               &lb = *static_cast<Layout *>(bDesc),
               &lc = *static_cast<Layout *>(cDesc),
               &ld = *static_cast<Layout *>(dDesc);
  int64_t m = int64_t(ld.rows), n = int64_t(ld.cols);
  int64_t k = int64_t(op.transA ? la.rows : la.cols);
  if (int64_t(op.transA ? la.cols : la.rows) != m ||
      int64_t(op.transB ? lb.rows : lb.cols) != n ||
      int64_t(op.transB ? lb.cols : lb.rows) != k || lc.rows != ld.rows ||
      lc.cols != ld.cols || la.batch != ld.batch || lb.batch != ld.batch)
    return kInvalidValue;
  if ((op.epilogue & kBias) && !op.bias)
    return kInvalidValue;
  float alphaValue = *static_cast<const float *>(alpha),
        betaValue = *static_cast<const float *>(beta);
  Desc opCopy = op;
  Layout lac = la, lbc = lb, lcc = lc, ldc = ld;
  // Computed when the stream gets to it, as on a GPU.
  fakeEnqueue(stream, "cublasLtMatmul", [=] {
    ++kilnFakeCudaState()->blasLtMatmuls;
    for (int64_t batch = 0; batch < ldc.batch; ++batch)
      for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < m; ++i) {
          double sum = 0;
          for (int64_t p = 0; p < k; ++p)
            sum += double(element(a, lac, opCopy.transA, batch, i, p)) *
                   element(b, lbc, opCopy.transB, batch, p, j);
          double value = alphaValue * sum;
          if (betaValue != 0)
            value += betaValue * load(c, lcc.type,
                                      batch * lcc.batchStride + i + j * lcc.ld);
          if (opCopy.epilogue & kBias)
            value += load(opCopy.bias, ldc.type, i);
          if (opCopy.epilogue & kRelu)
            value = value > 0 ? value : 0;
          if (opCopy.epilogue & kGelu)
            value = 0.5 * value *
                    (1 + std::tanh(0.7978845608028654 *
                                   (value + 0.044715 * value * value * value)));
          store(d, ldc.type, batch * ldc.batchStride + i + j * ldc.ld,
                float(value));
        }
  });
  return kSuccess;
}

} // extern "C"
