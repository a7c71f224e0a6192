//===- WeightOnlyGemm.h - Weight-only quantized GEMM kernel ------*- C++
//-*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The C interface of WeightOnlyGemm.cpp. Generated code calls
// kiln_weight_only_gemm; the tests call kiln_weight_only_gemm_with to run
// each instruction set.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_CODEGEN_CPU_KERNELS_WEIGHTONLYGEMM_H
#define KILN_COMPILER_CODEGEN_CPU_KERNELS_WEIGHTONLYGEMM_H

#include <stdint.h>

#define KILN_WEIGHT_ONLY_ISA_PORTABLE 1
#define KILN_WEIGHT_ONLY_ISA_AVX512 2

extern "C" {
/// The instruction set kiln_weight_only_gemm uses in this process.
int kiln_weight_only_gemm_isa(void);

/// C[i][j] += sum_l A[i][l] * Q[l][n0 + j] * S[l / group][n0 + j] for
/// i < m, j < n, l < k, in f32. A: rows `lda` floats apart. Q and S:
/// packed (WeightOnlyGemmLayout.h) from a k x packedN matrix of `bits`
/// (4 or 8) bit values. C: rows `ldc` floats apart.
void kiln_weight_only_gemm(int64_t m, int64_t n, int64_t k, const float *a,
                           int64_t lda, const uint8_t *packed, int64_t packedN,
                           int64_t n0, int64_t group, int64_t bits, float *c,
                           int64_t ldc);

/// The same on instruction set `isa`, which the CPU must have.
void kiln_weight_only_gemm_with(int isa, int64_t m, int64_t n, int64_t k,
                                const float *a, int64_t lda,
                                const uint8_t *packed, int64_t packedN,
                                int64_t n0, int64_t group, int64_t bits,
                                float *c, int64_t ldc);
}

#endif // KILN_COMPILER_CODEGEN_CPU_KERNELS_WEIGHTONLYGEMM_H
