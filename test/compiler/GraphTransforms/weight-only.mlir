// RUN: kiln-opt %s -kiln-weight-only="bits=4 group=2" -split-input-file | FileCheck %s
// RUN: kiln-opt %s -kiln-weight-only="bits=8" -split-input-file | FileCheck %s --check-prefix=INT8

// int4, groups of 2 rows: each group's scale is max|w| / 7 and its values
// round(w / scale), ties to even (2.5 -> 2); an all-zero group has scale 0.
// CHECK-LABEL: func @matmul
// CHECK: %[[Q:.*]] = kiln.constant dense<{{\[}}[2, 2], [7, -7], [-7, 0], [1, 0]]> : tensor<4x2xi8>
// CHECK: %[[S:.*]] = kiln.constant dense<{{\[}}[5.000000e-01, 1.000000e+00], [1.000000e+00, 0.000000e+00]]> : tensor<2x2xf32>
// CHECK: kiln.weight_only_matmul %{{.*}}, %[[Q]], %[[S]] {bits = 4 : i64, group = 2 : i64} : (tensor<3x4xf32>, tensor<4x2xi8>, tensor<2x2xf32>) -> tensor<3x2xf32>
// CHECK-NOT: kiln.matmul
// One group of all rows at int8 (the default group, 128, exceeds K).
// INT8-LABEL: func @matmul
// INT8: kiln.weight_only_matmul {{.*}} {bits = 8 : i64, group = 128 : i64} : (tensor<3x4xf32>, tensor<4x2xi8>, tensor<1x2xf32>) -> tensor<3x2xf32>
func.func @matmul(%x: tensor<3x4xf32>) -> tensor<3x2xf32> {
  %w = kiln.constant dense<[[1.0, 2.5], [3.5, -7.0], [-7.0, 0.0], [0.7, 0.0]]> : tensor<4x2xf32>
  %y = kiln.matmul %x, %w : (tensor<3x4xf32>, tensor<4x2xf32>) -> tensor<3x2xf32>
  return %y : tensor<3x2xf32>
}

// -----

// A gemm with a transposed B: B is transposed at compile time (the same
// values as @matmul); alpha and beta * C become elementwise ops after the
// product.
// CHECK-LABEL: func @gemm
// CHECK: %[[Q:.*]] = kiln.constant dense<{{\[}}[2, 2], [7, -7], [-7, 0], [1, 0]]> : tensor<4x2xi8>
// CHECK: %[[P:.*]] = kiln.weight_only_matmul %{{.*}}, %[[Q]], %{{.*}} {bits = 4 : i64, group = 2 : i64}
// CHECK: %[[A:.*]] = kiln.mul %[[P]], %{{.*}}
// CHECK: %[[C:.*]] = kiln.mul %{{.*}}, %{{.*}}
// CHECK: kiln.add %[[A]], %[[C]]
// CHECK-NOT: kiln.gemm
func.func @gemm(%x: tensor<3x4xf32>, %c: tensor<2xf32>) -> tensor<3x2xf32> {
  %w = kiln.constant dense<[[1.0, 3.5, -7.0, 0.7], [2.5, -7.0, 0.0, 0.0]]> : tensor<2x4xf32>
  %y = kiln.gemm %x, %w, %c {alpha = 0.5 : f64, beta = 2.0 : f64, trans_b} : (tensor<3x4xf32>, tensor<2x4xf32>, tensor<2xf32>) -> tensor<3x2xf32>
  return %y : tensor<3x2xf32>
}

// -----

// What stays: weights that are not a constant, a transposed A, f16.
// CHECK-LABEL: func @untouched
// CHECK-NOT: kiln.weight_only_matmul
// CHECK: kiln.matmul
// CHECK: kiln.gemm
// CHECK: kiln.matmul
// CHECK-NOT: kiln.weight_only_matmul
func.func @untouched(%x: tensor<3x4xf32>, %w: tensor<4x2xf32>, %xt: tensor<4x3xf32>, %h: tensor<3x4xf16>) -> (tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xf16>) {
  %y = kiln.matmul %x, %w : (tensor<3x4xf32>, tensor<4x2xf32>) -> tensor<3x2xf32>
  %c = kiln.constant dense<1.0> : tensor<4x2xf32>
  %z = kiln.gemm %xt, %c {trans_a} : (tensor<4x3xf32>, tensor<4x2xf32>) -> tensor<3x2xf32>
  %ch = kiln.constant dense<1.0> : tensor<4x2xf16>
  %u = kiln.matmul %h, %ch : (tensor<3x4xf16>, tensor<4x2xf16>) -> tensor<3x2xf16>
  return %y, %z, %u : tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xf16>
}
