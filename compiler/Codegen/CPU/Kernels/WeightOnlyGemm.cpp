//===- WeightOnlyGemm.cpp - f32 x int8/int4 GEMM, dequantised in registers ===//
//
// SPDX-License-Identifier: Apache-2.0
//
// C (f32, M x N) += A (f32, M x K) x W, where W = Q x S is a constant
// quantized at compile time to int8 or int4 with one scale per group of
// rows and column, packed as WeightOnlyGemmLayout.h says. The weights are
// widened to f32 in registers, a vector at a time, and never written out:
// a GEMV then reads a quarter (int8) or an eighth (int4) of the bytes an
// fp32 one does, which is what bounds it. Like Int8Gemm.cpp, this file is
// compiled to bitcode and linked into generated code: plain C, no
// allocation, no thread-local state; the instruction set is picked at run
// time (AVX-512 or portable C++; KILN_CPU_ISA=portable caps it).
//
//===----------------------------------------------------------------------===//

#include "compiler/Codegen/CPU/Kernels/WeightOnlyGemm.h"
#include "compiler/Codegen/CPU/Kernels/CpuFeatures.h"
#include "compiler/Codegen/CPU/Kernels/WeightOnlyGemmLayout.h"

#include <immintrin.h>

using namespace kiln::cpu_kernels;

namespace {

inline int64_t minOf(int64_t a, int64_t b) { return a < b ? a : b; }

int detectIsa() {
  int best = detectCpuFeatures().avx512 ? KILN_WEIGHT_ONLY_ISA_AVX512
                                        : KILN_WEIGHT_ONLY_ISA_PORTABLE;
  int cap = cpuIsaCap();
  return best < cap ? best : cap;
}

/// The operands of one call, as the kernels walk them.
struct Problem {
  int64_t m, n, k;
  const float *a;
  int64_t lda;
  const uint8_t *packed;
  int64_t packedN, n0, group, bits;
  float *c;
  int64_t ldc;
};

//===----------------------------------------------------------------------===//
// Portable
//===----------------------------------------------------------------------===//

/// The same sum, term by term, that the generic lowering computes:
/// acc + a * (q * s).
void gemmPortable(const Problem &p) {
  for (int64_t i = 0; i < p.m; ++i)
    for (int64_t j = 0; j < p.n; ++j) {
      int64_t column = p.n0 + j;
      float sum = p.c[i * p.ldc + j];
      for (int64_t l = 0; l < p.k; ++l) {
        const float *scales = weightOnlyPackedScales(
            p.packed, column / kWeightOnlyTileColumns, l / p.group, p.k,
            p.packedN, p.group, p.bits);
        float w =
            float(weightOnlyPackedValue(p.packed, l, column, p.k, p.bits)) *
            scales[column % kWeightOnlyTileColumns];
        sum += p.a[i * p.lda + l] * w;
      }
      p.c[i * p.ldc + j] = sum;
    }
}

//===----------------------------------------------------------------------===//
// AVX-512
//===----------------------------------------------------------------------===//

#define KILN_AVX512_TARGET __attribute__((target("avx512f,avx512bw")))

/// A tile's two vectors of 16 columns.
constexpr int kVectors = kWeightOnlyTileColumns / 16;

/// One packed row of a tile widened to 2 x 16 f32 integers (unscaled). An
/// int4 byte j holds columns j (low nibble) and j + 16 (high): its 32-bit
/// widening indexes a 16-entry table of the signed values, as it is for
/// the low nibbles and shifted right by 4 for the high ones (vpermps reads
/// only the index's low four bits).
template <int Bits>
KILN_AVX512_TARGET __attribute__((always_inline)) inline void
widenRow(const uint8_t *row, __m512 (&w)[kVectors]) {
  if constexpr (Bits == 8) {
    for (int v = 0; v < kVectors; ++v)
      w[v] = _mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(
          _mm_loadu_si128(reinterpret_cast<const __m128i *>(row + 16 * v))));
  } else {
    const __m512 values =
        _mm512_setr_ps(0, 1, 2, 3, 4, 5, 6, 7, -8, -7, -6, -5, -4, -3, -2, -1);
    __m512i bytes = _mm512_cvtepu8_epi32(
        _mm_loadu_si128(reinterpret_cast<const __m128i *>(row)));
    w[0] = _mm512_permutexvar_ps(bytes, values);
    w[1] = _mm512_permutexvar_ps(_mm512_srli_epi32(bytes, 4), values);
  }
}

/// C's lanes in `mask` (R rows, ldc apart) += acc.
template <int R>
KILN_AVX512_TARGET __attribute__((always_inline)) inline void
addToC(const __m512 (&acc)[R][kVectors], float *c, int64_t ldc,
       uint32_t mask) {
  for (int v = 0; v < kVectors; ++v) {
    __mmask16 lanes = __mmask16(mask >> (16 * v));
    if (!lanes)
      continue;
    for (int r = 0; r < R; ++r) {
      float *out = c + r * ldc + 16 * v;
      _mm512_mask_storeu_ps(
          out, lanes,
          _mm512_add_ps(_mm512_maskz_loadu_ps(lanes, out), acc[r][v]));
    }
  }
}

/// Few rows (a GEMV): R <= 4 rows of A against one tile, the weights
/// streamed once. Products of a group sum unscaled (for R <= 2 in two
/// sets, even and odd rows of the group, for enough independent FMA
/// chains) and are scaled once at the group's end, so the widened weights
/// feed FMAs directly.
template <int Bits, int R>
KILN_AVX512_TARGET void streamBlock(const Problem &p, const float *a,
                                    const uint8_t *weights, const float *scales,
                                    float *c, uint32_t mask) {
  __m512 acc[R][kVectors];
  for (int r = 0; r < R; ++r)
    for (int v = 0; v < kVectors; ++v)
      acc[r][v] = _mm512_setzero_ps();
  const int64_t rowBytes = weightOnlyRowBytes(Bits);
  for (int64_t k0 = 0; k0 < p.k; k0 += p.group) {
    __m512 even[R][kVectors], odd[R][kVectors];
    for (int r = 0; r < R; ++r)
      for (int v = 0; v < kVectors; ++v)
        even[r][v] = odd[r][v] = _mm512_setzero_ps();
    int64_t k1 = minOf(k0 + p.group, p.k), l = k0;
    // Three or four rows have enough chains without the odd set.
    for (; R <= 2 && l + 1 < k1; l += 2) {
      __m512 w0[kVectors], w1[kVectors];
      widenRow<Bits>(weights + l * rowBytes, w0);
      widenRow<Bits>(weights + (l + 1) * rowBytes, w1);
      for (int r = 0; r < R; ++r) {
        __m512 x0 = _mm512_set1_ps(a[r * p.lda + l]);
        __m512 x1 = _mm512_set1_ps(a[r * p.lda + l + 1]);
        for (int v = 0; v < kVectors; ++v) {
          even[r][v] = _mm512_fmadd_ps(x0, w0[v], even[r][v]);
          odd[r][v] = _mm512_fmadd_ps(x1, w1[v], odd[r][v]);
        }
      }
    }
    for (; l < k1; ++l) {
      __m512 w0[kVectors];
      widenRow<Bits>(weights + l * rowBytes, w0);
      for (int r = 0; r < R; ++r) {
        __m512 x0 = _mm512_set1_ps(a[r * p.lda + l]);
        for (int v = 0; v < kVectors; ++v)
          even[r][v] = _mm512_fmadd_ps(x0, w0[v], even[r][v]);
      }
    }
    for (int v = 0; v < kVectors; ++v) {
      __m512 scale = _mm512_loadu_ps(scales + 16 * v);
      for (int r = 0; r < R; ++r)
        acc[r][v] = _mm512_fmadd_ps(_mm512_add_ps(even[r][v], odd[r][v]),
                                    scale, acc[r][v]);
    }
    scales += kWeightOnlyTileColumns;
  }
  addToC<R>(acc, c, p.ldc, mask);
}

/// Rows of the panel path at a time: 12 x 2 accumulators, 2 weights and a
/// broadcast fit in 32 registers.
constexpr int kPanelRows = 12;
/// Depth of one dequantized panel: 256 x 32 f32 = 32 KiB, inside L1.
constexpr int64_t kPanelDepth = 256;

/// Many rows: weights [k0, k1) of a tile dequantized once into `panel`,
/// which then serves every block of rows as an fp32 GEMM would.
template <int Bits>
KILN_AVX512_TARGET void dequantisePanel(const Problem &p,
                                        const uint8_t *weights,
                                        const float *scales, int64_t k0,
                                        int64_t k1, float *panel) {
  const int64_t rowBytes = weightOnlyRowBytes(Bits);
  // Group by group (no division per row).
  for (int64_t g = k0 / p.group, l = k0; l < k1; ++g) {
    const float *scale = scales + g * kWeightOnlyTileColumns;
    __m512 s[kVectors];
    for (int v = 0; v < kVectors; ++v)
      s[v] = _mm512_loadu_ps(scale + 16 * v);
    for (int64_t end = minOf((g + 1) * p.group, k1); l < end; ++l) {
      __m512 w[kVectors];
      widenRow<Bits>(weights + l * rowBytes, w);
      for (int v = 0; v < kVectors; ++v)
        _mm512_store_ps(panel + (l - k0) * kWeightOnlyTileColumns + 16 * v,
                        _mm512_mul_ps(w[v], s[v]));
    }
  }
}

template <int R>
KILN_AVX512_TARGET void panelBlock(const float *a, int64_t lda,
                                   const float *panel, int64_t depth, float *c,
                                   int64_t ldc, uint32_t mask) {
  __m512 acc[R][kVectors];
  for (int r = 0; r < R; ++r)
    for (int v = 0; v < kVectors; ++v)
      acc[r][v] = _mm512_setzero_ps();
  for (int64_t l = 0; l < depth; ++l) {
    __m512 w[kVectors];
    for (int v = 0; v < kVectors; ++v)
      w[v] = _mm512_load_ps(panel + l * kWeightOnlyTileColumns + 16 * v);
    for (int r = 0; r < R; ++r) {
      __m512 x = _mm512_set1_ps(a[r * lda + l]);
      for (int v = 0; v < kVectors; ++v)
        acc[r][v] = _mm512_fmadd_ps(x, w[v], acc[r][v]);
    }
  }
  addToC<R>(acc, c, ldc, mask);
}

template <int Bits>
KILN_AVX512_TARGET void panelRows(const Problem &p, const uint8_t *weights,
                                  const float *scales, float *c,
                                  uint32_t mask) {
  alignas(64) float panel[kPanelDepth * kWeightOnlyTileColumns];
  for (int64_t k0 = 0; k0 < p.k; k0 += kPanelDepth) {
    int64_t depth = minOf(kPanelDepth, p.k - k0);
    dequantisePanel<Bits>(p, weights, scales, k0, k0 + depth, panel);
    const float *a = p.a + k0;
    int64_t i = 0;
    for (; i + kPanelRows <= p.m; i += kPanelRows)
      panelBlock<kPanelRows>(a + i * p.lda, p.lda, panel, depth,
                             c + i * p.ldc, p.ldc, mask);
    switch (p.m - i) {
#define KILN_PANEL_ROWS(R)                                                     \
  case R:                                                                      \
    panelBlock<R>(a + i * p.lda, p.lda, panel, depth, c + i * p.ldc, p.ldc,    \
                  mask);                                                       \
    break;
      KILN_PANEL_ROWS(1)
      KILN_PANEL_ROWS(2)
      KILN_PANEL_ROWS(3)
      KILN_PANEL_ROWS(4)
      KILN_PANEL_ROWS(5)
      KILN_PANEL_ROWS(6)
      KILN_PANEL_ROWS(7)
      KILN_PANEL_ROWS(8)
      KILN_PANEL_ROWS(9)
      KILN_PANEL_ROWS(10)
      KILN_PANEL_ROWS(11)
#undef KILN_PANEL_ROWS
    }
  }
}

/// Up to four rows stream the weights; more dequantize each panel once for
/// all rows.
template <int Bits>
KILN_AVX512_TARGET void tileRows(const Problem &p, const uint8_t *weights,
                                 const float *scales, float *c,
                                 uint32_t mask) {
  switch (p.m) {
  case 1:
    return streamBlock<Bits, 1>(p, p.a, weights, scales, c, mask);
  case 2:
    return streamBlock<Bits, 2>(p, p.a, weights, scales, c, mask);
  case 3:
    return streamBlock<Bits, 3>(p, p.a, weights, scales, c, mask);
  case 4:
    return streamBlock<Bits, 4>(p, p.a, weights, scales, c, mask);
  default:
    return panelRows<Bits>(p, weights, scales, c, mask);
  }
}

/// Tiles outermost: one tile's weights (K x 32 bytes at most) stay in
/// cache while every block of rows passes over them. A slice may start and
/// end inside a tile; only its own lanes are loaded and stored.
KILN_AVX512_TARGET void gemmAvx512(const Problem &p) {
  for (int64_t column = p.n0; column < p.n0 + p.n;) {
    int64_t tile = column / kWeightOnlyTileColumns,
            lane = column % kWeightOnlyTileColumns;
    int64_t lanes = minOf(kWeightOnlyTileColumns - lane, p.n0 + p.n - column);
    uint32_t mask =
        (lanes == 32 ? ~uint32_t(0) : (uint32_t(1) << lanes) - 1) << lane;
    const uint8_t *weights =
        p.packed + tile * weightOnlyTileBytes(p.k, p.bits);
    const float *scales = weightOnlyPackedScales(p.packed, tile, 0, p.k,
                                                 p.packedN, p.group, p.bits);
    // C's column of the tile's lane 0 (lanes before `lane` are masked).
    float *c = p.c + (column - p.n0) - lane;
    if (p.bits == 4)
      tileRows<4>(p, weights, scales, c, mask);
    else
      tileRows<8>(p, weights, scales, c, mask);
    column += lanes;
  }
}

} // namespace

extern "C" int kiln_weight_only_gemm_isa(void) {
  return chosenIsa<detectIsa>();
}

extern "C" void kiln_weight_only_gemm_with(int isa, int64_t m, int64_t n,
                                           int64_t k, const float *a,
                                           int64_t lda, const uint8_t *packed,
                                           int64_t packedN, int64_t n0,
                                           int64_t group, int64_t bits,
                                           float *c, int64_t ldc) {
  if (m <= 0 || n <= 0 || k <= 0)
    return;
  Problem problem{m, n, k, a, lda, packed, packedN, n0, group, bits, c, ldc};
  if (isa == KILN_WEIGHT_ONLY_ISA_AVX512)
    return gemmAvx512(problem);
  gemmPortable(problem);
}

extern "C" void kiln_weight_only_gemm(int64_t m, int64_t n, int64_t k,
                                      const float *a, int64_t lda,
                                      const uint8_t *packed, int64_t packedN,
                                      int64_t n0, int64_t group, int64_t bits,
                                      float *c, int64_t ldc) {
  kiln_weight_only_gemm_with(chosenIsa<detectIsa>(), m, n, k, a, lda, packed,
                             packedN, n0, group, bits, c, ldc);
}
