//===- Int8Gemm.cpp - int8 GEMM on AMX, AVX-512 VNNI or plain C++ ---------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// C (int32, M x N) += A (int8, M x K, rows lda apart) x B, where B is a
// constant packed at compile time (Int8GemmLayout.h). Which instructions
// run is decided at run time, once per process, from CPUID and the OS: AMX
// tiles where the CPU has AMX-INT8 and Linux grants the tile state, else
// AVX-512 VNNI, else portable C++. So an artifact compiled on an AMX
// machine still runs, slower, on one without. KILN_CPU_ISA=portable|vnni|amx
// caps the choice (tests use it to run every path on one machine).
//
// This file is compiled to LLVM bitcode at build time and linked into the
// generated code of every model that needs it (CpuKernelLibrary.h), so
// artifacts carry it and need nothing at run time but libc. Hence plain C:
// no C++ runtime, no allocation, no thread-local state.
//
//===----------------------------------------------------------------------===//

#include "compiler/Codegen/CPU/Kernels/Int8Gemm.h"
#include "compiler/Codegen/CPU/Kernels/CpuFeatures.h"
#include "compiler/Codegen/CPU/Kernels/Int8GemmLayout.h"

#include <immintrin.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifdef KILN_INT8_GEMM_EMULATE_AMX
#include "compiler/Codegen/CPU/Kernels/AmxEmulation.h"
#endif

using namespace kiln::cpu_kernels;

namespace {

inline int64_t minOf(int64_t a, int64_t b) { return a < b ? a : b; }

//===----------------------------------------------------------------------===//
// Choosing the instructions
//===----------------------------------------------------------------------===//

int detectIsa() {
  CpuFeatures features = detectCpuFeatures();
  bool amx = features.amxInt8;
  // Linux hands out the 8 KiB tile state only on request
  // (ARCH_REQ_XCOMP_PERM for XFEATURE_XTILEDATA); without it the first
  // tile instruction is SIGILL.
  if (amx && syscall(SYS_arch_prctl, 0x1023, 18) != 0)
    amx = false;
#ifdef KILN_INT8_GEMM_EMULATE_AMX
  amx = true; // Software tiles (AmxEmulation.h).
#endif
  int best = amx             ? KILN_INT8_ISA_AMX
             : features.vnni ? KILN_INT8_ISA_VNNI
                             : KILN_INT8_ISA_PORTABLE;
  int cap = cpuIsaCap(); // 1, 2, 3: the same order as KILN_INT8_ISA_*.
  return best < cap ? best : cap;
}

//===----------------------------------------------------------------------===//
// Portable
//===----------------------------------------------------------------------===//

void gemmPortable(int64_t m, int64_t n, int64_t k, const int8_t *a, int64_t lda,
                  const int8_t *packed, int64_t n0, int32_t *c, int64_t ldc) {
  int64_t depth = int8PackedDepth(k);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      const int8_t *column = packed + int8PackedOffset(0, n0 + j, depth);
      int32_t sum = 0;
      for (int64_t l = 0; l < k; ++l)
        sum +=
            int32_t(a[i * lda + l]) *
            int32_t(column[(l / kInt8GroupDepth) * 64 + l % kInt8GroupDepth]);
      c[i * ldc + j] += sum;
    }
}

//===----------------------------------------------------------------------===//
// AVX-512 VNNI
//===----------------------------------------------------------------------===//

#define KILN_VNNI_TARGET __attribute__((target("avx512f,avx512bw,avx512vnni")))

/// One k-group: R rows of A (4 bytes each) against P panel rows of B.
template <int R, int P>
KILN_VNNI_TARGET __attribute__((always_inline)) inline void
vnniStep(__m512i (&acc)[R][P], const int8_t *group, int64_t panelBytes,
         const int32_t *words, __m512i bias) {
  __m512i b[P];
  for (int p = 0; p < P; ++p)
    b[p] = _mm512_loadu_si512(group + p * panelBytes);
  for (int r = 0; r < R; ++r) {
    __m512i av = _mm512_xor_si512(_mm512_set1_epi32(words[r]), bias);
    for (int p = 0; p < P; ++p)
      acc[r][p] = _mm512_dpbusd_epi32(acc[r][p], av, b[p]);
  }
}

/// R rows x P panels of 16 columns; `columns` of them are stored.
/// vpdpbusd multiplies unsigned by signed bytes: A is biased by 128
/// (a ^ 0x80) and 128 x the column sums are subtracted at the end.
template <int R, int P>
KILN_VNNI_TARGET void vnniBlock(int64_t k, const int8_t *a, int64_t lda,
                                const int8_t *panel, int64_t panelBytes,
                                const int32_t *sums, int32_t *c, int64_t ldc,
                                int64_t columns) {
  __m512i acc[R][P];
  for (int r = 0; r < R; ++r)
    for (int p = 0; p < P; ++p)
      acc[r][p] = _mm512_setzero_si512();
  const __m512i bias = _mm512_set1_epi8(char(0x80));
  int64_t whole = k / 4;
  for (int64_t g = 0; g < whole; ++g) {
    int32_t words[R];
    for (int r = 0; r < R; ++r)
      memcpy(&words[r], a + r * lda + 4 * g, 4);
    vnniStep<R, P>(acc, panel + g * 64, panelBytes, words, bias);
  }
  if (k % 4) {
    // The last group is partial: its missing bytes meet B's zeros.
    int32_t words[R] = {};
    for (int r = 0; r < R; ++r)
      memcpy(&words[r], a + r * lda + 4 * whole, size_t(k % 4));
    vnniStep<R, P>(acc, panel + whole * 64, panelBytes, words, bias);
  }
  for (int p = 0; p < P; ++p) {
    __m512i correction =
        _mm512_slli_epi32(_mm512_loadu_si512(sums + 16 * p), 7);
    int64_t here = minOf(16, columns - 16 * p);
    __mmask16 mask =
        here >= 16 ? __mmask16(0xffff) : __mmask16((1u << here) - 1);
    for (int r = 0; r < R; ++r) {
      int32_t *row = c + r * ldc + 16 * p;
      __m512i sum = _mm512_add_epi32(_mm512_maskz_loadu_epi32(mask, row),
                                     _mm512_sub_epi32(acc[r][p], correction));
      _mm512_mask_storeu_epi32(row, mask, sum);
    }
  }
}

template <int P>
KILN_VNNI_TARGET void vnniRows(int64_t rows, int64_t k, const int8_t *a,
                               int64_t lda, const int8_t *panel,
                               int64_t panelBytes, const int32_t *sums,
                               int32_t *c, int64_t ldc, int64_t columns) {
  switch (rows) {
#define KILN_VNNI_ROWS(R)                                                      \
  case R:                                                                      \
    return vnniBlock<R, P>(k, a, lda, panel, panelBytes, sums, c, ldc, columns);
    KILN_VNNI_ROWS(1)
    KILN_VNNI_ROWS(2)
    KILN_VNNI_ROWS(3)
    KILN_VNNI_ROWS(4)
    KILN_VNNI_ROWS(5)
    KILN_VNNI_ROWS(6)
    KILN_VNNI_ROWS(7)
    KILN_VNNI_ROWS(8)
#undef KILN_VNNI_ROWS
  }
}

/// Column blocks of 32 outermost, so a block of B (K x 32 bytes) stays in
/// cache while every row block of A passes over it.
KILN_VNNI_TARGET void gemmVnni(int64_t m, int64_t n, int64_t k, const int8_t *a,
                               int64_t lda, const int8_t *packed,
                               const int32_t *sums, int64_t n0, int32_t *c,
                               int64_t ldc) {
  int64_t panelBytes = int8PackedDepth(k) * kInt8PanelColumns;
  for (int64_t nb = 0; nb < n; nb += 32) {
    int64_t columns = minOf(32, n - nb);
    const int8_t *panel = packed + (n0 + nb) / 16 * panelBytes;
    for (int64_t mb = 0; mb < m; mb += 8) {
      int64_t rows = minOf(8, m - mb);
      if (columns > 16)
        vnniRows<2>(rows, k, a + mb * lda, lda, panel, panelBytes, sums + nb,
                    c + mb * ldc + nb, ldc, columns);
      else
        vnniRows<1>(rows, k, a + mb * lda, lda, panel, panelBytes, sums + nb,
                    c + mb * ldc + nb, ldc, columns);
    }
  }
}

//===----------------------------------------------------------------------===//
// AMX
//===----------------------------------------------------------------------===//

#ifdef KILN_INT8_GEMM_EMULATE_AMX
#define KILN_AMX_TARGET
#else
#define KILN_AMX_TARGET __attribute__((target("amx-tile,amx-int8")))
#endif

struct alignas(64) TileConfig {
  uint8_t palette;
  uint8_t startRow;
  uint8_t reserved[14];
  uint16_t bytesPerRow[16];
  uint8_t rows[16];
};

/// Where an A tile (16 rows x 64 bytes of k) is read from: A itself when
/// the tile lies inside it, else a zero-padded copy (never read past A).
const int8_t *aTileSource(const int8_t *a, int64_t lda, int64_t rows,
                          int64_t depth, int8_t *buffer, int64_t *stride) {
  if (rows == 16 && depth == 64) {
    *stride = lda;
    return a;
  }
  memset(buffer, 0, 16 * 64);
  for (int64_t r = 0; r < rows; ++r)
    memcpy(buffer + r * 64, a + r * lda, size_t(depth));
  *stride = 64;
  return buffer;
}

/// Adds the valid part of a stored 16 x 16 tile to C.
void addTile(const int32_t *tile, int32_t *c, int64_t ldc, int64_t rows,
             int64_t columns) {
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t j = 0; j < columns; ++j)
      c[r * ldc + j] += tile[r * 16 + j];
}

/// Blocks of 32 x 32: C in tiles 0-3, A in 4-5, B in 6-7; one depth step
/// is four tile products of 16 x 16 x 64.
KILN_AMX_TARGET void gemmAmx(int64_t m, int64_t n, int64_t k, const int8_t *a,
                             int64_t lda, const int8_t *packed, int64_t n0,
                             int32_t *c, int64_t ldc) {
  TileConfig config;
  memset(&config, 0, sizeof config);
  config.palette = 1;
  for (int t = 0; t < 8; ++t) {
    config.bytesPerRow[t] = 64;
    config.rows[t] = 16;
  }
  _tile_loadconfig(&config);
  int64_t depth = int8PackedDepth(k), steps = depth / 64;
  int64_t panelBytes = depth * kInt8PanelColumns;
  alignas(64) int8_t aBuffer[2][16 * 64];
  alignas(64) int32_t cBuffer[16 * 16];
  for (int64_t nb = 0; nb < n; nb += 32) {
    int64_t columns = minOf(32, n - nb);
    bool twoPanels = columns > 16;
    const int8_t *b0 = packed + (n0 + nb) / 16 * panelBytes;
    const int8_t *b1 = b0 + panelBytes;
    for (int64_t mb = 0; mb < m; mb += 32) {
      int64_t rows = minOf(32, m - mb);
      bool twoTiles = rows > 16;
      _tile_zero(0);
      _tile_zero(1);
      _tile_zero(2);
      _tile_zero(3);
      for (int64_t s = 0; s < steps; ++s) {
        int64_t stepDepth = minOf(64, k - 64 * s), stride;
        const int8_t *top =
            aTileSource(a + mb * lda + 64 * s, lda, minOf(16, rows), stepDepth,
                        aBuffer[0], &stride);
        _tile_loadd(4, top, stride);
        _tile_loadd(6, b0 + s * 1024, 64);
        _tile_dpbssd(0, 4, 6);
        if (twoPanels) {
          _tile_loadd(7, b1 + s * 1024, 64);
          _tile_dpbssd(1, 4, 7);
        }
        if (twoTiles) {
          const int8_t *bottom =
              aTileSource(a + (mb + 16) * lda + 64 * s, lda, rows - 16,
                          stepDepth, aBuffer[1], &stride);
          _tile_loadd(5, bottom, stride);
          _tile_dpbssd(2, 5, 6);
          if (twoPanels)
            _tile_dpbssd(3, 5, 7);
        }
      }
      // Tile numbers must be constants: one store per tile. C is added to
      // (the generic this replaces accumulates), so tiles go through a
      // buffer.
#define KILN_AMX_STORE(T, ROW, COLUMN)                                         \
  {                                                                            \
    int64_t tileRows = minOf(16, rows - (ROW)),                                \
            tileColumns = minOf(16, columns - (COLUMN));                       \
    _tile_stored(T, cBuffer, 64);                                              \
    addTile(cBuffer, c + (mb + (ROW)) * ldc + nb + (COLUMN), ldc, tileRows,    \
            tileColumns);                                                      \
  }
      KILN_AMX_STORE(0, 0, 0)
      if (twoPanels)
        KILN_AMX_STORE(1, 0, 16)
      if (twoTiles) {
        KILN_AMX_STORE(2, 16, 0)
        if (twoPanels)
          KILN_AMX_STORE(3, 16, 16)
      }
#undef KILN_AMX_STORE
    }
  }
  _tile_release();
}

//===----------------------------------------------------------------------===//
// Packing at run time
//===----------------------------------------------------------------------===//

/// Packs B (k x n, rows `ldb` apart) into `packed` in the layout of a k x n
/// matrix: what the compiler does for constant weights, done here for a
/// block of an activation. Whole 4 x 16 groups are four byte and word
/// interleaves (SSE2, in every x86-64); the column sums are left to
/// vnniColumnSums, the only path that reads them. Only AMX reads the depth
/// padding (whole steps of 64); the other paths stop at the last group.
void packBlock(const int8_t *b, int64_t ldb, int64_t k, int64_t n,
               int8_t *packed, bool padDepth) {
  int64_t depth = int8PackedDepth(k), panels = int8PackedColumns(n) / 16;
  int64_t groups = padDepth ? depth / 4 : (k + 3) / 4;
  for (int64_t p = 0; p < panels; ++p) {
    int8_t *panel = packed + p * depth * kInt8PanelColumns;
    const int8_t *columns = b + 16 * p;
    int64_t width = minOf(16, n - 16 * p);
    for (int64_t g = 0; g < groups; ++g) {
      int8_t *out = panel + g * 64;
      if (4 * g + 3 < k && width == 16) {
        const int8_t *row = columns + 4 * g * ldb;
        __m128i r0 = _mm_loadu_si128(reinterpret_cast<const __m128i *>(row));
        __m128i r1 =
            _mm_loadu_si128(reinterpret_cast<const __m128i *>(row + ldb));
        __m128i r2 =
            _mm_loadu_si128(reinterpret_cast<const __m128i *>(row + 2 * ldb));
        __m128i r3 =
            _mm_loadu_si128(reinterpret_cast<const __m128i *>(row + 3 * ldb));
        __m128i low01 = _mm_unpacklo_epi8(r0, r1), high01 = _mm_unpackhi_epi8(r0, r1);
        __m128i low23 = _mm_unpacklo_epi8(r2, r3), high23 = _mm_unpackhi_epi8(r2, r3);
        auto *target = reinterpret_cast<__m128i *>(out);
        _mm_storeu_si128(target, _mm_unpacklo_epi16(low01, low23));
        _mm_storeu_si128(target + 1, _mm_unpackhi_epi16(low01, low23));
        _mm_storeu_si128(target + 2, _mm_unpacklo_epi16(high01, high23));
        _mm_storeu_si128(target + 3, _mm_unpackhi_epi16(high01, high23));
        continue;
      }
      for (int j = 0; j < 16; ++j)
        for (int i = 0; i < 4; ++i)
          out[4 * j + i] = 4 * g + i < k && j < width
                               ? columns[(4 * g + i) * ldb + j]
                               : int8_t(0);
    }
  }
}

/// The column sums of a packed k x n block: one vpdpbusd with ones per
/// 64 bytes.
KILN_VNNI_TARGET void vnniColumnSums(int8_t *packed, int64_t k, int64_t n) {
  int64_t depth = int8PackedDepth(k), panels = int8PackedColumns(n) / 16;
  int32_t *sums =
      reinterpret_cast<int32_t *>(packed + int8PackedSumsOffset(k, n));
  const __m512i ones = _mm512_set1_epi8(1);
  for (int64_t p = 0; p < panels; ++p) {
    const int8_t *panel = packed + p * depth * kInt8PanelColumns;
    __m512i sum = _mm512_setzero_si512();
    for (int64_t g = 0; g < (k + 3) / 4; ++g)
      sum = _mm512_dpbusd_epi32(sum, ones, _mm512_loadu_si512(panel + g * 64));
    _mm512_storeu_si512(sums + 16 * p, sum);
  }
}

/// Blocks of B packed at a time: 64 columns by 1024 of depth (66 KiB on
/// the stack).
constexpr int64_t kBlockColumns = 64, kBlockDepth = 1024;

} // namespace

extern "C" int kiln_int8_gemm_isa(void) { return chosenIsa<detectIsa>(); }

extern "C" void kiln_int8_gemm_with(int isa, int64_t m, int64_t n, int64_t k,
                                    const int8_t *a, int64_t lda,
                                    const int8_t *packed, int64_t packedN,
                                    int64_t n0, int32_t *c, int64_t ldc) {
  if (m <= 0 || n <= 0)
    return;
  const int32_t *sums = reinterpret_cast<const int32_t *>(
                            packed + int8PackedSumsOffset(k, packedN)) +
                        n0;
  // The fast paths read whole panels: a slice must start on one.
  if (n0 % kInt8PanelColumns != 0)
    isa = KILN_INT8_ISA_PORTABLE;
  switch (isa) {
  case KILN_INT8_ISA_AMX:
    return gemmAmx(m, n, k, a, lda, packed, n0, c, ldc);
  case KILN_INT8_ISA_VNNI:
    return gemmVnni(m, n, k, a, lda, packed, sums, n0, c, ldc);
  default:
    return gemmPortable(m, n, k, a, lda, packed, n0, c, ldc);
  }
}

extern "C" void kiln_int8_gemm(int64_t m, int64_t n, int64_t k, const int8_t *a,
                               int64_t lda, const int8_t *packed,
                               int64_t packedN, int64_t n0, int32_t *c,
                               int64_t ldc) {
  kiln_int8_gemm_with(chosenIsa<detectIsa>(), m, n, k, a, lda, packed, packedN,
                      n0, c, ldc);
}

extern "C" void kiln_int8_gemm_batched_with(
    int isa, int64_t batch, int64_t m, int64_t n, int64_t k, const int8_t *a,
    int64_t lda, const int8_t *b, int64_t ldb, int64_t batchB, int32_t *c,
    int64_t ldc, int64_t batchC) {
  alignas(64) int8_t block[int8PackedBytes(kBlockDepth, kBlockColumns)];
  for (int64_t item = 0; item < batch; ++item)
    for (int64_t nb = 0; nb < n; nb += kBlockColumns)
      for (int64_t kb = 0; kb < k; kb += kBlockDepth) {
        int64_t columns = minOf(kBlockColumns, n - nb);
        int64_t depth = minOf(kBlockDepth, k - kb);
        packBlock(b + item * batchB + kb * ldb + nb, ldb, depth, columns,
                  block, isa == KILN_INT8_ISA_AMX);
        if (isa == KILN_INT8_ISA_VNNI)
          vnniColumnSums(block, depth, columns);
        kiln_int8_gemm_with(isa, m, columns, depth, a + kb, lda, block,
                            columns, 0, c + item * batchC + nb, ldc);
      }
}

extern "C" void kiln_int8_gemm_batched(int64_t batch, int64_t m, int64_t n,
                                       int64_t k, const int8_t *a,
                                       int64_t lda, const int8_t *b,
                                       int64_t ldb, int64_t batchB, int32_t *c,
                                       int64_t ldc, int64_t batchC) {
  kiln_int8_gemm_batched_with(chosenIsa<detectIsa>(), batch, m, n, k, a, lda, b,
                              ldb, batchB, c, ldc, batchC);
}
