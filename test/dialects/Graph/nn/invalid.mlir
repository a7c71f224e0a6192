// RUN: kiln-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// Windowed pooling
//===----------------------------------------------------------------------===//

// Pooling of a 3-D input.
func.func @pool_rank(%x: tensor<3x8x8xf32>) {
  // expected-error @+2 {{expects input of rank 4, got rank 3}}
  // expected-error @+1 {{'kiln.max_pool2d' op failed to infer returned types}}
  %0 = kiln.max_pool2d %x {kernel_shape = array<i64: 2, 2>} : tensor<3x8x8xf32> -> tensor<3x7x7xf32>
  return
}

// -----

// Pooling kernel_shape with three values.
func.func @pool_kernel_shape_size(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+2 {{expects 'kernel_shape' to have 2 values, got 3}}
  // expected-error @+1 {{'kiln.max_pool2d' op failed to infer returned types}}
  %0 = kiln.max_pool2d %x {kernel_shape = array<i64: 2, 2, 2>} : tensor<1x3x8x8xf32> -> tensor<1x3x7x7xf32>
  return
}

// -----

// Pooling strides with one value.
func.func @pool_strides_size(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+2 {{expects 'strides' to have 2 values, got 1}}
  // expected-error @+1 {{'kiln.avg_pool2d' op failed to infer returned types}}
  %0 = kiln.avg_pool2d %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2>} : tensor<1x3x8x8xf32> -> tensor<1x3x4x4xf32>
  return
}

// -----

// Pooling dilations with three values.
func.func @pool_dilations_size(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+2 {{expects 'dilations' to have 2 values, got 3}}
  // expected-error @+1 {{'kiln.max_pool2d' op failed to infer returned types}}
  %0 = kiln.max_pool2d %x {kernel_shape = array<i64: 2, 2>, dilations = array<i64: 1, 1, 1>} : tensor<1x3x8x8xf32> -> tensor<1x3x7x7xf32>
  return
}

// -----

// Pooling pads with two values instead of four.
func.func @pool_pads_size(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+2 {{expects 'pads' to have 4 values, got 2}}
  // expected-error @+1 {{'kiln.max_pool2d' op failed to infer returned types}}
  %0 = kiln.max_pool2d %x {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1>} : tensor<1x3x8x8xf32> -> tensor<1x3x8x8xf32>
  return
}

// -----

// Pooling with an empty window.
func.func @pool_kernel_shape_zero(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+2 {{expects every 'kernel_shape' value to be positive}}
  // expected-error @+1 {{'kiln.max_pool2d' op failed to infer returned types}}
  %0 = kiln.max_pool2d %x {kernel_shape = array<i64: 0, 2>} : tensor<1x3x8x8xf32> -> tensor<1x3x9x7xf32>
  return
}

// -----

// Pooling with a negative stride.
func.func @pool_stride_negative(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+2 {{expects every 'strides' value to be positive}}
  // expected-error @+1 {{'kiln.avg_pool2d' op failed to infer returned types}}
  %0 = kiln.avg_pool2d %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: -1, 1>} : tensor<1x3x8x8xf32> -> tensor<1x3x7x7xf32>
  return
}

// -----

// Pooling with a zero dilation.
func.func @pool_dilation_zero(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+2 {{expects every 'dilations' value to be positive}}
  // expected-error @+1 {{'kiln.max_pool2d' op failed to infer returned types}}
  %0 = kiln.max_pool2d %x {kernel_shape = array<i64: 2, 2>, dilations = array<i64: 1, 0>} : tensor<1x3x8x8xf32> -> tensor<1x3x7x7xf32>
  return
}

// -----

// Pooling with a negative pad.
func.func @pool_pad_negative(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+2 {{expects every 'pads' value to be non-negative}}
  // expected-error @+1 {{'kiln.max_pool2d' op failed to infer returned types}}
  %0 = kiln.max_pool2d %x {kernel_shape = array<i64: 2, 2>, pads = array<i64: 0, -1, 0, 0>} : tensor<1x3x8x8xf32> -> tensor<1x3x7x6xf32>
  return
}

// -----

// Pooling whose padding is as large as the window (padding-only windows).
func.func @pool_pad_not_smaller_than_window(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+2 {{padding of spatial dimension 3 must be smaller than the window (3)}}
  // expected-error @+1 {{'kiln.avg_pool2d' op failed to infer returned types}}
  %0 = kiln.avg_pool2d %x {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 0, 1, 3>} : tensor<1x3x8x8xf32> -> tensor<1x3x8x9xf32>
  return
}

// -----

// Pooling window larger than the padded input.
func.func @pool_window_too_large(%x: tensor<1x3x4x8xf32>) {
  // expected-error @+2 {{window of size 5 (dilation 1) does not fit spatial dimension 2 of size 4 with padding 0+0}}
  // expected-error @+1 {{'kiln.max_pool2d' op failed to infer returned types}}
  %0 = kiln.max_pool2d %x {kernel_shape = array<i64: 5, 5>} : tensor<1x3x4x8xf32> -> tensor<1x3x1x4xf32>
  return
}

// -----

// Pooling without kernel_shape (required attribute).
func.func @pool_missing_kernel_shape(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{'kiln.max_pool2d' op requires attribute 'kernel_shape'}}
  %0 = kiln.max_pool2d %x : tensor<1x3x8x8xf32> -> tensor<1x3x8x8xf32>
  return
}

// -----

// Pooling whose written result ignores the stride.
func.func @pool_wrong_result(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+2 {{'kiln.max_pool2d' op inferred type(s) 'tensor<1x3x4x4xf32>' are incompatible with return type(s) of operation 'tensor<1x3x7x7xf32>'}}
  // expected-error @+1 {{'kiln.max_pool2d' op failed to infer returned types}}
  %0 = kiln.max_pool2d %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : tensor<1x3x8x8xf32> -> tensor<1x3x7x7xf32>
  return
}

// -----

// Pooling whose written result element type differs from the input's.
func.func @pool_wrong_result_element(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+2 {{'kiln.avg_pool2d' op inferred type(s) 'tensor<1x3x7x7xf32>' are incompatible with return type(s) of operation 'tensor<1x3x7x7xf16>'}}
  // expected-error @+1 {{'kiln.avg_pool2d' op failed to infer returned types}}
  %0 = kiln.avg_pool2d %x {kernel_shape = array<i64: 2, 2>} : tensor<1x3x8x8xf32> -> tensor<1x3x7x7xf16>
  return
}

// -----

// Average pooling of integers (ODS constraint: float only; max pooling
// takes integers).
func.func @pool_integer(%x: tensor<1x3x8x8xi32>) {
  // expected-error @+1 {{'kiln.avg_pool2d' op operand #0 must be statically shaped tensor of floating-point values, but got 'tensor<1x3x8x8xi32>'}}
  %0 = kiln.avg_pool2d %x {kernel_shape = array<i64: 2, 2>} : tensor<1x3x8x8xi32> -> tensor<1x3x7x7xi32>
  return
}

// -----

// Pooling of a dynamically shaped input (ODS constraint).
func.func @pool_dynamic(%x: tensor<1x3x?x8xf32>) {
  // expected-error @+1 {{'kiln.avg_pool2d' op operand #0 must be statically shaped tensor of floating-point values, but got 'tensor<1x3x?x8xf32>'}}
  %0 = kiln.avg_pool2d %x {kernel_shape = array<i64: 2, 2>} : tensor<1x3x?x8xf32> -> tensor<1x3x?x7xf32>
  return
}

// -----

// Unranked tensors cannot be written in the custom form of pooling.
func.func @pool_unranked(%x: tensor<*xf32>) {
  // expected-error @+1 {{custom op 'kiln.max_pool2d' invalid kind of type specified: expected builtin.tensor, but found 'tensor<*xf32>'}}
  %0 = kiln.max_pool2d %x {kernel_shape = array<i64: 2, 2>} : tensor<*xf32> -> tensor<1x3x7x7xf32>
  return
}

//===----------------------------------------------------------------------===//
// Global pooling
//===----------------------------------------------------------------------===//

// -----

// Global pooling of a rank-2 input.
func.func @global_pool_rank(%x: tensor<3x8xf32>) {
  // expected-error @+2 {{expects input of rank >= 3 ([N, C, ...]), got rank 2}}
  // expected-error @+1 {{'kiln.global_avg_pool' op failed to infer returned types}}
  %0 = kiln.global_avg_pool %x : tensor<3x8xf32> -> tensor<3x8xf32>
  return
}

// -----

// Global pooling whose written result drops the reduced dimensions.
func.func @global_pool_wrong_result(%x: tensor<1x8x4x4xf32>) {
  // expected-error @+2 {{'kiln.global_max_pool' op inferred type(s) 'tensor<1x8x1x1xf32>' are incompatible with return type(s) of operation 'tensor<1x8xf32>'}}
  // expected-error @+1 {{'kiln.global_max_pool' op failed to infer returned types}}
  %0 = kiln.global_max_pool %x : tensor<1x8x4x4xf32> -> tensor<1x8xf32>
  return
}

// -----

// Global pooling of a boolean tensor (ODS constraint: float only).
func.func @global_pool_bool(%x: tensor<1x8x4x4xi1>) {
  // expected-error @+1 {{'kiln.global_max_pool' op operand #0 must be statically shaped tensor of floating-point values, but got 'tensor<1x8x4x4xi1>'}}
  %0 = kiln.global_max_pool %x : tensor<1x8x4x4xi1> -> tensor<1x8x1x1xi1>
  return
}

//===----------------------------------------------------------------------===//
// Softmax
//===----------------------------------------------------------------------===//

// -----

// Softmax axis out of range (custom form: reported while parsing).
func.func @softmax_axis_out_of_range(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{axis 2 is out of range for rank 2}}
  %0 = kiln.softmax %x axis 2 : tensor<2x3xf32>
  return
}

// -----

// log_softmax negative axis out of range (generic form: verifier error).
func.func @log_softmax_axis_out_of_range(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{axis -3 is out of range for rank 2}}
  // expected-error @+1 {{'kiln.log_softmax' op failed to infer returned types}}
  %0 = "kiln.log_softmax"(%x) {axis = -3 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

// Softmax of a scalar: no axis is valid.
func.func @softmax_scalar(%x: tensor<f32>) {
  // expected-error @+1 {{axis 0 is out of range for rank 0}}
  %0 = kiln.softmax %x axis 0 : tensor<f32>
  return
}

// -----

// Softmax (generic form) whose written result type differs from the input's.
func.func @softmax_wrong_result(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{'kiln.softmax' op inferred type(s) 'tensor<2x3xf32>' are incompatible with return type(s) of operation 'tensor<2x3xf16>'}}
  // expected-error @+1 {{'kiln.softmax' op failed to infer returned types}}
  %0 = "kiln.softmax"(%x) {axis = 1 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf16>
  return
}

// -----

// Softmax of integers (ODS constraint: float only).
func.func @softmax_integer(%x: tensor<2x3xi32>) {
  // expected-error @+1 {{'kiln.softmax' op operand #0 must be statically shaped tensor of floating-point values, but got 'tensor<2x3xi32>'}}
  %0 = kiln.softmax %x axis -1 : tensor<2x3xi32>
  return
}

// -----

// Softmax of a dynamically shaped tensor (ODS constraint).
func.func @softmax_dynamic(%x: tensor<2x?xf32>) {
  // expected-error @+1 {{'kiln.softmax' op operand #0 must be statically shaped tensor of floating-point values, but got 'tensor<2x?xf32>'}}
  %0 = kiln.softmax %x axis -1 : tensor<2x?xf32>
  return
}

// -----

// Softmax of an unranked tensor (generic form: ODS constraint).
func.func @softmax_unranked(%x: tensor<*xf32>) {
  // expected-error @+1 {{'kiln.softmax' op operand #0 must be statically shaped tensor of floating-point values, but got 'tensor<*xf32>'}}
  %0 = "kiln.softmax"(%x) {axis = 0 : i64} : (tensor<*xf32>) -> tensor<*xf32>
  return
}

//===----------------------------------------------------------------------===//
// layer_norm
//===----------------------------------------------------------------------===//

// -----

// layer_norm axis out of range.
func.func @layer_norm_axis_out_of_range(%x: tensor<2x4x8xf32>, %g: tensor<8xf32>) {
  // expected-error @+2 {{axis 3 is out of range for rank 3}}
  // expected-error @+1 {{'kiln.layer_norm' op failed to infer returned types}}
  %0 = kiln.layer_norm %x, %g axis 3 epsilon 1.0e-05 : (tensor<2x4x8xf32>, tensor<8xf32>) -> tensor<2x4x8xf32>
  return
}

// -----

// layer_norm scale of another element type.
func.func @layer_norm_scale_element_type(%x: tensor<2x4x8xf32>, %g: tensor<8xf16>) {
  // expected-error @+2 {{expects input and scale to have one element type, got 'f32' and 'f16'}}
  // expected-error @+1 {{'kiln.layer_norm' op failed to infer returned types}}
  %0 = kiln.layer_norm %x, %g axis -1 epsilon 1.0e-05 : (tensor<2x4x8xf32>, tensor<8xf16>) -> tensor<2x4x8xf32>
  return
}

// -----

// layer_norm scale that does not have the normalised shape.
func.func @layer_norm_scale_shape(%x: tensor<2x4x8xf32>, %g: tensor<8xf32>) {
  // expected-error @+2 {{expects scale of shape 4x8 (the normalised dimensions), got 8}}
  // expected-error @+1 {{'kiln.layer_norm' op failed to infer returned types}}
  %0 = kiln.layer_norm %x, %g axis 1 epsilon 1.0e-05 : (tensor<2x4x8xf32>, tensor<8xf32>) -> tensor<2x4x8xf32>
  return
}

// -----

// layer_norm bias of another element type.
func.func @layer_norm_bias_element_type(%x: tensor<2x4x8xbf16>, %g: tensor<8xbf16>, %b: tensor<8xf32>) {
  // expected-error @+2 {{expects input and bias to have one element type, got 'bf16' and 'f32'}}
  // expected-error @+1 {{'kiln.layer_norm' op failed to infer returned types}}
  %0 = kiln.layer_norm %x, %g, %b axis -1 epsilon 1.0e-05 : (tensor<2x4x8xbf16>, tensor<8xbf16>, tensor<8xf32>) -> tensor<2x4x8xbf16>
  return
}

// -----

// layer_norm bias that does not have the normalised shape (no broadcasting).
func.func @layer_norm_bias_shape(%x: tensor<2x4x8xf32>, %g: tensor<8xf32>, %b: tensor<1x8xf32>) {
  // expected-error @+2 {{expects bias of shape 8 (the normalised dimensions), got 1x8}}
  // expected-error @+1 {{'kiln.layer_norm' op failed to infer returned types}}
  %0 = kiln.layer_norm %x, %g, %b axis -1 epsilon 1.0e-05 : (tensor<2x4x8xf32>, tensor<8xf32>, tensor<1x8xf32>) -> tensor<2x4x8xf32>
  return
}

// -----

// layer_norm whose written result type is not the input's.
func.func @layer_norm_wrong_result(%x: tensor<2x4x8xf32>, %g: tensor<8xf32>) {
  // expected-error @+2 {{'kiln.layer_norm' op inferred type(s) 'tensor<2x4x8xf32>' are incompatible with return type(s) of operation 'tensor<2x4xf32>'}}
  // expected-error @+1 {{'kiln.layer_norm' op failed to infer returned types}}
  %0 = kiln.layer_norm %x, %g axis -1 epsilon 1.0e-05 : (tensor<2x4x8xf32>, tensor<8xf32>) -> tensor<2x4xf32>
  return
}

// -----

// layer_norm needs an explicit epsilon in the custom form.
func.func @layer_norm_missing_epsilon(%x: tensor<2x4x8xf32>, %g: tensor<8xf32>) {
  // expected-error @+1 {{custom op 'kiln.layer_norm' expected 'epsilon'}}
  %0 = kiln.layer_norm %x, %g axis -1 : (tensor<2x4x8xf32>, tensor<8xf32>) -> tensor<2x4x8xf32>
  return
}

//===----------------------------------------------------------------------===//
// batch_norm
//===----------------------------------------------------------------------===//

// -----

// batch_norm of a rank-1 input.
func.func @batch_norm_rank(%x: tensor<8xf32>, %p: tensor<8xf32>) {
  // expected-error @+2 {{expects input of rank >= 2 ([N, C, ...]), got rank 1}}
  // expected-error @+1 {{'kiln.batch_norm' op failed to infer returned types}}
  %0 = kiln.batch_norm %x, %p, %p, %p, %p epsilon 1.0e-05 : (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

// batch_norm scale of another element type.
func.func @batch_norm_scale_element_type(%x: tensor<1x4x2x2xf32>, %s: tensor<4xf16>, %p: tensor<4xf32>) {
  // expected-error @+2 {{expects input and scale to have one element type, got 'f32' and 'f16'}}
  // expected-error @+1 {{'kiln.batch_norm' op failed to infer returned types}}
  %0 = kiln.batch_norm %x, %s, %p, %p, %p epsilon 1.0e-05 : (tensor<1x4x2x2xf32>, tensor<4xf16>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x2x2xf32>
  return
}

// -----

// batch_norm variance of another element type.
func.func @batch_norm_variance_element_type(%x: tensor<1x4x2x2xf32>, %p: tensor<4xf32>, %v: tensor<4xf64>) {
  // expected-error @+2 {{expects input and variance to have one element type, got 'f32' and 'f64'}}
  // expected-error @+1 {{'kiln.batch_norm' op failed to infer returned types}}
  %0 = kiln.batch_norm %x, %p, %p, %p, %v epsilon 1.0e-05 : (tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf64>) -> tensor<1x4x2x2xf32>
  return
}

// -----

// batch_norm bias whose length is not the channel count.
func.func @batch_norm_bias_shape(%x: tensor<1x4x2x2xf32>, %p: tensor<4xf32>, %b: tensor<2xf32>) {
  // expected-error @+2 {{expects bias of shape 4 (the channel count), got 2}}
  // expected-error @+1 {{'kiln.batch_norm' op failed to infer returned types}}
  %0 = kiln.batch_norm %x, %p, %b, %p, %p epsilon 1.0e-05 : (tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<2xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x2x2xf32>
  return
}

// -----

// batch_norm mean that is not 1-D.
func.func @batch_norm_mean_shape(%x: tensor<1x4x2x2xf32>, %p: tensor<4xf32>, %m: tensor<1x4xf32>) {
  // expected-error @+2 {{expects mean of shape 4 (the channel count), got 1x4}}
  // expected-error @+1 {{'kiln.batch_norm' op failed to infer returned types}}
  %0 = kiln.batch_norm %x, %p, %p, %m, %p epsilon 1.0e-05 : (tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>, tensor<1x4xf32>, tensor<4xf32>) -> tensor<1x4x2x2xf32>
  return
}

// -----

// batch_norm scalar variance (no broadcasting of the statistics).
func.func @batch_norm_variance_shape(%x: tensor<1x4x2x2xf32>, %p: tensor<4xf32>, %v: tensor<f32>) {
  // expected-error @+2 {{expects variance of shape 4 (the channel count), got scalar}}
  // expected-error @+1 {{'kiln.batch_norm' op failed to infer returned types}}
  %0 = kiln.batch_norm %x, %p, %p, %p, %v epsilon 1.0e-05 : (tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<f32>) -> tensor<1x4x2x2xf32>
  return
}

// -----

// batch_norm whose written result type is not the input's.
func.func @batch_norm_wrong_result(%x: tensor<1x4x2x2xf32>, %p: tensor<4xf32>) {
  // expected-error @+2 {{'kiln.batch_norm' op inferred type(s) 'tensor<1x4x2x2xf32>' are incompatible with return type(s) of operation 'tensor<1x4x2x2xf16>'}}
  // expected-error @+1 {{'kiln.batch_norm' op failed to infer returned types}}
  %0 = kiln.batch_norm %x, %p, %p, %p, %p epsilon 1.0e-05 : (tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x2x2xf16>
  return
}

// -----

// batch_norm of integers (ODS constraint: float only).
func.func @batch_norm_integer(%x: tensor<1x4x2x2xi8>, %p: tensor<4xi8>) {
  // expected-error @+1 {{'kiln.batch_norm' op operand #0 must be statically shaped tensor of floating-point values, but got 'tensor<1x4x2x2xi8>'}}
  %0 = kiln.batch_norm %x, %p, %p, %p, %p epsilon 1.0e-05 : (tensor<1x4x2x2xi8>, tensor<4xi8>, tensor<4xi8>, tensor<4xi8>, tensor<4xi8>) -> tensor<1x4x2x2xi8>
  return
}
