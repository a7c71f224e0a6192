// RUN: kiln-opt %s -kiln-fold-qdq -canonicalize -split-input-file | FileCheck %s

// An int8 activation through dequantize ((cast - 3) * 0.5) and weights
// that are int8 multiples of a scale per column: one int8 x int8 -> i32
// matmul reading the quantized tensor itself, then the zero-point
// correction (-3 x the column sums) and the scales. Column 0 is
// 0.25 x [1, 3, -127]; column 1 any exact integer form of it.
// CHECK-LABEL: func @signed
// CHECK-SAME: (%[[Q:.*]]: tensor<2x3xi8>)
// CHECK: kiln.constant dense<[369, {{.*}}]> : tensor<2xi32>
// CHECK: %[[W:.*]] = kiln.constant dense<{{\[}}[1, {{.*}}], [3, {{.*}}], [-127, {{.*}}]]> : tensor<3x2xi8>
// CHECK: %[[ACC:.*]] = kiln.matmul %[[Q]], %[[W]] {kiln.int8 = {input_scale = 5.000000e-01 : f32, input_zero_point = 3 : i32, weight_axis = 1 : i64, weight_scales = [2.500000e-01 : f32, {{.*}}]}} : (tensor<2x3xi8>, tensor<3x2xi8>) -> tensor<2x2xi32>
// CHECK: kiln.add %[[ACC]], %{{.*}} : (tensor<2x2xi32>, tensor<2xi32>) -> tensor<2x2xi32>
// CHECK-NOT: kiln.matmul
// CHECK-NOT: f32> -> tensor<2x3xf32>
func.func @signed(%q: tensor<2x3xi8>) -> tensor<2x2xf32> {
  %c = kiln.cast %q : tensor<2x3xi8> -> tensor<2x3xf32>
  %zp = kiln.constant dense<3.0> : tensor<f32>
  %d = kiln.sub %c, %zp : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %s = kiln.constant dense<0.5> : tensor<f32>
  %a = kiln.mul %d, %s : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %w = kiln.constant dense<[[0.25, -0.5], [0.75, 1.0], [-31.75, 0.0]]> : tensor<3x2xf32>
  %y = kiln.matmul %a, %w : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  return %y : tensor<2x2xf32>
}

// -----

// A uint8 activation is shifted to int8 (q - 128, zero point 130 - 128).
// CHECK-LABEL: func @unsigned
// CHECK: %[[WIDE:.*]] = kiln.cast %{{.*}} : tensor<2x3xui8> -> tensor<2x3xf32>
// CHECK: %[[SHIFTED:.*]] = kiln.sub %[[WIDE]], %{{.*}} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
// CHECK: %[[S8:.*]] = kiln.cast %[[SHIFTED]] : tensor<2x3xf32> -> tensor<2x3xi8>
// CHECK: kiln.matmul %[[S8]], %{{.*}} {kiln.int8 = {input_scale = 5.000000e-01 : f32, input_zero_point = 2 : i32, {{.*}}} : (tensor<2x3xi8>, tensor<3x2xi8>) -> tensor<2x2xi32>
func.func @unsigned(%q: tensor<2x3xui8>) -> tensor<2x2xf32> {
  %c = kiln.cast %q : tensor<2x3xui8> -> tensor<2x3xf32>
  %zp = kiln.constant dense<130.0> : tensor<f32>
  %d = kiln.sub %c, %zp : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %s = kiln.constant dense<0.5> : tensor<f32>
  %a = kiln.mul %d, %s : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %w = kiln.constant dense<[[0.25, -0.5], [0.75, 1.0], [-31.75, 0.0]]> : tensor<3x2xf32>
  %y = kiln.matmul %a, %w : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  return %y : tensor<2x2xf32>
}

// -----

// Weights that are not int8 multiples of one scale per column stay fp32.
// CHECK-LABEL: func @float_weights
// CHECK: kiln.matmul %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
// CHECK-NOT: xi32>
func.func @float_weights(%q: tensor<2x3xi8>) -> tensor<2x2xf32> {
  %c = kiln.cast %q : tensor<2x3xi8> -> tensor<2x3xf32>
  %s = kiln.constant dense<0.5> : tensor<f32>
  %a = kiln.mul %c, %s : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %w = kiln.constant dense<[[0.123456, -0.5], [0.654321, 1.0], [-0.333333, 0.0]]> : tensor<3x2xf32>
  %y = kiln.matmul %a, %w : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  return %y : tensor<2x2xf32>
}

// -----

// An activation that is not a dequantized integer (a plain f32 argument)
// is left alone, whatever its weights.
// CHECK-LABEL: func @float_activation
// CHECK: kiln.matmul %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
func.func @float_activation(%x: tensor<2x3xf32>) -> tensor<2x2xf32> {
  %w = kiln.constant dense<[[0.25, -0.5], [0.75, 1.0], [-31.75, 0.0]]> : tensor<3x2xf32>
  %y = kiln.matmul %x, %w : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  return %y : tensor<2x2xf32>
}
