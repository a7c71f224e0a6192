//===- AmxEmulation.h - Software AMX tiles for testing ------------*- C++
//-*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Int8Gemm.cpp compiled with KILN_INT8_GEMM_EMULATE_AMX runs its AMX path
// on these instead of tile registers, so that the blocking, the tile
// addressing and the edge handling are tested on machines without AMX
// (test/unit/compiler: KilnInt8GemmAmxEmulationTests). The semantics
// follow Intel's description of LDTILECFG, TILELOADD, TILESTORED,
// TILEZERO and TDPBSSD; only what the kernel uses is here.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_CODEGEN_CPU_KERNELS_AMXEMULATION_H
#define KILN_COMPILER_CODEGEN_CPU_KERNELS_AMXEMULATION_H

#include <stdint.h>
#include <string.h>

namespace kiln::cpu_kernels::emulated {

struct Tile {
  int rows = 0, bytesPerRow = 0;
  uint8_t data[16][64];
};

inline Tile tiles[8];

inline void loadConfig(const void *config) {
  const uint8_t *bytes = static_cast<const uint8_t *>(config);
  for (int t = 0; t < 8; ++t) {
    uint16_t bytesPerRow;
    memcpy(&bytesPerRow, bytes + 16 + 2 * t, 2);
    tiles[t].bytesPerRow = bytesPerRow;
    tiles[t].rows = bytes[48 + t];
  }
}

inline void load(int t, const void *base, int64_t stride) {
  for (int r = 0; r < tiles[t].rows; ++r)
    memcpy(tiles[t].data[r], static_cast<const uint8_t *>(base) + r * stride,
           size_t(tiles[t].bytesPerRow));
}

inline void store(int t, void *base, int64_t stride) {
  for (int r = 0; r < tiles[t].rows; ++r)
    memcpy(static_cast<uint8_t *>(base) + r * stride, tiles[t].data[r],
           size_t(tiles[t].bytesPerRow));
}

inline void zero(int t) { memset(tiles[t].data, 0, sizeof tiles[t].data); }

/// C[m][n] += sum over k of A[m][4k + i] * B[k][4n + i], i < 4, signed.
inline void dotSignedBytes(int c, int a, int b) {
  for (int m = 0; m < tiles[c].rows; ++m)
    for (int n = 0; n < tiles[c].bytesPerRow / 4; ++n) {
      int32_t sum;
      memcpy(&sum, &tiles[c].data[m][4 * n], 4);
      for (int k = 0; k < tiles[a].bytesPerRow / 4; ++k)
        for (int i = 0; i < 4; ++i)
          sum += int32_t(int8_t(tiles[a].data[m][4 * k + i])) *
                 int32_t(int8_t(tiles[b].data[k][4 * n + i]));
      memcpy(&tiles[c].data[m][4 * n], &sum, 4);
    }
}

} // namespace kiln::cpu_kernels::emulated

#undef _tile_loadconfig
#undef _tile_loadd
#undef _tile_stored
#undef _tile_zero
#undef _tile_dpbssd
#undef _tile_release
#define _tile_loadconfig(config)                                               \
  ::kiln::cpu_kernels::emulated::loadConfig(config)
#define _tile_loadd(t, base, stride)                                           \
  ::kiln::cpu_kernels::emulated::load(t, base, stride)
#define _tile_stored(t, base, stride)                                          \
  ::kiln::cpu_kernels::emulated::store(t, base, stride)
#define _tile_zero(t) ::kiln::cpu_kernels::emulated::zero(t)
#define _tile_dpbssd(c, a, b)                                                  \
  ::kiln::cpu_kernels::emulated::dotSignedBytes(c, a, b)
#define _tile_release()

#endif // KILN_COMPILER_CODEGEN_CPU_KERNELS_AMXEMULATION_H
