//===- Int8Gemm.h - int8 GEMM kernels generated code calls -------*- C++
//-*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The C interface of Int8Gemm.cpp. Generated code calls kiln_int8_gemm;
// the tests call kiln_int8_gemm_with to run each instruction set.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_CODEGEN_CPU_KERNELS_INT8GEMM_H
#define KILN_COMPILER_CODEGEN_CPU_KERNELS_INT8GEMM_H

#include <stdint.h>

#define KILN_INT8_ISA_PORTABLE 1
#define KILN_INT8_ISA_VNNI 2
#define KILN_INT8_ISA_AMX 3

extern "C" {
/// The instruction set kiln_int8_gemm uses in this process (KILN_INT8_ISA_*).
int kiln_int8_gemm_isa(void);

/// C[i][j] += sum_l A[i][l] * B[l][n0 + j] for i < m, j < n, l < k, int32.
/// A: int8, rows `lda` bytes apart. B: packed (Int8GemmLayout.h) from a
/// k x packedN matrix. C: int32, rows `ldc` elements apart.
void kiln_int8_gemm(int64_t m, int64_t n, int64_t k, const int8_t *a,
                    int64_t lda, const int8_t *packed, int64_t packedN,
                    int64_t n0, int32_t *c, int64_t ldc);

/// The same on instruction set `isa`, which the CPU must have.
void kiln_int8_gemm_with(int isa, int64_t m, int64_t n, int64_t k,
                         const int8_t *a, int64_t lda, const int8_t *packed,
                         int64_t packedN, int64_t n0, int32_t *c, int64_t ldc);

/// C[t][i][j] += sum_l A[i][l] * B[t][l][j] for t < batch: A int8 shared
/// by every item (rows `lda` apart), B int8 row-major (rows `ldb` apart,
/// items `batchB` apart), packed block by block as it goes; C int32 (rows
/// `ldc`, items `batchC` apart). A convolution's weights times its
/// patches, image by image.
void kiln_int8_gemm_batched(int64_t batch, int64_t m, int64_t n, int64_t k,
                            const int8_t *a, int64_t lda, const int8_t *b,
                            int64_t ldb, int64_t batchB, int32_t *c,
                            int64_t ldc, int64_t batchC);

/// The same on instruction set `isa`, which the CPU must have.
void kiln_int8_gemm_batched_with(int isa, int64_t batch, int64_t m, int64_t n,
                                 int64_t k, const int8_t *a, int64_t lda,
                                 const int8_t *b, int64_t ldb, int64_t batchB,
                                 int32_t *c, int64_t ldc, int64_t batchC);
}

#endif // KILN_COMPILER_CODEGEN_CPU_KERNELS_INT8GEMM_H
