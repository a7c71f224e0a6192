// RUN: kiln-opt %s -split-input-file -verify-diagnostics

// Diagnostics of the data-movement ops: the shared rules in TypeInference.cpp
// (transpose, concat, slice, gather, pad) and the verifiers in GraphOps.cpp
// (reshape, broadcast, split).

//===----------------------------------------------------------------------===//
// kiln.reshape
//===----------------------------------------------------------------------===//

// reshape: the element counts differ.
func.func @reshape_count_mismatch(%x: tensor<2x3xf32>) -> tensor<5xf32> {
  // expected-error @+1 {{'kiln.reshape' op cannot reshape 'tensor<2x3xf32>' into 'tensor<5xf32>': the element counts differ}}
  %0 = kiln.reshape %x : tensor<2x3xf32> -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

// reshape: rank 0 holds one element, not two.
func.func @reshape_rank0_count_mismatch(%x: tensor<2xf32>) -> tensor<f32> {
  // expected-error @+1 {{cannot reshape 'tensor<2xf32>' into 'tensor<f32>'}}
  %0 = kiln.reshape %x : tensor<2xf32> -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// reshape: the element count overflows int64 (it does not wrap to a match).
func.func @reshape_count_overflow(%x: tensor<4294967296x4294967296xf32>) -> tensor<0xf32> {
  // expected-error @+1 {{the element counts differ}}
  %0 = kiln.reshape %x : tensor<4294967296x4294967296xf32> -> tensor<0xf32>
  return %0 : tensor<0xf32>
}

// -----

// reshape: the element type changes.
func.func @reshape_element_mismatch(%x: tensor<2x3xf32>) -> tensor<6xf16> {
  // expected-error @+1 {{'kiln.reshape' op expects input and result of one element type, got 'f32' and 'f16'}}
  %0 = kiln.reshape %x : tensor<2x3xf32> -> tensor<6xf16>
  return %0 : tensor<6xf16>
}

// -----

// reshape: dynamic shapes are not graph-level tensors.
func.func @reshape_dynamic(%x: tensor<2x3xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{result #0 must be statically shaped tensor of supported element values}}
  %0 = kiln.reshape %x : tensor<2x3xf32> -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

//===----------------------------------------------------------------------===//
// kiln.transpose
//===----------------------------------------------------------------------===//

// -----

// transpose: the permutation's length differs from the rank.
func.func @transpose_wrong_length(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+2 {{expects 'permutation' to have 2 values, got 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kiln.transpose %x [1, 0, 2] : tensor<2x3xf32> -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// transpose: a repeated entry.
func.func @transpose_repeated(%x: tensor<2x3x4xf32>) -> tensor<2x2x4xf32> {
  // expected-error @+2 {{permutation is not a permutation of 0..2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kiln.transpose %x [0, 0, 2] : tensor<2x3x4xf32> -> tensor<2x2x4xf32>
  return %0 : tensor<2x2x4xf32>
}

// -----

// transpose: an entry past the rank.
func.func @transpose_out_of_range(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+2 {{permutation is not a permutation of 0..1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kiln.transpose %x [2, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// transpose: negative entries are not accepted (unlike axes).
func.func @transpose_negative(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+2 {{permutation is not a permutation of 0..1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kiln.transpose %x [-1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// transpose: the written result is the input's shape, not the permuted one.
func.func @transpose_wrong_result(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+2 {{'kiln.transpose' op inferred type(s) 'tensor<3x2xf32>' are incompatible with return type(s) of operation 'tensor<2x3xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kiln.transpose %x [1, 0] : tensor<2x3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

//===----------------------------------------------------------------------===//
// kiln.broadcast
//===----------------------------------------------------------------------===//

// -----

// broadcast: a non-1 dimension differs from the result's.
func.func @broadcast_incompatible(%x: tensor<3x2xf32>) -> tensor<2x3x4xf32> {
  // expected-error @+1 {{'kiln.broadcast' op cannot broadcast 'tensor<3x2xf32>' to 'tensor<2x3x4xf32>'}}
  %0 = kiln.broadcast %x : tensor<3x2xf32> -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// -----

// broadcast: only to a rank at least the input's.
func.func @broadcast_rank_decrease(%x: tensor<1x4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{cannot broadcast 'tensor<1x4xf32>' to 'tensor<4xf32>'}}
  %0 = kiln.broadcast %x : tensor<1x4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// broadcast: dimensions align from the right, not the left.
func.func @broadcast_left_aligned(%x: tensor<3xf32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{cannot broadcast 'tensor<3xf32>' to 'tensor<3x4xf32>'}}
  %0 = kiln.broadcast %x : tensor<3xf32> -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

// broadcast: the element type changes.
func.func @broadcast_element_mismatch(%x: tensor<f32>) -> tensor<4xf64> {
  // expected-error @+1 {{'kiln.broadcast' op expects input and result of one element type, got 'f32' and 'f64'}}
  %0 = kiln.broadcast %x : tensor<f32> -> tensor<4xf64>
  return %0 : tensor<4xf64>
}

//===----------------------------------------------------------------------===//
// kiln.concat
//===----------------------------------------------------------------------===//

// -----

// concat: no inputs (only writable in generic form).
func.func @concat_no_inputs() -> tensor<2xf32> {
  // expected-error @+2 {{expects at least one input}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = "kiln.concat"() {axis = 0 : i64} : () -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// concat: axis past the rank.
func.func @concat_axis_out_of_range(%a: tensor<2x3xf32>) -> tensor<2x6xf32> {
  // expected-error @+2 {{axis 2 is out of range for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kiln.concat %a, %a axis 2 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}

// -----

// concat: rank-0 inputs have no axis to join along.
func.func @concat_rank0(%a: tensor<i64>) -> tensor<2xi64> {
  // expected-error @+2 {{axis 0 is out of range for rank 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kiln.concat %a, %a axis 0 : (tensor<i64>, tensor<i64>) -> tensor<2xi64>
  return %0 : tensor<2xi64>
}

// -----

// concat: the inputs' element types differ.
func.func @concat_element_mismatch(%a: tensor<2xf32>, %b: tensor<2xf16>) -> tensor<4xf32> {
  // expected-error @+2 {{expects input #0 and input #1 to have one element type, got 'f32' and 'f16'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kiln.concat %a, %b axis 0 : (tensor<2xf32>, tensor<2xf16>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// concat: the inputs' ranks differ.
func.func @concat_rank_mismatch(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<3x3xf32> {
  // expected-error @+2 {{input #1 has rank 1, input #0 has rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kiln.concat %a, %b axis 0 : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

// -----

// concat: a dimension other than the axis differs (third input).
func.func @concat_dim_mismatch(%a: tensor<2x3xf32>, %b: tensor<2x5xf32>, %c: tensor<4x1xf32>) -> tensor<2x9xf32> {
  // expected-error @+2 {{input #2 has size 4 in dimension 0 where input #0 has 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kiln.concat %a, %b, %c axis 1 : (tensor<2x3xf32>, tensor<2x5xf32>, tensor<4x1xf32>) -> tensor<2x9xf32>
  return %0 : tensor<2x9xf32>
}

// -----

// concat: the joined size overflows int64.
func.func @concat_overflow(%a: tensor<9223372036854775807xi8>, %b: tensor<1xi8>) -> tensor<1xi8> {
  // expected-error @+2 {{concatenated size overflows}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kiln.concat %a, %b axis 0 : (tensor<9223372036854775807xi8>, tensor<1xi8>) -> tensor<1xi8>
  return %0 : tensor<1xi8>
}

// -----

// concat: the written result size along the axis is wrong.
func.func @concat_wrong_result(%a: tensor<2x3xf32>, %b: tensor<2x5xf32>) -> tensor<2x7xf32> {
  // expected-error @+2 {{'kiln.concat' op inferred type(s) 'tensor<2x8xf32>' are incompatible with return type(s) of operation 'tensor<2x7xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kiln.concat %a, %b axis -1 : (tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<2x7xf32>
  return %0 : tensor<2x7xf32>
}

//===----------------------------------------------------------------------===//
// kiln.split
//===----------------------------------------------------------------------===//

// -----

// split: axis past the rank.
func.func @split_axis_out_of_range(%x: tensor<4x6xf32>) -> tensor<4x6xf32> {
  // expected-error @+1 {{'kiln.split' op axis 2 is out of range for rank 2}}
  %0 = kiln.split %x axis 2 : tensor<4x6xf32> -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}

// -----

// split: negative axis before -rank.
func.func @split_axis_too_negative(%x: tensor<4x6xf32>) -> tensor<4x6xf32> {
  // expected-error @+1 {{'kiln.split' op axis -3 is out of range for rank 2}}
  %0 = kiln.split %x axis -3 : tensor<4x6xf32> -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}

// -----

// split: no results (only writable in generic form).
func.func @split_no_results(%x: tensor<4x6xf32>) {
  // expected-error @+1 {{'kiln.split' op expects at least one result}}
  "kiln.split"(%x) {axis = 0 : i64} : (tensor<4x6xf32>) -> ()
  return
}

// -----

// split: a piece of another element type.
func.func @split_element_mismatch(%x: tensor<4x6xf32>) -> tensor<4x3xf16> {
  // expected-error @+1 {{'kiln.split' op result #1 must have the input's rank and element type, got 'tensor<4x3xf16>'}}
  %0:2 = kiln.split %x axis 1 : tensor<4x6xf32> -> tensor<4x3xf32>, tensor<4x3xf16>
  return %0#1 : tensor<4x3xf16>
}

// -----

// split: a piece of another rank.
func.func @split_rank_mismatch(%x: tensor<4x6xf32>) -> tensor<4x2xf32> {
  // expected-error @+1 {{result #0 must have the input's rank and element type, got 'tensor<24xf32>'}}
  %0:2 = kiln.split %x axis 1 : tensor<4x6xf32> -> tensor<24xf32>, tensor<4x2xf32>
  return %0#1 : tensor<4x2xf32>
}

// -----

// split: a piece differs from the input outside the axis.
func.func @split_other_dim_mismatch(%x: tensor<4x6xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'kiln.split' op result #1 differs from the input in dimension 0}}
  %0:2 = kiln.split %x axis 1 : tensor<4x6xf32> -> tensor<4x3xf32>, tensor<2x3xf32>
  return %0#0 : tensor<4x3xf32>
}

// -----

// split: the pieces are too small to cover the input.
func.func @split_sizes_too_small(%x: tensor<4x6xf32>) -> tensor<4x2xf32> {
  // expected-error @+1 {{'kiln.split' op result sizes along axis 1 add up to 5, the input has 6}}
  %0:3 = kiln.split %x axis -1 : tensor<4x6xf32> -> tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x1xf32>
  return %0#0 : tensor<4x2xf32>
}

// -----

// split: the pieces are larger than the input.
func.func @split_sizes_too_large(%x: tensor<4x6xf32>) -> tensor<3x6xf32> {
  // expected-error @+1 {{result sizes along axis 0 add up to 6, the input has 4}}
  %0:2 = kiln.split %x axis 0 : tensor<4x6xf32> -> tensor<3x6xf32>, tensor<3x6xf32>
  return %0#0 : tensor<3x6xf32>
}

//===----------------------------------------------------------------------===//
// kiln.slice
//===----------------------------------------------------------------------===//

// -----

// slice: `starts` has the wrong number of values.
func.func @slice_starts_count(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+2 {{expects 'starts' to have 2 values, got 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kiln.slice %x starts [0] limits [4, 8] steps [1, 1] : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// slice: `limits` has the wrong number of values.
func.func @slice_limits_count(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+2 {{expects 'limits' to have 2 values, got 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kiln.slice %x starts [0, 0] limits [4, 8, 1] steps [1, 1] : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// slice: `steps` has the wrong number of values.
func.func @slice_steps_count(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+2 {{expects 'steps' to have 2 values, got 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kiln.slice %x starts [0, 0] limits [4, 8] steps [] : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// slice: a zero step.
func.func @slice_zero_step(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+2 {{step of dimension 1 is zero}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kiln.slice %x starts [0, 0] limits [4, 8] steps [1, 0] : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// slice: positive step with the limit past the dimension.
func.func @slice_limit_past_end(%x: tensor<4x8xf32>) -> tensor<4x9xf32> {
  // expected-error @+2 {{slice 0:9:1 is out of bounds for dimension 1 of size 8}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kiln.slice %x starts [0, 0] limits [4, 9] steps [1, 1] : tensor<4x8xf32> -> tensor<4x9xf32>
  return %0 : tensor<4x9xf32>
}

// -----

// slice: positive step with start after the limit (not normalised).
func.func @slice_start_after_limit(%x: tensor<4x8xf32>) -> tensor<0x8xf32> {
  // expected-error @+2 {{slice 3:1:1 is out of bounds for dimension 0 of size 4}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kiln.slice %x starts [3, 0] limits [1, 8] steps [1, 1] : tensor<4x8xf32> -> tensor<0x8xf32>
  return %0 : tensor<0x8xf32>
}

// -----

// slice: positive step with a negative (unnormalised) start.
func.func @slice_negative_start(%x: tensor<4x8xf32>) -> tensor<1x8xf32> {
  // expected-error @+2 {{slice -1:4:1 is out of bounds for dimension 0 of size 4}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kiln.slice %x starts [-1, 0] limits [4, 8] steps [1, 1] : tensor<4x8xf32> -> tensor<1x8xf32>
  return %0 : tensor<1x8xf32>
}

// -----

// slice: negative step starting at the dimension's size.
func.func @slice_negative_step_start_past_end(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+2 {{slice 4:-1:-1 is out of bounds for dimension 0 of size 4}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kiln.slice %x starts [4, 0] limits [-1, 8] steps [-1, 1] : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// slice: negative step with a limit below -1.
func.func @slice_negative_step_limit_too_low(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+2 {{slice 3:-2:-1 is out of bounds for dimension 0 of size 4}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kiln.slice %x starts [3, 0] limits [-2, 8] steps [-1, 1] : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// slice: negative step with the limit above the start.
func.func @slice_negative_step_limit_above_start(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+2 {{slice 3:7:-2 is out of bounds for dimension 1 of size 8}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kiln.slice %x starts [0, 3] limits [4, 7] steps [1, -2] : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// slice: the written result size is wrong (ceil((8 - 2) / 4) = 2).
func.func @slice_wrong_result(%x: tensor<4x8xf32>) -> tensor<4x1xf32> {
  // expected-error @+2 {{'kiln.slice' op inferred type(s) 'tensor<4x2xf32>' are incompatible with return type(s) of operation 'tensor<4x1xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kiln.slice %x starts [0, 2] limits [4, 8] steps [1, 4] : tensor<4x8xf32> -> tensor<4x1xf32>
  return %0 : tensor<4x1xf32>
}

//===----------------------------------------------------------------------===//
// kiln.gather
//===----------------------------------------------------------------------===//

// -----

// gather: a rank-0 input has no axis to gather along.
func.func @gather_from_scalar(%x: tensor<f32>, %i: tensor<2xi64>) -> tensor<2xf32> {
  // expected-error @+2 {{cannot gather from a scalar}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kiln.gather %x[%i] axis 0 : (tensor<f32>, tensor<2xi64>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// gather: axis past the rank.
func.func @gather_axis_out_of_range(%x: tensor<4x8xf32>, %i: tensor<2xi64>) -> tensor<4x2xf32> {
  // expected-error @+2 {{axis 2 is out of range for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kiln.gather %x[%i] axis 2 : (tensor<4x8xf32>, tensor<2xi64>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

// gather: negative axis before -rank.
func.func @gather_axis_too_negative(%x: tensor<4x8xf32>, %i: tensor<2xi32>) -> tensor<2x8xf32> {
  // expected-error @+2 {{axis -3 is out of range for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kiln.gather %x[%i] axis -3 : (tensor<4x8xf32>, tensor<2xi32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

// gather: indices must be i32 or i64.
func.func @gather_i8_indices(%x: tensor<4x8xf32>, %i: tensor<2xi8>) -> tensor<2x8xf32> {
  // expected-error @+1 {{operand #1 must be statically shaped tensor of i32 or i64 index values}}
  %0 = kiln.gather %x[%i] axis 0 : (tensor<4x8xf32>, tensor<2xi8>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

// gather: the written result drops the indices' dimensions.
func.func @gather_wrong_result(%x: tensor<4x8xf32>, %i: tensor<2x3xi64>) -> tensor<4x2xf32> {
  // expected-error @+2 {{'kiln.gather' op inferred type(s) 'tensor<4x2x3xf32>' are incompatible with return type(s) of operation 'tensor<4x2xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kiln.gather %x[%i] axis -1 : (tensor<4x8xf32>, tensor<2x3xi64>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

//===----------------------------------------------------------------------===//
// kiln.pad
//===----------------------------------------------------------------------===//

// -----

// pad: `low` has the wrong number of values.
func.func @pad_low_count(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+2 {{expects 'low' to have 2 values, got 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kiln.pad %x low [0] high [0, 0] constant 0.0 : tensor<2x3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// pad: `high` has the wrong number of values.
func.func @pad_high_count(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+2 {{expects 'high' to have 2 values, got 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kiln.pad %x low [0, 0] high [0, 0, 0] constant 0.0 : tensor<2x3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// pad: negative `low` (cropping is a slice, not a pad).
func.func @pad_negative_low(%x: tensor<2x3xf32>) -> tensor<2x2xf32> {
  // expected-error @+2 {{expects every 'low' value to be non-negative}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kiln.pad %x low [0, -1] high [0, 0] constant 0.0 : tensor<2x3xf32> -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

// pad: negative `high`.
func.func @pad_negative_high(%x: tensor<2x3xf32>) -> tensor<1x3xf32> {
  // expected-error @+2 {{expects every 'high' value to be non-negative}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kiln.pad %x low [0, 0] high [-1, 0] edge 0.0 : tensor<2x3xf32> -> tensor<1x3xf32>
  return %0 : tensor<1x3xf32>
}

// -----

// pad: reflect padding as large as the dimension.
func.func @pad_reflect_too_large(%x: tensor<2x3xf32>) -> tensor<2x7xf32> {
  // expected-error @+2 {{reflect padding of 3 needs dimension 1 to be larger, it has size 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kiln.pad %x low [0, 3] high [0, 1] reflect 0.0 : tensor<2x3xf32> -> tensor<2x7xf32>
  return %0 : tensor<2x7xf32>
}

// -----

// pad: reflect padding of a size-1 dimension.
func.func @pad_reflect_size1(%x: tensor<1x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+2 {{reflect padding of 1 needs dimension 0 to be larger, it has size 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kiln.pad %x low [0, 0] high [1, 0] reflect 0.0 : tensor<1x3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// pad: edge padding of an empty dimension.
func.func @pad_edge_empty(%x: tensor<0x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+2 {{edge padding needs dimension 0 to be non-empty}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kiln.pad %x low [1, 0] high [1, 0] edge 0.0 : tensor<0x3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// pad: the written result is not input + low + high.
func.func @pad_wrong_result(%x: tensor<2x3xf32>) -> tensor<3x3xf32> {
  // expected-error @+2 {{'kiln.pad' op inferred type(s) 'tensor<4x3xf32>' are incompatible with return type(s) of operation 'tensor<3x3xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kiln.pad %x low [1, 0] high [1, 0] constant 0.0 : tensor<2x3xf32> -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

// -----

// pad: the mode is one of constant, reflect, edge.
func.func @pad_unknown_mode(%x: tensor<2x3xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'mode' [constant, reflect, edge]}}
  %0 = kiln.pad %x low [1, 0] high [1, 0] wrap 0.0 : tensor<2x3xf32> -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

// pad: an integer tensor cannot be padded with a fraction.
func.func @pad_value_not_integral(%x: tensor<4xi32>) -> tensor<6xi32> {
  // expected-error @+1 {{'kiln.pad' op pad value 2.500000e+00 is not representable in 'i32'}}
  %0 = kiln.pad %x low [1] high [1] constant 2.5 : tensor<4xi32> -> tensor<6xi32>
  return %0 : tensor<6xi32>
}

// -----

// pad: 300 does not fit in i8.
func.func @pad_value_out_of_range(%x: tensor<4xi8>) -> tensor<6xi8> {
  // expected-error @+1 {{pad value 3.000000e+02 is not representable in 'i8'}}
  %0 = kiln.pad %x low [1] high [1] constant 300.0 : tensor<4xi8> -> tensor<6xi8>
  return %0 : tensor<6xi8>
}

// -----

// split: the result sizes overflow int64 before they could be compared.
func.func @split_sizes_overflow(%x: tensor<0xf32>) {
  // expected-error @+1 {{'kiln.split' op result sizes along axis 0 overflow}}
  %a, %b, %c = kiln.split %x axis 0 : tensor<0xf32> -> tensor<9223372036854775807xf32>, tensor<9223372036854775807xf32>, tensor<2xf32>
  return
}
