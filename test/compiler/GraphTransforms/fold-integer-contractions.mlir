// RUN: kiln-opt %s -kiln-fold-integer-contractions -canonicalize -split-input-file | FileCheck %s

// MatMulInteger's import: matmul(cast(a) - zp, cast(b)) in i32, with int8
// weights. The product runs int8 x int8 on the quantized tensor itself,
// minus zp x the weights' column sums ([4, -4] x 3 = [12, -12]).
// CHECK-LABEL: func @signed
// CHECK-SAME: (%[[A:.*]]: tensor<2x2xi8>)
// CHECK-DAG: %[[W:.*]] = kiln.constant dense<{{\[}}[1, -1], [3, -3]]> : tensor<2x2xi8>
// CHECK-DAG: %[[C:.*]] = kiln.constant dense<[12, -12]> : tensor<2xi32>
// CHECK: %[[P:.*]] = kiln.matmul %[[A]], %[[W]] : (tensor<2x2xi8>, tensor<2x2xi8>) -> tensor<2x2xi32>
// CHECK: %[[Y:.*]] = kiln.sub %[[P]], %[[C]]
// CHECK: return %[[Y]]
func.func @signed(%a: tensor<2x2xi8>) -> tensor<2x2xi32> {
  %wide = kiln.cast %a : tensor<2x2xi8> -> tensor<2x2xi32>
  %zp = kiln.constant dense<3> : tensor<i32>
  %centred = kiln.sub %wide, %zp : (tensor<2x2xi32>, tensor<i32>) -> tensor<2x2xi32>
  %b = kiln.constant dense<[[1, -1], [3, -3]]> : tensor<2x2xi32>
  %y = kiln.matmul %centred, %b : (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<2x2xi32>
  return %y : tensor<2x2xi32>
}

// -----

// A uint8 activation without zero point: shifted to int8 (minus 128),
// corrected by -128 x the column sums. The weights are centred by their
// own zero point per column first (b - b_zp, here [[5, 5], [-5, 0]]).
// CHECK-LABEL: func @unsigned
// CHECK-DAG: %[[W:.*]] = kiln.constant dense<{{\[}}[5, 5], [-5, 0]]> : tensor<2x2xi8>
// CHECK-DAG: %[[C:.*]] = kiln.constant dense<[0, -640]> : tensor<2xi32>
// CHECK: %[[Q:.*]] = kiln.cast %{{.*}} : tensor<3x2xf32> -> tensor<3x2xi8>
// CHECK: %[[P:.*]] = kiln.matmul %[[Q]], %[[W]] : (tensor<3x2xi8>, tensor<2x2xi8>) -> tensor<3x2xi32>
// CHECK: kiln.sub %[[P]], %[[C]]
func.func @unsigned(%a: tensor<3x2xui8>) -> tensor<3x2xi32> {
  %wide = kiln.cast %a : tensor<3x2xui8> -> tensor<3x2xi32>
  %b8 = kiln.constant dense<[[10, 15], [0, 10]]> : tensor<2x2xi8>
  %b = kiln.cast %b8 : tensor<2x2xi8> -> tensor<2x2xi32>
  %bzp = kiln.constant dense<[5, 10]> : tensor<2xi32>
  %bc = kiln.sub %b, %bzp : (tensor<2x2xi32>, tensor<2xi32>) -> tensor<2x2xi32>
  %y = kiln.matmul %wide, %bc : (tensor<3x2xi32>, tensor<2x2xi32>) -> tensor<3x2xi32>
  return %y : tensor<3x2xi32>
}

// -----

// Weights that do not fit int8 after centring stay an i32 product.
// CHECK-LABEL: func @wide_weights
// CHECK: kiln.matmul %{{.*}}, %{{.*}} : (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<2x2xi32>
func.func @wide_weights(%a: tensor<2x2xi8>) -> tensor<2x2xi32> {
  %wide = kiln.cast %a : tensor<2x2xi8> -> tensor<2x2xi32>
  %b = kiln.constant dense<[[200, 1], [1, 1]]> : tensor<2x2xi32>
  %y = kiln.matmul %wide, %b : (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<2x2xi32>
  return %y : tensor<2x2xi32>
}

// -----

// A zero point per row of the activation has no int8 form.
// CHECK-LABEL: func @per_row_zero_point
// CHECK: kiln.matmul %{{.*}}, %{{.*}} : (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<2x2xi32>
func.func @per_row_zero_point(%a: tensor<2x2xi8>) -> tensor<2x2xi32> {
  %wide = kiln.cast %a : tensor<2x2xi8> -> tensor<2x2xi32>
  %zp = kiln.constant dense<[[1], [2]]> : tensor<2x1xi32>
  %centred = kiln.sub %wide, %zp : (tensor<2x2xi32>, tensor<2x1xi32>) -> tensor<2x2xi32>
  %b = kiln.constant dense<1> : tensor<2x2xi32>
  %y = kiln.matmul %centred, %b : (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<2x2xi32>
  return %y : tensor<2x2xi32>
}

// -----

// ConvInteger's import: an exact f64 convolution of centred operands. It
// becomes weights [O, C*KH*KW] x patches of the int8 input padded with the
// zero point, plus -zp x each channel's weight sum (-2 x 4 = -8), back in
// f64.
// CHECK-LABEL: func @conv
// CHECK-DAG: %[[C:.*]] = kiln.constant dense<-8> : tensor<1x1xi32>
// CHECK-DAG: %[[W:.*]] = kiln.constant dense<1> : tensor<1x4xi8>
// CHECK: kiln.pad %{{.*}} low [0, 0, 1, 1] high [0, 0, 0, 0] constant 2.000000e+00
// CHECK: %[[P:.*]] = kiln.matmul %[[W]], %{{.*}} : (tensor<1x4xi8>, tensor<1x4x9xi8>) -> tensor<1x1x9xi32>
// CHECK: %[[S:.*]] = kiln.add %[[P]], %[[C]] : (tensor<1x1x9xi32>, tensor<1x1xi32>) -> tensor<1x1x9xi32>
// CHECK: %[[F:.*]] = kiln.cast %[[S]] : tensor<1x1x9xi32> -> tensor<1x1x9xf64>
// CHECK: kiln.reshape %[[F]] : tensor<1x1x9xf64> -> tensor<1x1x3x3xf64>
// CHECK-NOT: kiln.conv2d
func.func @conv(%x: tensor<1x1x3x3xi8>) -> tensor<1x1x3x3xf64> {
  %wide = kiln.cast %x : tensor<1x1x3x3xi8> -> tensor<1x1x3x3xf64>
  %zp = kiln.constant dense<2.0> : tensor<f64>
  %centred = kiln.sub %wide, %zp : (tensor<1x1x3x3xf64>, tensor<f64>) -> tensor<1x1x3x3xf64>
  %w = kiln.constant dense<1.0> : tensor<1x1x2x2xf64>
  %y = kiln.conv2d %centred, %w {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x1x3x3xf64>, tensor<1x1x2x2xf64>) -> tensor<1x1x3x3xf64>
  return %y : tensor<1x1x3x3xf64>
}

// -----

// Grouped convolutions have no int8 form; their sums (at most 255 x 1 x 1
// here) fit f32's significand, so they run in f32 and are read back as f64.
// CHECK-LABEL: func @grouped
// CHECK: %[[X:.*]] = kiln.cast %{{.*}} : tensor<1x2x3x3xi8> -> tensor<1x2x3x3xf32>
// CHECK: %[[Y:.*]] = kiln.conv2d %[[X]], %{{.*}} {groups = 2 : i64} : (tensor<1x2x3x3xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x3x3xf32>
// CHECK: kiln.cast %[[Y]] : tensor<1x2x3x3xf32> -> tensor<1x2x3x3xf64>
func.func @grouped(%x: tensor<1x2x3x3xi8>) -> tensor<1x2x3x3xf64> {
  %wide = kiln.cast %x : tensor<1x2x3x3xi8> -> tensor<1x2x3x3xf64>
  %w = kiln.constant dense<1.0> : tensor<2x1x1x1xf64>
  %y = kiln.conv2d %wide, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 2 : i64} : (tensor<1x2x3x3xf64>, tensor<2x1x1x1xf64>) -> tensor<1x2x3x3xf64>
  return %y : tensor<1x2x3x3xf64>
}

// -----

// Sums that could pass 2^24 (255 x 255 x 300 here) keep f64.
// CHECK-LABEL: func @grouped_deep
// CHECK: kiln.conv2d %{{.*}}, %{{.*}} {groups = 2 : i64} : (tensor<1x600x1x1xf64>, tensor<2x300x1x1xf64>) -> tensor<1x2x1x1xf64>
func.func @grouped_deep(%x: tensor<1x600x1x1xi8>) -> tensor<1x2x1x1xf64> {
  %wide = kiln.cast %x : tensor<1x600x1x1xi8> -> tensor<1x600x1x1xf64>
  %w = kiln.constant dense<255.0> : tensor<2x300x1x1xf64>
  %y = kiln.conv2d %wide, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 2 : i64} : (tensor<1x600x1x1xf64>, tensor<2x300x1x1xf64>) -> tensor<1x2x1x1xf64>
  return %y : tensor<1x2x1x1xf64>
}
