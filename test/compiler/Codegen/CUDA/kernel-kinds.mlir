// The CUDA C++ emitter picks a kernel shape per loop nest: one test per
// kind, checking the parts that make it that kind (and fast).
//
// RUN: kilnc compile %s --entry elementwise --target cuda --emit=cuda | FileCheck %s --check-prefix=EW
// RUN: kilnc compile %s --entry gemm_bias_relu --target cuda --emit=cuda | FileCheck %s --check-prefix=GEMM
// RUN: kilnc compile %s --entry softmax_rows --target cuda --emit=cuda | FileCheck %s --check-prefix=WARP
// RUN: kilnc compile %s --entry sum_all --target cuda --emit=cuda | FileCheck %s --check-prefix=BLOCK
// RUN: kilnc compile %s --entry sum_short_rows --target cuda --emit=cuda | FileCheck %s --check-prefix=SERIAL
// RUN: kilnc compile %s --entry half_tanh --target cuda --emit=cuda | FileCheck %s --check-prefix=HALF
// RUN: kilnc compile %s --entry gemm_f16 --target cuda --emit=cuda | FileCheck %s --check-prefix=HGEMM
// RUN: kilnc compile %s --entry gemm_f64 --target cuda --emit=cuda | FileCheck %s --check-prefix=DGEMM
// Tensor cores need sm_80: a target that names an older GPU gets the SIMT
// contraction for every architecture it lists, f32 and f16 alike.
// RUN: kilnc compile %s --entry gemm_bias_relu --target cuda:sm_75,sm_90 --emit=cuda | FileCheck %s --check-prefix=SIMT75
// RUN: kilnc compile %s --entry gemm_f16 --target cuda:sm_75 --emit=cuda | FileCheck %s --check-prefix=SIMT75
// RUN: kilnc compile %s --entry conv_im2col --target cuda --emit=cuda | FileCheck %s --check-prefix=CONV
// RUN: kilnc compile %s --entry epilogue_product_returned --target cuda --emit=cuda | FileCheck %s --check-prefix=KEEP
// RUN: kilnc compile %s --entry epilogue_product_read_later --target cuda --emit=cuda | FileCheck %s --check-prefix=LATER
// RUN: kilnc compile %s --entry epilogue_chain --target cuda --emit=cuda | FileCheck %s --check-prefix=CHAIN
// RUN: kilnc compile %s --entry epilogue_chain --target cuda --emit=cuda --fusion=none | FileCheck %s --check-prefix=UNFUSED

// An elementwise chain over 4x256 with a broadcast bias: one kernel, 128-bit
// loads and stores for the dense operands, a scalar load for the bias.
// EW: // kiln_k0: elementwise
// EW-NEXT: // source ops: step {{[0-9]+}}, fusion#0 (elementwise)
// EW: const float4 v0 = ((const float4 *)(p0 + 0))[t];
// EW: p1[0 + d1_0]
// EW: tanhf(
// EW: ((float4 *)(p{{[0-9]}} + 0))[t] = make_float4(
// The result is written straight into the caller's output: no copy kernel.
// EW-NOT: kiln_k1
// EW: // launch kiln_k0 grid 1 1 1 block 256 1 1 shared 0 args input:0+0:4096 input:1+0:1024 output:0+0:4096
func.func @elementwise(%x: tensor<4x256xf32>, %b: tensor<256xf32>) -> tensor<4x256xf32> {
  %0 = kiln.add %x, %b : (tensor<4x256xf32>, tensor<256xf32>) -> tensor<4x256xf32>
  %1 = kiln.tanh %0 : tensor<4x256xf32>
  %2 = kiln.mul %1, %x : (tensor<4x256xf32>, tensor<4x256xf32>) -> tensor<4x256xf32>
  return %2 : tensor<4x256xf32>
}

// A matmul tiles 64x64 outputs through shared memory on tensor cores: f32
// as 3xTF32 (each operand split into a TF32 high and low part, three MMAs);
// its zero fill becomes the start value instead of a kernel; the bias and
// ReLU run as the tiles are stored (a fused epilogue), so the product never
// reaches memory and there is one kernel.
// GEMM: #include <mma.h>
// GEMM: void kiln_tf32_split(
// GEMM: // kiln_k0: tensor-core contraction
// GEMM-NEXT: // source ops: step {{[0-9]+}}, fusion#{{[0-9]+}} (contraction)
// GEMM-NEXT: // epilogue: step {{[0-9]+}}, fusion#{{[0-9]+}} (contraction)
// The operand tiles (64x32 and 32x64, padded) and later the result tile
// share one buffer; the next K tile is loaded into registers while the
// tensor cores work on the current one.
// GEMM: __shared__ __align__(32) unsigned char tiles[17920];
// GEMM-NEXT: float (*As)[36] = (float (*)[36])tiles;
// GEMM-NEXT: float (*Bs)[68] = (float (*)[68])(tiles + 9216);
// GEMM-NEXT: float (*Cs)[68] = (float (*)[68])tiles;
// GEMM: float aNext[8], bNext[8];
// GEMM: const int kNext = 0;
// GEMM: aNext[l] = (fm < 128 && fk < 64) ? p0[0 + fm * 64 + fk] : (float)0;
// GEMM: bNext[l] = (fk < 64 && fn < 96) ? p1[0 + fk * 96 + fn] : (float)0;
// GEMM: for (int k0 = 0; k0 < 64; k0 += 32) {
// GEMM: As[e / 32][e % 32] = aNext[l];
// GEMM-NEXT: Bs[e / 64][e % 64] = bNext[l];
// GEMM: __syncthreads();
// GEMM-NEXT: if (k0 + 32 < 64) {
// GEMM-NEXT: const int kNext = k0 + 32;
// GEMM: for (int kk = 0; kk < 32; kk += 8) {
// GEMM: nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16, 16, 8, nvcuda::wmma::precision::tf32, nvcuda::wmma::row_major> a, aLo;
// GEMM: kiln_tf32_split(a, aLo);
// GEMM: kiln_tf32_split(b, bLo);
// GEMM: nvcuda::wmma::mma_sync(c[j], aLo, b, c[j]);
// GEMM: nvcuda::wmma::mma_sync(c[j], a, bLo, c[j]);
// GEMM: nvcuda::wmma::mma_sync(c[j], a, b, c[j]);
// GEMM: nvcuda::wmma::store_matrix_sync(&Cs[wm][wn + 16 * j], c[j], 68, nvcuda::wmma::mem_row_major);
// GEMM: const float product = (0.0f) + Cs[r][cc];
// GEMM-NEXT: const int position = 0 + fm * 96 + fn;
// GEMM-NEXT: const int e1 = position % 96;
// GEMM-NEXT: const int e0 = position / 96;
// GEMM-NEXT: const float epi1 = p{{[0-9]}}[0 + e1];
// GEMM-NEXT: float v0 = (product + epi1);
// GEMM-NEXT: float v1 = kiln_maximum(v0, 0.0f);
// GEMM-NEXT: p{{[0-9]}}[0 + e0 * 96 + e1] = v1;
// GEMM-NOT: kiln_k1
// GEMM: // launch kiln_k0 grid 2 2 1 block 256 1 1 {{.*}} output:0+0:49152
func.func @gemm_bias_relu(%a: tensor<128x64xf32>, %w: tensor<64x96xf32>, %b: tensor<96xf32>) -> tensor<128x96xf32> {
  %0 = kiln.matmul %a, %w : (tensor<128x64xf32>, tensor<64x96xf32>) -> tensor<128x96xf32>
  %1 = kiln.add %0, %b : (tensor<128x96xf32>, tensor<96xf32>) -> tensor<128x96xf32>
  %2 = kiln.relu %1 : tensor<128x96xf32>
  return %2 : tensor<128x96xf32>
}

// Row reductions of 512 use a warp per row and shuffles; the -inf and 0
// fills fold into the reductions.
// WARP: warp reduction
// WARP: float acc = (-__int_as_float(0x7f800000));
// WARP: for (int q = lane; q < 512; q += 32) {
// WARP: acc = kiln_maximum(acc, __shfl_xor_sync(0xffffffffu, acc, s));
// WARP: warp reduction
// WARP: acc = (acc + __shfl_xor_sync(0xffffffffu, acc, s));
func.func @softmax_rows(%x: tensor<64x512xf32>) -> tensor<64x512xf32> {
  %0 = kiln.softmax %x axis -1 : tensor<64x512xf32>
  return %0 : tensor<64x512xf32>
}

// One long reduction: a whole block per output, partial sums in shared
// memory.
// BLOCK: // kiln_k0: block reduction
// BLOCK: __shared__ float partial[8];
// BLOCK: for (int q = threadIdx.x; q < 65536; q += blockDim.x) {
// BLOCK: if (lane == 0) partial[threadIdx.x / 32] = acc;
func.func @sum_all(%x: tensor<256x256xf32>) -> tensor<f32> {
  %0 = kiln.reduce_sum %x axes [0, 1] : tensor<256x256xf32> -> tensor<f32>
  return %0 : tensor<f32>
}

// Short rows: a thread per output loops over them.
// SERIAL: // kiln_k0: serial reduction
// SERIAL: for (int d1 = 0; d1 < 3; ++d1) {
// SERIAL: acc0 = s{{[0-9]+}};
func.func @sum_short_rows(%x: tensor<1000x3xf32>) -> tensor<1000xf32> {
  %0 = kiln.reduce_sum %x axes [1] : tensor<1000x3xf32> -> tensor<1000xf32>
  return %0 : tensor<1000xf32>
}

// Half precision is loaded into float registers and rounded on store.
// HALF: #include <cuda_fp16.h>
// HALF: __half *p0 = (__half *)a0;
// HALF: __half2float(p0[
// HALF: tanhf(
// HALF: __float2half_rn(
func.func @half_tanh(%x: tensor<3x5xf16>) -> tensor<3x5xf16> {
  %0 = kiln.tanh %x : tensor<3x5xf16>
  return %0 : tensor<3x5xf16>
}

// f16 operands stay f16 in shared memory and feed m16n16k16 MMAs with f32
// accumulators; the sum is rounded once, on the store.
// HGEMM: // kiln_k0: tensor-core contraction
// HGEMM: __half (*As)[40] = (__half (*)[40])tiles;
// HGEMM: nvcuda::wmma::fragment<nvcuda::wmma::accumulator, 16, 16, 16, float> c[2];
// HGEMM: __half aNext[8], bNext[8];
// HGEMM: aNext[l] = __float2half_rn((fm < 32 && fk < 48) ? __half2float(p0[
// HGEMM: nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16, 16, 16, __half, nvcuda::wmma::row_major> a;
// HGEMM-NOT: kiln_tf32_split(a
// HGEMM: = __float2half_rn((0.0f) + Cs[r][cc]);
func.func @gemm_f16(%a: tensor<32x48xf16>, %b: tensor<48x40xf16>) -> tensor<32x40xf16> {
  %0 = kiln.matmul %a, %b : (tensor<32x48xf16>, tensor<48x40xf16>) -> tensor<32x40xf16>
  return %0 : tensor<32x40xf16>
}

// f64 has no tensor-core path here: the SIMT tiles, 4x4 doubles per thread,
// with the generic's own multiply-add.
// SIMT75-NOT: wmma
// SIMT75: // kiln_k0: contraction
// SIMT75-NOT: wmma
// DGEMM: // kiln_k0: contraction
// DGEMM: __shared__ double As[16][68];
// DGEMM: double acc[4][4];
// DGEMM: acc[i][j] = s1;
// DGEMM-NOT: nvcuda
func.func @gemm_f64(%a: tensor<20x30xf64>, %b: tensor<30x10xf64>) -> tensor<20x10xf64> {
  %0 = kiln.matmul %a, %b : (tensor<20x30xf64>, tensor<30x10xf64>) -> tensor<20x10xf64>
  return %0 : tensor<20x10xf64>
}

// An im2col convolution: N is batch x output pixels (two loops, taken
// flattened and split again for addressing), K the 3x3x4 window. The bias
// add reads the product through a reshape (to N x C x H x W): still a fused
// epilogue, its point found from the product's position.
// CONV: // kiln_k0: elementwise
// CONV: // kiln_k1: tensor-core contraction
// CONV-NEXT: // source ops
// CONV-NEXT: // epilogue:
// CONV: const int fk = kNext + kk, fn = n0 + nn;
// CONV-NEXT: const int d2 = fn % 64;
// CONV-NEXT: const int d0 = (fn / 64);
// CONV: const int position = 0 + d0 * 512 + fm * 64 + d2;
// CONV-NEXT: const int e3 = position % 8;
// CONV: // launch kiln_k1 grid 2 1 1 block 256 1 1
func.func @conv_im2col(%x: tensor<2x4x10x10xf32>, %w: tensor<8x4x3x3xf32>, %b: tensor<8xf32>) -> tensor<2x8x8x8xf32> {
  %0 = kiln.conv2d %x, %w, %b {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x4x10x10xf32>, tensor<8x4x3x3xf32>, tensor<8xf32>) -> tensor<2x8x8x8xf32>
  return %0 : tensor<2x8x8x8xf32>
}

// Epilogues that must not be fused. The product is also a result: the
// caller needs it, so it is stored, and the ReLU is a kernel of its own.
// KEEP: // kiln_k0: tensor-core contraction
// KEEP-NOT: // epilogue
// KEEP: // kiln_k1: elementwise
func.func @epilogue_product_returned(%a: tensor<16x8xf32>, %b: tensor<8x16xf32>) -> (tensor<16x16xf32>, tensor<16x16xf32>) {
  %0 = kiln.matmul %a, %b : (tensor<16x8xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
  %1 = kiln.relu %0 : tensor<16x16xf32>
  return %0, %1 : tensor<16x16xf32>, tensor<16x16xf32>
}

// The product is read again after the next kernel (by the add): it must
// reach memory, so nothing is fused into the contraction.
// LATER: // kiln_k0: tensor-core contraction
// LATER-NOT: // epilogue
// LATER: // kiln_k1:
func.func @epilogue_product_read_later(%a: tensor<16x8xf32>, %b: tensor<8x16xf32>) -> tensor<16x16xf32> {
  %0 = kiln.matmul %a, %b : (tensor<16x8xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
  %1 = kiln.sigmoid %0 : tensor<16x16xf32>
  %2 = kiln.reduce_max %1 axes [1] keep_dims : tensor<16x16xf32> -> tensor<16x1xf32>
  %3 = kiln.add %0, %2 : (tensor<16x16xf32>, tensor<16x1xf32>) -> tensor<16x16xf32>
  return %3 : tensor<16x16xf32>
}

// Two GEMMs with bias and ReLU each: the first epilogue writes over the
// product in place (the second GEMM reads that result), the second writes
// the caller's output. Two kernels in all.
// CHAIN: // kiln_k0: tensor-core contraction
// CHAIN-NEXT: // source ops
// CHAIN-NEXT: // epilogue:
// CHAIN: // kiln_k1: tensor-core contraction
// CHAIN-NEXT: // source ops
// CHAIN-NEXT: // epilogue:
// CHAIN-NOT: // kiln_k2
// --fusion=none keeps every loop nest a kernel, the epilogues too.
// UNFUSED-NOT: // epilogue
// UNFUSED: // kiln_k1: elementwise
// UNFUSED-NOT: // epilogue
func.func @epilogue_chain(%x: tensor<8x32xf32>, %w1: tensor<32x64xf32>, %b1: tensor<64xf32>,
                          %w2: tensor<64x16xf32>, %b2: tensor<16xf32>) -> tensor<8x16xf32> {
  %0 = kiln.matmul %x, %w1 : (tensor<8x32xf32>, tensor<32x64xf32>) -> tensor<8x64xf32>
  %1 = kiln.add %0, %b1 : (tensor<8x64xf32>, tensor<64xf32>) -> tensor<8x64xf32>
  %2 = kiln.relu %1 : tensor<8x64xf32>
  %3 = kiln.matmul %2, %w2 : (tensor<8x64xf32>, tensor<64x16xf32>) -> tensor<8x16xf32>
  %4 = kiln.add %3, %b2 : (tensor<8x16xf32>, tensor<16xf32>) -> tensor<8x16xf32>
  %5 = kiln.relu %4 : tensor<8x16xf32>
  return %5 : tensor<8x16xf32>
}
