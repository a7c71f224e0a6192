//===- CpuFeatures.h - What the kernel library may use on this CPU --------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// CPUID and XCR0 read once per kernel family (Int8Gemm.cpp,
// WeightOnlyGemm.cpp), and the KILN_CPU_ISA cap the tests use to run every
// path on one machine. Plain C++ without dependencies: the kernels are
// compiled to bitcode and linked into generated code.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_CODEGEN_CPU_KERNELS_CPUFEATURES_H
#define KILN_COMPILER_CODEGEN_CPU_KERNELS_CPUFEATURES_H

#include <cpuid.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

namespace kiln::cpu_kernels {

struct CpuFeatures {
  bool avx512 = false;  ///< AVX-512 F and BW, with the OS saving ZMM state.
  bool vnni = false;    ///< And AVX-512 VNNI.
  bool amxInt8 = false; ///< AMX-TILE and AMX-INT8 in CPUID and XCR0 (Linux
                        ///< still has to grant the tile data on request).
};

inline CpuFeatures detectCpuFeatures() {
  CpuFeatures features;
  unsigned eax, ebx, ecx, edx;
  if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx) || !(ecx & (1u << 27)))
    return features; // No OSXSAVE: no AVX state at all.
  uint32_t low, high;
  __asm__ volatile("xgetbv" : "=a"(low), "=d"(high) : "c"(0));
  uint64_t xcr0 = uint64_t(high) << 32 | low;
  if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx))
    return features;
  features.avx512 = (ebx & (1u << 16)) && (ebx & (1u << 30)) && // F, BW
                    (xcr0 & 0xe6) == 0xe6; // SSE, AVX, opmask, ZMM state
  features.vnni = features.avx512 && (ecx & (1u << 11));
  features.amxInt8 = (edx & (1u << 24)) && (edx & (1u << 25)) &&
                     (xcr0 & (3ull << 17)) == (3ull << 17);
  return features;
}

/// KILN_CPU_ISA's cap: 1 for "portable", 2 for "avx512" or "vnni", 3 when
/// unset or anything else (no cap).
inline int cpuIsaCap() {
  const char *cap = getenv("KILN_CPU_ISA");
  if (!cap)
    return 3;
  if (strcmp(cap, "portable") == 0)
    return 1;
  if (strcmp(cap, "avx512") == 0 || strcmp(cap, "vnni") == 0)
    return 2;
  return 3;
}

/// Detect() run once per process and remembered (per kernel family). Every
/// thread computes the same answer, so a race only repeats the work.
template <int (*Detect)()> int chosenIsa() {
  static int chosen = 0;
  int isa = __atomic_load_n(&chosen, __ATOMIC_RELAXED);
  if (isa == 0) {
    isa = Detect();
    __atomic_store_n(&chosen, isa, __ATOMIC_RELAXED);
  }
  return isa;
}

} // namespace kiln::cpu_kernels

#endif // KILN_COMPILER_CODEGEN_CPU_KERNELS_CPUFEATURES_H
