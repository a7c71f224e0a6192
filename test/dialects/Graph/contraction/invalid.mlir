// RUN: kiln-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// matmul
//===----------------------------------------------------------------------===//

// matmul of a 1-D operand.
func.func @matmul_rank_1(%a: tensor<4xf32>, %b: tensor<4x3xf32>) {
  // expected-error @+2 {{expects operands of rank >= 2, got ranks 1 and 2}}
  // expected-error @+1 {{'kiln.matmul' op failed to infer returned types}}
  %0 = kiln.matmul %a, %b : (tensor<4xf32>, tensor<4x3xf32>) -> tensor<3xf32>
  return
}

// -----

// matmul operands with different element types.
func.func @matmul_element_type_mismatch(%a: tensor<2x4xf32>, %b: tensor<4x3xf16>) {
  // expected-error @+2 {{expects lhs and rhs to have one element type, got 'f32' and 'f16'}}
  // expected-error @+1 {{'kiln.matmul' op failed to infer returned types}}
  %0 = kiln.matmul %a, %b : (tensor<2x4xf32>, tensor<4x3xf16>) -> tensor<2x3xf32>
  return
}

// -----

// matmul whose contracting dimensions differ.
func.func @matmul_contracting_mismatch(%a: tensor<2x4xf32>, %b: tensor<5x3xf32>) {
  // expected-error @+2 {{contracting dimensions differ: lhs has 4, rhs has 5}}
  // expected-error @+1 {{'kiln.matmul' op failed to infer returned types}}
  %0 = kiln.matmul %a, %b : (tensor<2x4xf32>, tensor<5x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

// matmul whose batch dimensions do not broadcast.
func.func @matmul_batch_mismatch(%a: tensor<2x3x4xf32>, %b: tensor<5x4x6xf32>) {
  // expected-error @+2 {{batch dimensions 2 and 5 are not broadcast-compatible}}
  // expected-error @+1 {{'kiln.matmul' op failed to infer returned types}}
  %0 = kiln.matmul %a, %b : (tensor<2x3x4xf32>, tensor<5x4x6xf32>) -> tensor<2x3x6xf32>
  return
}

// -----

// matmul whose written result shape is not the inferred one.
func.func @matmul_wrong_result(%a: tensor<2x4xf32>, %b: tensor<4x3xf32>) {
  // expected-error @+2 {{'kiln.matmul' op inferred type(s) 'tensor<2x3xf32>' are incompatible with return type(s) of operation 'tensor<3x2xf32>'}}
  // expected-error @+1 {{'kiln.matmul' op failed to infer returned types}}
  %0 = kiln.matmul %a, %b : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<3x2xf32>
  return
}

// -----

// matmul of booleans (ODS constraint: numeric only).
func.func @matmul_bool(%a: tensor<2x2xi1>) {
  // expected-error @+1 {{'kiln.matmul' op operand #0 must be statically shaped tensor of numeric values, but got 'tensor<2x2xi1>'}}
  %0 = kiln.matmul %a, %a : (tensor<2x2xi1>, tensor<2x2xi1>) -> tensor<2x2xi1>
  return
}

// -----

// matmul of a dynamically shaped tensor (ODS constraint).
func.func @matmul_dynamic(%a: tensor<?x4xf32>, %b: tensor<4x3xf32>) {
  // expected-error @+1 {{'kiln.matmul' op operand #0 must be statically shaped tensor of numeric values, but got 'tensor<?x4xf32>'}}
  %0 = kiln.matmul %a, %b : (tensor<?x4xf32>, tensor<4x3xf32>) -> tensor<?x3xf32>
  return
}

// -----

// matmul of an unranked tensor (ODS constraint).
func.func @matmul_unranked(%a: tensor<*xf32>, %b: tensor<4x3xf32>) {
  // expected-error @+1 {{'kiln.matmul' op operand #0 must be statically shaped tensor of numeric values, but got 'tensor<*xf32>'}}
  %0 = kiln.matmul %a, %b : (tensor<*xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  return
}

//===----------------------------------------------------------------------===//
// gemm
//===----------------------------------------------------------------------===//

// -----

// gemm with a 3-D A.
func.func @gemm_rank_a(%a: tensor<1x2x4xf32>, %b: tensor<4x3xf32>) {
  // expected-error @+2 {{expects A of rank 2, got rank 3}}
  // expected-error @+1 {{'kiln.gemm' op failed to infer returned types}}
  %0 = kiln.gemm %a, %b : (tensor<1x2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

// gemm with a 1-D B.
func.func @gemm_rank_b(%a: tensor<2x4xf32>, %b: tensor<4xf32>) {
  // expected-error @+2 {{expects B of rank 2, got rank 1}}
  // expected-error @+1 {{'kiln.gemm' op failed to infer returned types}}
  %0 = kiln.gemm %a, %b : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2xf32>
  return
}

// -----

// gemm with A and B of different element types.
func.func @gemm_element_type_a_b(%a: tensor<2x4xf32>, %b: tensor<4x3xbf16>) {
  // expected-error @+2 {{expects A and B to have one element type, got 'f32' and 'bf16'}}
  // expected-error @+1 {{'kiln.gemm' op failed to infer returned types}}
  %0 = kiln.gemm %a, %b : (tensor<2x4xf32>, tensor<4x3xbf16>) -> tensor<2x3xf32>
  return
}

// -----

// gemm whose contracting dimensions differ once trans_b is applied.
func.func @gemm_contracting_mismatch(%a: tensor<2x4xf32>, %b: tensor<4x3xf32>) {
  // expected-error @+2 {{contracting dimensions differ: op(A) has 4, op(B) has 3}}
  // expected-error @+1 {{'kiln.gemm' op failed to infer returned types}}
  %0 = kiln.gemm %a, %b {trans_b} : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x4xf32>
  return
}

// -----

// gemm whose C has another element type than A.
func.func @gemm_element_type_c(%a: tensor<2x4xf16>, %b: tensor<4x3xf16>, %c: tensor<3xf32>) {
  // expected-error @+2 {{expects A and C to have one element type, got 'f16' and 'f32'}}
  // expected-error @+1 {{'kiln.gemm' op failed to infer returned types}}
  %0 = kiln.gemm %a, %b, %c : (tensor<2x4xf16>, tensor<4x3xf16>, tensor<3xf32>) -> tensor<2x3xf16>
  return
}

// -----

// gemm whose C does not broadcast to [M, N].
func.func @gemm_c_not_broadcastable(%a: tensor<2x4xf32>, %b: tensor<4x3xf32>, %c: tensor<2xf32>) {
  // expected-error @+2 {{C of shape 2 does not broadcast to the result shape 2x3}}
  // expected-error @+1 {{'kiln.gemm' op failed to infer returned types}}
  %0 = kiln.gemm %a, %b, %c : (tensor<2x4xf32>, tensor<4x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  return
}

// -----

// gemm whose C has a higher rank than the result (one-directional broadcast).
func.func @gemm_c_higher_rank(%a: tensor<2x4xf32>, %b: tensor<4x3xf32>, %c: tensor<1x2x3xf32>) {
  // expected-error @+2 {{C of shape 1x2x3 does not broadcast to the result shape 2x3}}
  // expected-error @+1 {{'kiln.gemm' op failed to infer returned types}}
  %0 = kiln.gemm %a, %b, %c : (tensor<2x4xf32>, tensor<4x3xf32>, tensor<1x2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

// gemm whose written result ignores trans_a.
func.func @gemm_wrong_result(%a: tensor<4x2xf32>, %b: tensor<4x3xf32>) {
  // expected-error @+2 {{'kiln.gemm' op inferred type(s) 'tensor<2x3xf32>' are incompatible with return type(s) of operation 'tensor<4x3xf32>'}}
  // expected-error @+1 {{'kiln.gemm' op failed to infer returned types}}
  %0 = kiln.gemm %a, %b {trans_a} : (tensor<4x2xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  return
}

// -----

// gemm of integers (ODS constraint: float only).
func.func @gemm_integer(%a: tensor<2x2xi32>) {
  // expected-error @+1 {{'kiln.gemm' op operand #0 must be statically shaped tensor of floating-point values, but got 'tensor<2x2xi32>'}}
  %0 = kiln.gemm %a, %a : (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<2x2xi32>
  return
}

// -----

// gemm with a dynamically shaped C (ODS constraint).
func.func @gemm_dynamic_c(%a: tensor<2x2xf32>, %c: tensor<?xf32>) {
  // expected-error @+1 {{'kiln.gemm' op operand #2 must be statically shaped tensor of floating-point values, but got 'tensor<?xf32>'}}
  %0 = kiln.gemm %a, %a, %c : (tensor<2x2xf32>, tensor<2x2xf32>, tensor<?xf32>) -> tensor<2x2xf32>
  return
}

// -----

// gemm flags are unit attributes.
func.func @gemm_trans_not_unit(%a: tensor<2x2xf32>) {
  // expected-error @+1 {{'kiln.gemm' op attribute 'trans_a' failed to satisfy constraint: unit attribute}}
  %0 = kiln.gemm %a, %a {trans_a = true} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  return
}

//===----------------------------------------------------------------------===//
// conv2d
//===----------------------------------------------------------------------===//

// -----

// conv2d of a 3-D input.
func.func @conv2d_rank_input(%x: tensor<3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{expects input of rank 4, got rank 3}}
  // expected-error @+1 {{'kiln.conv2d' op failed to infer returned types}}
  %0 = kiln.conv2d %x, %w : (tensor<3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

// conv2d with a 3-D weight.
func.func @conv2d_rank_weight(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3xf32>) {
  // expected-error @+2 {{expects weight of rank 4, got rank 3}}
  // expected-error @+1 {{'kiln.conv2d' op failed to infer returned types}}
  %0 = kiln.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

// conv2d input and weight of different element types.
func.func @conv2d_element_type_weight(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf16>) {
  // expected-error @+2 {{expects input and weight to have one element type, got 'f32' and 'f16'}}
  // expected-error @+1 {{'kiln.conv2d' op failed to infer returned types}}
  %0 = kiln.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf16>) -> tensor<1x4x6x6xf32>
  return
}

// -----

// conv2d strides with three values.
func.func @conv2d_strides_size(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{expects 'strides' to have 2 values, got 3}}
  // expected-error @+1 {{'kiln.conv2d' op failed to infer returned types}}
  %0 = kiln.conv2d %x, %w {strides = array<i64: 1, 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

// conv2d dilations with one value.
func.func @conv2d_dilations_size(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{expects 'dilations' to have 2 values, got 1}}
  // expected-error @+1 {{'kiln.conv2d' op failed to infer returned types}}
  %0 = kiln.conv2d %x, %w {dilations = array<i64: 2>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

// conv2d pads with two values instead of four.
func.func @conv2d_pads_size(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{expects 'pads' to have 4 values, got 2}}
  // expected-error @+1 {{'kiln.conv2d' op failed to infer returned types}}
  %0 = kiln.conv2d %x, %w {pads = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  return
}

// -----

// conv2d with a zero stride.
func.func @conv2d_stride_zero(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{expects every 'strides' value to be positive}}
  // expected-error @+1 {{'kiln.conv2d' op failed to infer returned types}}
  %0 = kiln.conv2d %x, %w {strides = array<i64: 0, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

// conv2d with a negative dilation.
func.func @conv2d_dilation_negative(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{expects every 'dilations' value to be positive}}
  // expected-error @+1 {{'kiln.conv2d' op failed to infer returned types}}
  %0 = kiln.conv2d %x, %w {dilations = array<i64: 1, -1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

// conv2d with a negative pad.
func.func @conv2d_pad_negative(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{expects every 'pads' value to be non-negative}}
  // expected-error @+1 {{'kiln.conv2d' op failed to infer returned types}}
  %0 = kiln.conv2d %x, %w {pads = array<i64: 0, 0, -1, 0>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x5x6xf32>
  return
}

// -----

// conv2d with zero groups.
func.func @conv2d_groups_zero(%x: tensor<1x4x8x8xf32>, %w: tensor<4x4x3x3xf32>) {
  // expected-error @+2 {{expects a positive group count, got 0}}
  // expected-error @+1 {{'kiln.conv2d' op failed to infer returned types}}
  %0 = kiln.conv2d %x, %w {groups = 0} : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

// conv2d whose channel counts are not divisible by the group count.
func.func @conv2d_groups_not_dividing(%x: tensor<1x4x8x8xf32>, %w: tensor<6x1x3x3xf32>) {
  // expected-error @+2 {{input channels (4) and output channels (6) must be divisible by groups (4)}}
  // expected-error @+1 {{'kiln.conv2d' op failed to infer returned types}}
  %0 = kiln.conv2d %x, %w {groups = 4} : (tensor<1x4x8x8xf32>, tensor<6x1x3x3xf32>) -> tensor<1x6x6x6xf32>
  return
}

// -----

// conv2d whose weight expects another number of input channels.
func.func @conv2d_weight_channels(%x: tensor<1x4x8x8xf32>, %w: tensor<8x3x3x3xf32>) {
  // expected-error @+2 {{weight expects 3 input channels, input has 4}}
  // expected-error @+1 {{'kiln.conv2d' op failed to infer returned types}}
  %0 = kiln.conv2d %x, %w : (tensor<1x4x8x8xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x6x6xf32>
  return
}

// -----

// conv2d bias of another element type.
func.func @conv2d_element_type_bias(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf16>) {
  // expected-error @+2 {{expects input and bias to have one element type, got 'f32' and 'f16'}}
  // expected-error @+1 {{'kiln.conv2d' op failed to infer returned types}}
  %0 = kiln.conv2d %x, %w, %b : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf16>) -> tensor<1x4x6x6xf32>
  return
}

// -----

// conv2d bias whose length is not the output channel count.
func.func @conv2d_bias_shape(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<1x4xf32>) {
  // expected-error @+2 {{expects bias of shape 4, got 1x4}}
  // expected-error @+1 {{'kiln.conv2d' op failed to infer returned types}}
  %0 = kiln.conv2d %x, %w, %b : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<1x4xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

// conv2d whose (dilated) window is larger than the padded input.
func.func @conv2d_window_too_large(%x: tensor<1x3x8x4xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{window of size 3 (dilation 2) does not fit spatial dimension 3 of size 4 with padding 0+0}}
  // expected-error @+1 {{'kiln.conv2d' op failed to infer returned types}}
  %0 = kiln.conv2d %x, %w {dilations = array<i64: 1, 2>} : (tensor<1x3x8x4xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x1xf32>
  return
}

// -----

// conv2d whose written result ignores the stride.
func.func @conv2d_wrong_result(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{'kiln.conv2d' op inferred type(s) 'tensor<1x4x3x3xf32>' are incompatible with return type(s) of operation 'tensor<1x4x6x6xf32>'}}
  // expected-error @+1 {{'kiln.conv2d' op failed to infer returned types}}
  %0 = kiln.conv2d %x, %w {strides = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

// conv2d of integers (ODS constraint: float only).
func.func @conv2d_integer(%x: tensor<1x1x3x3xi8>) {
  // expected-error @+1 {{'kiln.conv2d' op operand #0 must be statically shaped tensor of floating-point values, but got 'tensor<1x1x3x3xi8>'}}
  %0 = kiln.conv2d %x, %x : (tensor<1x1x3x3xi8>, tensor<1x1x3x3xi8>) -> tensor<1x1x1x1xi8>
  return
}

// -----

// conv2d strides must be a dense i64 array (ODS attribute constraint).
func.func @conv2d_strides_wrong_attr(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'kiln.conv2d' op attribute 'strides' failed to satisfy constraint: i64 dense array attribute}}
  %0 = kiln.conv2d %x, %w {strides = [1, 1]} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// weight_only_matmul
//===----------------------------------------------------------------------===//

func.func @weight_only_lhs_rank_1(%x: tensor<8xf32>, %q: tensor<8x4xi8>, %s: tensor<1x4xf32>) {
  // expected-error @+2 {{expects lhs of rank >= 2, got rank 1}}
  // expected-error @+1 {{'kiln.weight_only_matmul' op failed to infer returned types}}
  %0 = kiln.weight_only_matmul %x, %q, %s {bits = 8 : i64, group = 8 : i64} : (tensor<8xf32>, tensor<8x4xi8>, tensor<1x4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @weight_only_weights_rank(%x: tensor<1x8xf32>, %q: tensor<8x4x1xi8>, %s: tensor<1x4xf32>) {
  // expected-error @+2 {{expects weights of rank 2, got rank 3}}
  // expected-error @+1 {{'kiln.weight_only_matmul' op failed to infer returned types}}
  %0 = kiln.weight_only_matmul %x, %q, %s {bits = 8 : i64, group = 8 : i64} : (tensor<1x8xf32>, tensor<8x4x1xi8>, tensor<1x4xf32>) -> tensor<1x4xf32>
  return
}

// -----

func.func @weight_only_f16_lhs(%x: tensor<1x8xf16>, %q: tensor<8x4xi8>, %s: tensor<1x4xf32>) {
  // expected-error @+2 {{expects f32 lhs and scales}}
  // expected-error @+1 {{'kiln.weight_only_matmul' op failed to infer returned types}}
  %0 = kiln.weight_only_matmul %x, %q, %s {bits = 8 : i64, group = 8 : i64} : (tensor<1x8xf16>, tensor<8x4xi8>, tensor<1x4xf32>) -> tensor<1x4xf16>
  return
}

// -----

func.func @weight_only_i32_weights(%x: tensor<1x8xf32>, %q: tensor<8x4xi32>, %s: tensor<1x4xf32>) {
  // expected-error @+2 {{expects i8 weights, got 'i32'}}
  // expected-error @+1 {{'kiln.weight_only_matmul' op failed to infer returned types}}
  %0 = kiln.weight_only_matmul %x, %q, %s {bits = 8 : i64, group = 8 : i64} : (tensor<1x8xf32>, tensor<8x4xi32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  return
}

// -----

func.func @weight_only_bits_2(%x: tensor<1x8xf32>, %q: tensor<8x4xi8>, %s: tensor<1x4xf32>) {
  // expected-error @+2 {{bits must be 4 or 8, got 2}}
  // expected-error @+1 {{'kiln.weight_only_matmul' op failed to infer returned types}}
  %0 = kiln.weight_only_matmul %x, %q, %s {bits = 2 : i64, group = 8 : i64} : (tensor<1x8xf32>, tensor<8x4xi8>, tensor<1x4xf32>) -> tensor<1x4xf32>
  return
}

// -----

func.func @weight_only_group_0(%x: tensor<1x8xf32>, %q: tensor<8x4xi8>, %s: tensor<1x4xf32>) {
  // expected-error @+2 {{group must be positive, got 0}}
  // expected-error @+1 {{'kiln.weight_only_matmul' op failed to infer returned types}}
  %0 = kiln.weight_only_matmul %x, %q, %s {bits = 8 : i64, group = 0 : i64} : (tensor<1x8xf32>, tensor<8x4xi8>, tensor<1x4xf32>) -> tensor<1x4xf32>
  return
}

// -----

func.func @weight_only_dynamic_k(%x: tensor<1x?xf32>, %q: tensor<8x4xi8>, %s: tensor<1x4xf32>) {
  // Operands have static shapes (Kiln_FloatTensor).
  // expected-error @+1 {{operand #0 must be statically shaped tensor of floating-point values}}
  %0 = kiln.weight_only_matmul %x, %q, %s {bits = 8 : i64, group = 8 : i64} : (tensor<1x?xf32>, tensor<8x4xi8>, tensor<1x4xf32>) -> tensor<1x4xf32>
  return
}

// -----

func.func @weight_only_contracting_mismatch(%x: tensor<1x9xf32>, %q: tensor<8x4xi8>, %s: tensor<1x4xf32>) {
  // expected-error @+2 {{contracting dimensions differ: lhs has 9, weights have 8}}
  // expected-error @+1 {{'kiln.weight_only_matmul' op failed to infer returned types}}
  %0 = kiln.weight_only_matmul %x, %q, %s {bits = 8 : i64, group = 8 : i64} : (tensor<1x9xf32>, tensor<8x4xi8>, tensor<1x4xf32>) -> tensor<1x4xf32>
  return
}

// -----

func.func @weight_only_scales_shape(%x: tensor<1x10xf32>, %q: tensor<10x4xi8>, %s: tensor<1x4xf32>) {
  // expected-error @+2 {{scales must be 2x4 (2 groups of 8 rows x 4 columns), got 1x4}}
  // expected-error @+1 {{'kiln.weight_only_matmul' op failed to infer returned types}}
  %0 = kiln.weight_only_matmul %x, %q, %s {bits = 8 : i64, group = 8 : i64} : (tensor<1x10xf32>, tensor<10x4xi8>, tensor<1x4xf32>) -> tensor<1x4xf32>
  return
}
