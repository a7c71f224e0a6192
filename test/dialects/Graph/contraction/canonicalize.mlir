// RUN: kiln-opt %s -canonicalize="test-convergence" -split-input-file | FileCheck %s

// The contraction ops have no folders: they survive canonicalisation, while
// constant or identity computations feeding them fold, and unused ones are
// erased (the ops are pure).

// CHECK-LABEL: func @matmul_of_folded_constant
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
// CHECK-NEXT: %[[C:.*]] = kiln.constant dense<{{\[}}[2.000000e+00, 3.000000e+00], [4.000000e+00, 5.000000e+00], [6.000000e+00, 7.000000e+00]]> : tensor<3x2xf32>
// CHECK-NEXT: %[[R:.*]] = kiln.matmul %[[X]], %[[C]] : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT: return %[[R]]
func.func @matmul_of_folded_constant(%x: tensor<2x3xf32>) -> tensor<2x2xf32> {
  %a = kiln.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>
  %b = kiln.constant dense<1.0> : tensor<2xf32>
  %w = kiln.add %a, %b : (tensor<3x2xf32>, tensor<2xf32>) -> tensor<3x2xf32>
  %0 = kiln.matmul %x, %w : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

// Constant operands alone do not make a contraction fold.
// CHECK-LABEL: func @matmul_of_constants_is_kept
// CHECK-DAG: %[[A:.*]] = kiln.constant dense<1> : tensor<2x3xi32>
// CHECK-DAG: %[[B:.*]] = kiln.constant dense<2> : tensor<3x4xi32>
// CHECK: %[[R:.*]] = kiln.matmul %[[A]], %[[B]]
// CHECK-NEXT: return %[[R]]
func.func @matmul_of_constants_is_kept() -> tensor<2x4xi32> {
  %a = kiln.constant dense<1> : tensor<2x3xi32>
  %b = kiln.constant dense<2> : tensor<3x4xi32>
  %0 = kiln.matmul %a, %b : (tensor<2x3xi32>, tensor<3x4xi32>) -> tensor<2x4xi32>
  return %0 : tensor<2x4xi32>
}

// -----

// Identity ops around a gemm fold away; the gemm and its attributes stay.
// CHECK-LABEL: func @gemm_identity_operands
// CHECK-SAME: (%[[X:.*]]: tensor<4x16xf32>, %[[W:.*]]: tensor<32x16xf32>, %[[B:.*]]: tensor<32xf32>)
// CHECK-NEXT: %[[R:.*]] = kiln.gemm %[[X]], %[[W]], %[[B]] {alpha = 5.000000e-01 : f64, trans_b} : (tensor<4x16xf32>, tensor<32x16xf32>, tensor<32xf32>) -> tensor<4x32xf32>
// CHECK-NEXT: return %[[R]]
func.func @gemm_identity_operands(%x: tensor<4x16xf32>, %w: tensor<32x16xf32>, %b: tensor<32xf32>) -> tensor<4x32xf32> {
  %one = kiln.constant dense<1.0> : tensor<f32>
  %x1 = kiln.mul %x, %one : (tensor<4x16xf32>, tensor<f32>) -> tensor<4x16xf32>
  %w1 = kiln.cast %w : tensor<32x16xf32> -> tensor<32x16xf32>
  %n = kiln.neg %b : tensor<32xf32>
  %b1 = kiln.neg %n : tensor<32xf32>
  %0 = kiln.gemm %x1, %w1, %b1 {alpha = 0.5 : f64, trans_b} : (tensor<4x16xf32>, tensor<32x16xf32>, tensor<32xf32>) -> tensor<4x32xf32>
  return %0 : tensor<4x32xf32>
}

// -----

// A zero bias is not removed from a gemm (no folder).
// CHECK-LABEL: func @gemm_zero_bias_is_kept
// CHECK: %[[Z:.*]] = kiln.constant dense<0.000000e+00> : tensor<3xf32>
// CHECK-NEXT: kiln.gemm %{{.*}}, %{{.*}}, %[[Z]]
func.func @gemm_zero_bias_is_kept(%a: tensor<2x4xf32>, %b: tensor<4x3xf32>) -> tensor<2x3xf32> {
  %z = kiln.constant dense<0.0> : tensor<3xf32>
  %0 = kiln.gemm %a, %b, %z : (tensor<2x4xf32>, tensor<4x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// A conv2d bias computed from constants (cast f32 -> f16) folds.
// CHECK-LABEL: func @conv2d_of_folded_bias
// CHECK-SAME: (%[[X:.*]]: tensor<1x2x4x4xf16>, %[[W:.*]]: tensor<2x2x3x3xf16>)
// CHECK-NEXT: %[[B:.*]] = kiln.constant dense<[5.000000e-01, -2.500000e-01]> : tensor<2xf16>
// CHECK-NEXT: %[[R:.*]] = kiln.conv2d %[[X]], %[[W]], %[[B]] {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x4x4xf16>, tensor<2x2x3x3xf16>, tensor<2xf16>) -> tensor<1x2x4x4xf16>
// CHECK-NEXT: return %[[R]]
func.func @conv2d_of_folded_bias(%x: tensor<1x2x4x4xf16>, %w: tensor<2x2x3x3xf16>) -> tensor<1x2x4x4xf16> {
  %b32 = kiln.constant dense<[0.5, -0.25]> : tensor<2xf32>
  %b = kiln.cast %b32 : tensor<2xf32> -> tensor<2xf16>
  %0 = kiln.conv2d %x, %w, %b {pads = array<i64: 1, 1, 1, 1>}
      : (tensor<1x2x4x4xf16>, tensor<2x2x3x3xf16>, tensor<2xf16>) -> tensor<1x2x4x4xf16>
  return %0 : tensor<1x2x4x4xf16>
}

// -----

// Unused contractions are erased.
// CHECK-LABEL: func @erase_unused_contractions
// CHECK-NOT: kiln.
// CHECK: return
func.func @erase_unused_contractions(%a: tensor<2x2xf32>, %x: tensor<1x1x3x3xf32>) {
  %0 = kiln.matmul %a, %a : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %1 = kiln.gemm %a, %a {trans_a} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %2 = kiln.conv2d %x, %x : (tensor<1x1x3x3xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x1x1xf32>
  return
}

// -----

// Identity folds apply to contraction results: matmul(a, a) + -0.0 is the
// matmul itself.
// CHECK-LABEL: func @identity_after_matmul
// CHECK-SAME: (%[[A:.*]]: tensor<2x2xf32>)
// CHECK-NEXT: %[[M:.*]] = kiln.matmul %[[A]], %[[A]]
// CHECK-NEXT: return %[[M]]
func.func @identity_after_matmul(%a: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %0 = kiln.matmul %a, %a : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %z = kiln.constant dense<-0.0> : tensor<2xf32>
  %1 = kiln.add %0, %z : (tensor<2x2xf32>, tensor<2xf32>) -> tensor<2x2xf32>
  return %1 : tensor<2x2xf32>
}
