// RUN: kiln-opt %s -split-input-file -verify-diagnostics

// Diagnostics of the reductions (inferReduce) and arg-reductions
// (inferArgReduce).

// reduce: positive axis past the rank.
func.func @reduce_axis_too_large(%x: tensor<2x3xf32>) -> tensor<2xf32> {
  // expected-error @+2 {{axis 2 is out of range for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kiln.reduce_sum %x axes [2] : tensor<2x3xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// reduce: negative axis before -rank.
func.func @reduce_axis_too_negative(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+2 {{axis -3 is out of range for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kiln.reduce_mean %x axes [-3] keep_dims : tensor<2x3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// reduce: any axis is out of range for a rank-0 input.
func.func @reduce_axis_rank0(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+2 {{axis 0 is out of range for rank 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kiln.reduce_max %x axes [0] : tensor<f32> -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// reduce: the same axis listed twice.
func.func @reduce_axis_twice(%x: tensor<2x3xf32>) -> tensor<2xf32> {
  // expected-error @+2 {{axis 1 is listed twice}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kiln.reduce_min %x axes [1, 1] : tensor<2x3xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// reduce: the same axis listed twice, once negative.
func.func @reduce_axis_twice_negative(%x: tensor<2x3x4xi32>) -> tensor<2x4xi32> {
  // expected-error @+2 {{axis -2 is listed twice}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kiln.reduce_prod %x axes [1, -2] : tensor<2x3x4xi32> -> tensor<2x4xi32>
  return %0 : tensor<2x4xi32>
}

// -----

// reduce: result written without keep_dims' size-1 dimension.
func.func @reduce_wrong_result_keep_dims(%x: tensor<2x3xf32>) -> tensor<2xf32> {
  // expected-error @+2 {{'kiln.reduce_sum' op inferred type(s) 'tensor<2x1xf32>' are incompatible with return type(s) of operation 'tensor<2xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kiln.reduce_sum %x axes [1] keep_dims : tensor<2x3xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// reduce: result of another element type.
func.func @reduce_wrong_result_element(%x: tensor<2x3xf16>) -> tensor<2xf32> {
  // expected-error @+2 {{inferred type(s) 'tensor<2xf16>' are incompatible with return type(s) of operation 'tensor<2xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kiln.reduce_mean %x axes [1] : tensor<2x3xf16> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// reduce: boolean tensors are not numeric.
func.func @reduce_i1(%x: tensor<2x3xi1>) -> tensor<2xi1> {
  // expected-error @+1 {{operand #0 must be statically shaped tensor of numeric values}}
  %0 = "kiln.reduce_max"(%x) {axes = array<i64: 1>} : (tensor<2x3xi1>) -> tensor<2xi1>
  return %0 : tensor<2xi1>
}

// -----

// argmax: axis past the rank.
func.func @argmax_axis_too_large(%x: tensor<4x10xf32>) -> tensor<4xi64> {
  // expected-error @+2 {{axis 2 is out of range for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kiln.argmax %x axis 2 : tensor<4x10xf32> -> tensor<4xi64>
  return %0 : tensor<4xi64>
}

// -----

// argmin: negative axis before -rank.
func.func @argmin_axis_too_negative(%x: tensor<4x10xf32>) -> tensor<4xi64> {
  // expected-error @+2 {{axis -3 is out of range for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kiln.argmin %x axis -3 : tensor<4x10xf32> -> tensor<4xi64>
  return %0 : tensor<4xi64>
}

// -----

// argmax: a rank-0 input has no axis.
func.func @argmax_rank0(%x: tensor<f32>) -> tensor<i64> {
  // expected-error @+2 {{axis 0 is out of range for rank 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kiln.argmax %x axis 0 : tensor<f32> -> tensor<i64>
  return %0 : tensor<i64>
}

// -----

// argmax: an index over an empty axis does not exist.
func.func @argmax_empty_axis(%x: tensor<4x0xf32>) -> tensor<4xi64> {
  // expected-error @+2 {{cannot take an index over the empty axis 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kiln.argmax %x axis 1 : tensor<4x0xf32> -> tensor<4xi64>
  return %0 : tensor<4xi64>
}

// -----

// argmin: the empty axis given as a negative axis.
func.func @argmin_empty_axis_negative(%x: tensor<0x3xi8>) -> tensor<1x3xi64> {
  // expected-error @+2 {{cannot take an index over the empty axis -2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kiln.argmin %x axis -2 keep_dims : tensor<0x3xi8> -> tensor<1x3xi64>
  return %0 : tensor<1x3xi64>
}

// -----

// argmax: result shape without keep_dims' size-1 dimension.
func.func @argmax_wrong_result_shape(%x: tensor<4x10xf32>) -> tensor<4xi64> {
  // expected-error @+2 {{'kiln.argmax' op inferred type(s) 'tensor<4x1xi64>' are incompatible with return type(s) of operation 'tensor<4xi64>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kiln.argmax %x axis 1 keep_dims : tensor<4x10xf32> -> tensor<4xi64>
  return %0 : tensor<4xi64>
}

// -----

// argmax: indices are i64, not i32.
func.func @argmax_i32_result(%x: tensor<4x10xf32>) -> tensor<4xi32> {
  // expected-error @+1 {{result #0 must be statically shaped tensor of 64-bit signless integer values}}
  %0 = kiln.argmax %x axis 1 : tensor<4x10xf32> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// argmin: boolean tensors are not numeric.
func.func @argmin_i1(%x: tensor<4xi1>) -> tensor<i64> {
  // expected-error @+1 {{operand #0 must be statically shaped tensor of numeric values}}
  %0 = kiln.argmin %x axis 0 : tensor<4xi1> -> tensor<i64>
  return %0 : tensor<i64>
}
