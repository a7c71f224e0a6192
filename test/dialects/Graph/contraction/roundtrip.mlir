// RUN: kiln-opt %s | kiln-opt | FileCheck %s
// RUN: kiln-opt %s --mlir-print-op-generic | kiln-opt | FileCheck %s

// Round trip of the contraction ops (matmul, gemm, conv2d) through the custom
// and the generic printer.

//===----------------------------------------------------------------------===//
// matmul
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func @matmul_2d
// CHECK-SAME: (%[[A:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<8x16xf32>)
func.func @matmul_2d(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>) -> tensor<4x16xf32> {
  // CHECK: %[[R:.*]] = kiln.matmul %[[A]], %[[B]] : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  // CHECK: return %[[R]]
  %0 = kiln.matmul %a, %b : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// Batch dimensions broadcast with NumPy rules, including a missing one.
// CHECK-LABEL: func @matmul_batched
// CHECK-SAME: (%[[A:.*]]: tensor<8x128x64xf16>, %[[B:.*]]: tensor<64x32xf16>, %[[C:.*]]: tensor<2x1x4x8xbf16>, %[[D:.*]]: tensor<3x8x5xbf16>)
func.func @matmul_batched(%a: tensor<8x128x64xf16>, %b: tensor<64x32xf16>,
                          %c: tensor<2x1x4x8xbf16>, %d: tensor<3x8x5xbf16>)
    -> (tensor<8x128x32xf16>, tensor<2x3x4x5xbf16>) {
  // CHECK: %[[R0:.*]] = kiln.matmul %[[A]], %[[B]] : (tensor<8x128x64xf16>, tensor<64x32xf16>) -> tensor<8x128x32xf16>
  %0 = kiln.matmul %a, %b : (tensor<8x128x64xf16>, tensor<64x32xf16>) -> tensor<8x128x32xf16>
  // CHECK: %[[R1:.*]] = kiln.matmul %[[C]], %[[D]] : (tensor<2x1x4x8xbf16>, tensor<3x8x5xbf16>) -> tensor<2x3x4x5xbf16>
  %1 = kiln.matmul %c, %d : (tensor<2x1x4x8xbf16>, tensor<3x8x5xbf16>) -> tensor<2x3x4x5xbf16>
  // CHECK: return %[[R0]], %[[R1]]
  return %0, %1 : tensor<8x128x32xf16>, tensor<2x3x4x5xbf16>
}

// matmul accepts integer tensors (quantised models).
// CHECK-LABEL: func @matmul_integer
// CHECK-SAME: (%[[A:.*]]: tensor<2x3xi8>, %[[B:.*]]: tensor<3x4xi8>, %[[C:.*]]: tensor<5x2x3xi32>, %[[D:.*]]: tensor<5x3x1xi32>, %[[E:.*]]: tensor<1x6xi64>, %[[F:.*]]: tensor<6x1xi64>)
func.func @matmul_integer(%a: tensor<2x3xi8>, %b: tensor<3x4xi8>,
                          %c: tensor<5x2x3xi32>, %d: tensor<5x3x1xi32>,
                          %e: tensor<1x6xi64>, %f: tensor<6x1xi64>) {
  // CHECK: kiln.matmul %[[A]], %[[B]] : (tensor<2x3xi8>, tensor<3x4xi8>) -> tensor<2x4xi32>
  %0 = kiln.matmul %a, %b : (tensor<2x3xi8>, tensor<3x4xi8>) -> tensor<2x4xi32>
  // CHECK: kiln.matmul %[[C]], %[[D]] : (tensor<5x2x3xi32>, tensor<5x3x1xi32>) -> tensor<5x2x1xi32>
  %1 = kiln.matmul %c, %d : (tensor<5x2x3xi32>, tensor<5x3x1xi32>) -> tensor<5x2x1xi32>
  // CHECK: kiln.matmul %[[E]], %[[F]] : (tensor<1x6xi64>, tensor<6x1xi64>) -> tensor<1x1xi64>
  %2 = kiln.matmul %e, %f : (tensor<1x6xi64>, tensor<6x1xi64>) -> tensor<1x1xi64>
  return
}

// CHECK-LABEL: func @matmul_f64
// CHECK: kiln.matmul %{{.*}}, %{{.*}} : (tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>
func.func @matmul_f64(%a: tensor<2x2xf64>) -> tensor<2x2xf64> {
  %0 = kiln.matmul %a, %a : (tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>
  return %0 : tensor<2x2xf64>
}

//===----------------------------------------------------------------------===//
// gemm
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func @gemm_plain
// CHECK-SAME: (%[[A:.*]]: tensor<4x16xf32>, %[[B:.*]]: tensor<16x32xf32>)
func.func @gemm_plain(%a: tensor<4x16xf32>, %b: tensor<16x32xf32>) -> tensor<4x32xf32> {
  // Default alpha/beta and absent flags are not printed.
  // CHECK: %[[R:.*]] = kiln.gemm %[[A]], %[[B]] : (tensor<4x16xf32>, tensor<16x32xf32>) -> tensor<4x32xf32>
  // CHECK: return %[[R]]
  %0 = kiln.gemm %a, %b : (tensor<4x16xf32>, tensor<16x32xf32>) -> tensor<4x32xf32>
  return %0 : tensor<4x32xf32>
}

// PyTorch Linear: trans_b with the bias as C.
// CHECK-LABEL: func @gemm_linear
// CHECK-SAME: (%[[X:.*]]: tensor<4x16xf32>, %[[W:.*]]: tensor<32x16xf32>, %[[BIAS:.*]]: tensor<32xf32>)
func.func @gemm_linear(%x: tensor<4x16xf32>, %w: tensor<32x16xf32>, %bias: tensor<32xf32>) -> tensor<4x32xf32> {
  // CHECK: %[[R:.*]] = kiln.gemm %[[X]], %[[W]], %[[BIAS]] {trans_b} : (tensor<4x16xf32>, tensor<32x16xf32>, tensor<32xf32>) -> tensor<4x32xf32>
  // CHECK: return %[[R]]
  %0 = kiln.gemm %x, %w, %bias {trans_b} : (tensor<4x16xf32>, tensor<32x16xf32>, tensor<32xf32>) -> tensor<4x32xf32>
  return %0 : tensor<4x32xf32>
}

// CHECK-LABEL: func @gemm_variants
// CHECK-SAME: (%[[AT:.*]]: tensor<16x4xf16>, %[[BT:.*]]: tensor<32x16xf16>, %[[C2:.*]]: tensor<4x32xf16>, %[[C1:.*]]: tensor<4x1xf16>, %[[CS:.*]]: tensor<f16>, %[[B:.*]]: tensor<16x32xf16>)
func.func @gemm_variants(%at: tensor<16x4xf16>, %bt: tensor<32x16xf16>, %c2: tensor<4x32xf16>,
                         %c1: tensor<4x1xf16>, %cs: tensor<f16>, %b: tensor<16x32xf16>) {
  // CHECK: kiln.gemm %[[AT]], %[[B]], %[[C2]] {trans_a} : (tensor<16x4xf16>, tensor<16x32xf16>, tensor<4x32xf16>) -> tensor<4x32xf16>
  %0 = kiln.gemm %at, %b, %c2 {trans_a} : (tensor<16x4xf16>, tensor<16x32xf16>, tensor<4x32xf16>) -> tensor<4x32xf16>
  // CHECK: kiln.gemm %[[AT]], %[[BT]], %[[C1]] {trans_a, trans_b} : (tensor<16x4xf16>, tensor<32x16xf16>, tensor<4x1xf16>) -> tensor<4x32xf16>
  %1 = kiln.gemm %at, %bt, %c1 {trans_a, trans_b} : (tensor<16x4xf16>, tensor<32x16xf16>, tensor<4x1xf16>) -> tensor<4x32xf16>
  // CHECK: kiln.gemm %[[AT]], %[[BT]], %[[CS]] {alpha = 5.000000e-01 : f64, beta = 2.000000e+00 : f64, trans_a, trans_b} : (tensor<16x4xf16>, tensor<32x16xf16>, tensor<f16>) -> tensor<4x32xf16>
  %2 = kiln.gemm %at, %bt, %cs {alpha = 0.5 : f64, beta = 2.0 : f64, trans_a, trans_b} : (tensor<16x4xf16>, tensor<32x16xf16>, tensor<f16>) -> tensor<4x32xf16>
  // CHECK: kiln.gemm %[[AT]], %[[BT]] {alpha = 3.000000e+00 : f64, trans_a, trans_b} : (tensor<16x4xf16>, tensor<32x16xf16>) -> tensor<4x32xf16>
  %3 = kiln.gemm %at, %bt {alpha = 3.0 : f64, trans_a, trans_b} : (tensor<16x4xf16>, tensor<32x16xf16>) -> tensor<4x32xf16>
  return
}

// CHECK-LABEL: func @gemm_bf16_f64
// CHECK: kiln.gemm %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2x3xbf16>, tensor<3x5xbf16>, tensor<5xbf16>) -> tensor<2x5xbf16>
// CHECK: kiln.gemm %{{.*}}, %{{.*}} {trans_b} : (tensor<1x2xf64>, tensor<7x2xf64>) -> tensor<1x7xf64>
func.func @gemm_bf16_f64(%a: tensor<2x3xbf16>, %b: tensor<3x5xbf16>, %c: tensor<5xbf16>,
                         %d: tensor<1x2xf64>, %e: tensor<7x2xf64>) {
  %0 = kiln.gemm %a, %b, %c : (tensor<2x3xbf16>, tensor<3x5xbf16>, tensor<5xbf16>) -> tensor<2x5xbf16>
  %1 = kiln.gemm %d, %e {trans_b} : (tensor<1x2xf64>, tensor<7x2xf64>) -> tensor<1x7xf64>
  return
}

//===----------------------------------------------------------------------===//
// conv2d
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func @conv2d_stem
// CHECK-SAME: (%[[X:.*]]: tensor<1x3x224x224xf32>, %[[W:.*]]: tensor<64x3x7x7xf32>, %[[B:.*]]: tensor<64xf32>)
func.func @conv2d_stem(%x: tensor<1x3x224x224xf32>, %w: tensor<64x3x7x7xf32>, %b: tensor<64xf32>)
    -> tensor<1x64x112x112xf32> {
  // CHECK: %[[R:.*]] = kiln.conv2d %[[X]], %[[W]], %[[B]] {pads = array<i64: 3, 3, 3, 3>, strides = array<i64: 2, 2>} : (tensor<1x3x224x224xf32>, tensor<64x3x7x7xf32>, tensor<64xf32>) -> tensor<1x64x112x112xf32>
  // CHECK: return %[[R]]
  %0 = kiln.conv2d %x, %w, %b {strides = array<i64: 2, 2>, pads = array<i64: 3, 3, 3, 3>}
      : (tensor<1x3x224x224xf32>, tensor<64x3x7x7xf32>, tensor<64xf32>) -> tensor<1x64x112x112xf32>
  return %0 : tensor<1x64x112x112xf32>
}

// Default attributes (strides 1, no padding, dilation 1, one group) are not
// printed, whether written or not.
// CHECK-LABEL: func @conv2d_defaults
// CHECK-SAME: (%[[X:.*]]: tensor<2x4x8x8xf16>, %[[W:.*]]: tensor<6x4x3x3xf16>)
func.func @conv2d_defaults(%x: tensor<2x4x8x8xf16>, %w: tensor<6x4x3x3xf16>) {
  // CHECK: kiln.conv2d %[[X]], %[[W]] : (tensor<2x4x8x8xf16>, tensor<6x4x3x3xf16>) -> tensor<2x6x6x6xf16>
  %0 = kiln.conv2d %x, %w : (tensor<2x4x8x8xf16>, tensor<6x4x3x3xf16>) -> tensor<2x6x6x6xf16>
  // CHECK: kiln.conv2d %[[X]], %[[W]] : (tensor<2x4x8x8xf16>, tensor<6x4x3x3xf16>) -> tensor<2x6x6x6xf16>
  %1 = kiln.conv2d %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>,
                           dilations = array<i64: 1, 1>, groups = 1}
      : (tensor<2x4x8x8xf16>, tensor<6x4x3x3xf16>) -> tensor<2x6x6x6xf16>
  return
}

// Asymmetric padding and strides, dilation, grouped and depthwise convolution.
// CHECK-LABEL: func @conv2d_variants
// CHECK-SAME: (%[[X:.*]]: tensor<1x8x10x12xbf16>, %[[WG:.*]]: tensor<4x4x3x3xbf16>, %[[WD:.*]]: tensor<8x1x3x3xbf16>, %[[BD:.*]]: tensor<8xbf16>, %[[W1:.*]]: tensor<2x8x1x1xbf16>)
func.func @conv2d_variants(%x: tensor<1x8x10x12xbf16>, %wg: tensor<4x4x3x3xbf16>,
                           %wd: tensor<8x1x3x3xbf16>, %bd: tensor<8xbf16>,
                           %w1: tensor<2x8x1x1xbf16>) {
  // 1x1 window: (10 + 1 + 2 - 1) / 1 + 1 = 13 and (12 + 0 + 1 - 1) / 2 + 1 = 7.
  // CHECK: kiln.conv2d %[[X]], %[[W1]] {pads = array<i64: 1, 0, 2, 1>, strides = array<i64: 1, 2>} : (tensor<1x8x10x12xbf16>, tensor<2x8x1x1xbf16>) -> tensor<1x2x13x7xbf16>
  %0 = kiln.conv2d %x, %w1 {strides = array<i64: 1, 2>, pads = array<i64: 1, 0, 2, 1>}
      : (tensor<1x8x10x12xbf16>, tensor<2x8x1x1xbf16>) -> tensor<1x2x13x7xbf16>
  // Dilation 2 makes the 3x3 window span 5: 10 - 5 + 1 = 6, 12 - 5 + 1 = 8.
  // CHECK: kiln.conv2d %[[X]], %[[WG]] {dilations = array<i64: 2, 2>, groups = 2 : i64} : (tensor<1x8x10x12xbf16>, tensor<4x4x3x3xbf16>) -> tensor<1x4x6x8xbf16>
  %1 = kiln.conv2d %x, %wg {dilations = array<i64: 2, 2>, groups = 2}
      : (tensor<1x8x10x12xbf16>, tensor<4x4x3x3xbf16>) -> tensor<1x4x6x8xbf16>
  // Depthwise: groups = C.
  // CHECK: kiln.conv2d %[[X]], %[[WD]], %[[BD]] {groups = 8 : i64, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x8x10x12xbf16>, tensor<8x1x3x3xbf16>, tensor<8xbf16>) -> tensor<1x8x10x12xbf16>
  %2 = kiln.conv2d %x, %wd, %bd {groups = 8, pads = array<i64: 1, 1, 1, 1>}
      : (tensor<1x8x10x12xbf16>, tensor<8x1x3x3xbf16>, tensor<8xbf16>) -> tensor<1x8x10x12xbf16>
  // Rectangular dilation and stride together: (10 - 5) / 2 + 1 = 3 and
  // (12 + 2 - 3) / 3 + 1 = 4.
  // CHECK: kiln.conv2d %[[X]], %[[WG]] {dilations = array<i64: 2, 1>, groups = 2 : i64, pads = array<i64: 0, 1, 0, 1>, strides = array<i64: 2, 3>} : (tensor<1x8x10x12xbf16>, tensor<4x4x3x3xbf16>) -> tensor<1x4x3x4xbf16>
  %3 = kiln.conv2d %x, %wg {dilations = array<i64: 2, 1>, groups = 2, pads = array<i64: 0, 1, 0, 1>, strides = array<i64: 2, 3>}
      : (tensor<1x8x10x12xbf16>, tensor<4x4x3x3xbf16>) -> tensor<1x4x3x4xbf16>
  return
}

// CHECK-LABEL: func @conv2d_f64
// CHECK: kiln.conv2d %{{.*}}, %{{.*}}, %{{.*}} : (tensor<1x1x3x3xf64>, tensor<1x1x3x3xf64>, tensor<1xf64>) -> tensor<1x1x1x1xf64>
func.func @conv2d_f64(%x: tensor<1x1x3x3xf64>, %b: tensor<1xf64>) -> tensor<1x1x1x1xf64> {
  %0 = kiln.conv2d %x, %x, %b : (tensor<1x1x3x3xf64>, tensor<1x1x3x3xf64>, tensor<1xf64>) -> tensor<1x1x1x1xf64>
  return %0 : tensor<1x1x1x1xf64>
}

//===----------------------------------------------------------------------===//
// weight_only_matmul
//===----------------------------------------------------------------------===//

// Scales have ceil(K / group) rows: 3 groups of 32 cover K = 70; a batch
// dimension passes through.
// CHECK-LABEL: func @weight_only_matmul
// CHECK: kiln.weight_only_matmul %{{.*}}, %{{.*}}, %{{.*}} {bits = 4 : i64, group = 32 : i64} : (tensor<2x5x70xf32>, tensor<70x16xi8>, tensor<3x16xf32>) -> tensor<2x5x16xf32>
func.func @weight_only_matmul(%x: tensor<2x5x70xf32>, %q: tensor<70x16xi8>, %s: tensor<3x16xf32>) -> tensor<2x5x16xf32> {
  %0 = kiln.weight_only_matmul %x, %q, %s {bits = 4 : i64, group = 32 : i64}
      : (tensor<2x5x70xf32>, tensor<70x16xi8>, tensor<3x16xf32>) -> tensor<2x5x16xf32>
  return %0 : tensor<2x5x16xf32>
}
