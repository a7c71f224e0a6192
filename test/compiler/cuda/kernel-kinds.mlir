// The CUDA C++ emitter picks a kernel shape per loop nest: one test per
// kind, checking the parts that make it that kind (and fast).
//
// RUN: kilnc compile %s --entry elementwise --target cuda --emit=cuda | FileCheck %s --check-prefix=EW
// RUN: kilnc compile %s --entry gemm_bias_relu --target cuda --emit=cuda | FileCheck %s --check-prefix=GEMM
// RUN: kilnc compile %s --entry softmax_rows --target cuda --emit=cuda | FileCheck %s --check-prefix=WARP
// RUN: kilnc compile %s --entry sum_all --target cuda --emit=cuda | FileCheck %s --check-prefix=BLOCK
// RUN: kilnc compile %s --entry sum_short_rows --target cuda --emit=cuda | FileCheck %s --check-prefix=SERIAL
// RUN: kilnc compile %s --entry half_tanh --target cuda --emit=cuda | FileCheck %s --check-prefix=HALF

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

// A matmul tiles 64x64 outputs through shared memory; its zero fill becomes
// the accumulators' start instead of a kernel; the epilogue follows.
// GEMM: // kiln_k0: contraction
// GEMM: __shared__ float As[16][68];
// GEMM: acc[i][j] = (dm < 128 && dn < 96) ? 0.0f : 0.0f;
// GEMM: for (int k0 = 0; k0 < 64; k0 += 16) {
// GEMM: __syncthreads();
// GEMM: // kiln_k1: elementwise
// GEMM: kiln_maximum(
// GEMM-NOT: kiln_k2
// GEMM: // launch kiln_k0 grid 2 2 1 block 256 1 1
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
