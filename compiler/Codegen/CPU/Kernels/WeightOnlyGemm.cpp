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

/// Every thread computes the same answer, so a race only repeats the work.
int chosenIsa() {
  static int chosen = 0;
  int isa = __atomic_load_n(&chosen, __ATOMIC_RELAXED);
  if (isa == 0) {
    isa = detectIsa();
    __atomic_store_n(&chosen, isa, __ATOMIC_RELAXED);
  }
  return isa;
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

/// One packed row of a tile, widened to 4 x 16 f32 and scaled. An int4
/// byte j holds columns j (low nibble) and j + 32 (high): its 32-bit
/// widening indexes a 16-entry table of the signed values, low nibble
/// first, then shifted right by 4 for the high one (vpermps reads only the
/// index's low four bits).
template <int Bits>
KILN_AVX512_TARGET __attribute__((always_inline)) inline void
dequantiseRow(const uint8_t *row, const __m512 (&scale)[4], __m512 (&w)[4]) {
  if constexpr (Bits == 8) {
    for (int v = 0; v < 4; ++v) {
      __m128i bytes =
          _mm_loadu_si128(reinterpret_cast<const __m128i *>(row + 16 * v));
      w[v] = _mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(bytes)),
                           scale[v]);
    }
  } else {
    const __m512 values =
        _mm512_setr_ps(0, 1, 2, 3, 4, 5, 6, 7, -8, -7, -6, -5, -4, -3, -2, -1);
    for (int h = 0; h < 2; ++h) {
      __m512i bytes = _mm512_cvtepu8_epi32(
          _mm_loadu_si128(reinterpret_cast<const __m128i *>(row + 16 * h)));
      w[h] = _mm512_mul_ps(_mm512_permutexvar_ps(bytes, values), scale[h]);
      w[h + 2] = _mm512_mul_ps(
          _mm512_permutexvar_ps(_mm512_srli_epi32(bytes, 4), values),
          scale[h + 2]);
    }
  }
}

/// R rows of A against one 64-column tile: C's lanes in `mask` += A x W.
/// Each row of W is widened once and used by all R rows.
template <int Bits, int R>
KILN_AVX512_TARGET void tileBlock(const Problem &p, const float *a,
                                  const uint8_t *weights, const float *scales,
                                  float *c, uint64_t mask) {
  __m512 acc[R][4];
  for (int r = 0; r < R; ++r)
    for (int v = 0; v < 4; ++v)
      acc[r][v] = _mm512_setzero_ps();
  const int64_t rowBytes = weightOnlyRowBytes(Bits);
  for (int64_t k0 = 0; k0 < p.k; k0 += p.group) {
    __m512 scale[4];
    for (int v = 0; v < 4; ++v)
      scale[v] = _mm512_loadu_ps(scales + 16 * v);
    scales += kWeightOnlyTileColumns;
    int64_t k1 = minOf(k0 + p.group, p.k);
    for (int64_t l = k0; l < k1; ++l) {
      __m512 w[4];
      dequantiseRow<Bits>(weights + l * rowBytes, scale, w);
      for (int r = 0; r < R; ++r) {
        __m512 x = _mm512_set1_ps(a[r * p.lda + l]);
        for (int v = 0; v < 4; ++v)
          acc[r][v] = _mm512_fmadd_ps(x, w[v], acc[r][v]);
      }
    }
  }
  for (int v = 0; v < 4; ++v) {
    __mmask16 lanes = __mmask16(mask >> (16 * v));
    if (!lanes)
      continue;
    for (int r = 0; r < R; ++r) {
      float *out = c + r * p.ldc + 16 * v;
      _mm512_mask_storeu_ps(
          out, lanes,
          _mm512_add_ps(_mm512_maskz_loadu_ps(lanes, out), acc[r][v]));
    }
  }
}

template <int Bits>
KILN_AVX512_TARGET void tileRows(const Problem &p, const uint8_t *weights,
                                 const float *scales, float *c, uint64_t mask) {
  int64_t i = 0;
  for (; i + 4 <= p.m; i += 4)
    tileBlock<Bits, 4>(p, p.a + i * p.lda, weights, scales, c + i * p.ldc,
                       mask);
  switch (p.m - i) {
  case 3:
    return tileBlock<Bits, 3>(p, p.a + i * p.lda, weights, scales,
                              c + i * p.ldc, mask);
  case 2:
    return tileBlock<Bits, 2>(p, p.a + i * p.lda, weights, scales,
                              c + i * p.ldc, mask);
  case 1:
    return tileBlock<Bits, 1>(p, p.a + i * p.lda, weights, scales,
                              c + i * p.ldc, mask);
  }
}

/// Tiles outermost: one tile's weights (K x 64 bytes at most) stay in
/// cache while every block of rows passes over them. A slice may start and
/// end inside a tile; only its own lanes are loaded and stored.
KILN_AVX512_TARGET void gemmAvx512(const Problem &p) {
  for (int64_t column = p.n0; column < p.n0 + p.n;) {
    int64_t tile = column / kWeightOnlyTileColumns,
            lane = column % kWeightOnlyTileColumns;
    int64_t lanes = minOf(kWeightOnlyTileColumns - lane, p.n0 + p.n - column);
    uint64_t mask = (lanes == 64 ? ~uint64_t(0) : (uint64_t(1) << lanes) - 1)
                    << lane;
    const uint8_t *weights = p.packed + tile * weightOnlyTileBytes(p.k, p.bits);
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

extern "C" int kiln_weight_only_gemm_isa(void) { return chosenIsa(); }

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
  kiln_weight_only_gemm_with(chosenIsa(), m, n, k, a, lda, packed, packedN, n0,
                             group, bits, c, ldc);
}
