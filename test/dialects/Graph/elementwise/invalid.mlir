// RUN: kiln-opt %s -split-input-file -verify-diagnostics

// Binary op operands with different element types.
func.func @binary_element_type_mismatch(%a: tensor<4xf32>, %b: tensor<4xf16>) {
  // expected-error @+2 {{expects lhs and rhs to have one element type, got 'f32' and 'f16'}}
  // expected-error @+1 {{'kiln.add' op failed to infer returned types}}
  %0 = kiln.add %a, %b : (tensor<4xf32>, tensor<4xf16>) -> tensor<4xf32>
  return
}

// -----

// Compare operands with different element types (float against integer).
func.func @compare_element_type_mismatch(%a: tensor<4xf32>, %b: tensor<4xi32>) {
  // expected-error @+2 {{expects lhs and rhs to have one element type, got 'f32' and 'i32'}}
  // expected-error @+1 {{'kiln.compare' op failed to infer returned types}}
  %0 = kiln.compare eq, %a, %b : (tensor<4xf32>, tensor<4xi32>) -> tensor<4xi1>
  return
}

// -----

// Binary op operands whose shapes do not broadcast.
func.func @binary_not_broadcastable(%a: tensor<2x3xf32>, %b: tensor<4xf32>) {
  // expected-error @+2 {{operand shapes 2x3 and 4 are not broadcast-compatible}}
  // expected-error @+1 {{'kiln.mul' op failed to infer returned types}}
  %0 = kiln.mul %a, %b : (tensor<2x3xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  return
}

// -----

// Select branches with different element types.
func.func @select_element_type_mismatch(%c: tensor<4xi1>, %a: tensor<4xf32>, %b: tensor<4xf16>) {
  // expected-error @+2 {{expects on_true and on_false to have one element type, got 'f32' and 'f16'}}
  // expected-error @+1 {{'kiln.select' op failed to infer returned types}}
  %0 = kiln.select %c, %a, %b : (tensor<4xi1>, tensor<4xf32>, tensor<4xf16>) -> tensor<4xf32>
  return
}

// -----

// Select whose condition does not broadcast with the branches.
func.func @select_not_broadcastable(%c: tensor<3xi1>, %a: tensor<4xf32>, %b: tensor<4xf32>) {
  // expected-error @+2 {{operand shapes 3, 4 and 4 are not broadcast-compatible}}
  // expected-error @+1 {{'kiln.select' op failed to infer returned types}}
  %0 = kiln.select %c, %a, %b : (tensor<3xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

// Select condition that is not a boolean tensor (ODS constraint).
func.func @select_condition_not_bool(%c: tensor<4xi8>, %a: tensor<4xf32>) {
  // expected-error @+1 {{'kiln.select' op operand #0 must be statically shaped tensor of boolean (i1) values, but got 'tensor<4xi8>'}}
  %0 = kiln.select %c, %a, %a : (tensor<4xi8>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

// Clip with a lower bound above the upper bound.
func.func @clip_min_above_max(%a: tensor<4xf32>) {
  // expected-error @+1 {{'kiln.clip' op expects min (6.000000e+00) <= max (5.000000e-01)}}
  %0 = kiln.clip %a min 6.0 max 0.5 : tensor<4xf32>
  return
}

// -----

// Clip of a boolean tensor (ODS constraint: numeric only).
func.func @clip_bool(%a: tensor<4xi1>) {
  // expected-error @+1 {{'kiln.clip' op operand #0 must be statically shaped tensor of numeric values, but got 'tensor<4xi1>'}}
  %0 = kiln.clip %a max 1.0 : tensor<4xi1>
  return
}

// -----

// Cast that changes the shape.
func.func @cast_shape_mismatch(%a: tensor<4xf32>) {
  // expected-error @+1 {{'kiln.cast' op expects input and result of one shape, got 'tensor<4xf32>' and 'tensor<2x2xf16>'}}
  %0 = kiln.cast %a : tensor<4xf32> -> tensor<2x2xf16>
  return
}

// -----

// Cast to an element type the dialect does not support (a 4-bit integer).
func.func @cast_unsupported_element(%a: tensor<4xf32>) {
  // expected-error @+1 {{'kiln.cast' op result #0 must be statically shaped tensor of supported element values, but got 'tensor<4xi4>'}}
  %0 = kiln.cast %a : tensor<4xf32> -> tensor<4xi4>
  return
}

// -----

// Float-only unary op on an integer tensor (ODS constraint).
func.func @exp_of_integer(%a: tensor<4xi32>) {
  // expected-error @+1 {{'kiln.exp' op operand #0 must be statically shaped tensor of floating-point values, but got 'tensor<4xi32>'}}
  %0 = kiln.exp %a : tensor<4xi32>
  return
}

// -----

// Dynamically shaped tensors are rejected (ODS constraint).
func.func @exp_of_dynamic_shape(%a: tensor<?xf32>) {
  // expected-error @+1 {{'kiln.exp' op operand #0 must be statically shaped tensor of floating-point values, but got 'tensor<?xf32>'}}
  %0 = kiln.exp %a : tensor<?xf32>
  return
}

// -----

// Dynamically shaped operand of a broadcasting binary op.
func.func @add_of_dynamic_shape(%a: tensor<2x?xf32>) {
  // expected-error @+1 {{'kiln.add' op operand #0 must be statically shaped tensor of numeric values, but got 'tensor<2x?xf32>'}}
  %0 = kiln.add %a, %a : (tensor<2x?xf32>, tensor<2x?xf32>) -> tensor<2x?xf32>
  return
}

// -----

// Unranked tensors cannot even be written in the custom form of a unary op.
func.func @exp_of_unranked(%a: tensor<*xf32>) {
  // expected-error @+1 {{custom op 'kiln.exp' invalid kind of type specified: expected builtin.tensor, but found 'tensor<*xf32>'}}
  %0 = kiln.exp %a : tensor<*xf32>
  return
}

// -----

// Logical not of a float tensor (ODS constraint: i1 only).
func.func @not_of_float(%a: tensor<4xf32>) {
  // expected-error @+1 {{'kiln.not' op operand #0 must be statically shaped tensor of boolean (i1) values, but got 'tensor<4xf32>'}}
  %0 = kiln.not %a : tensor<4xf32>
  return
}

// -----

// Arithmetic on booleans (ODS constraint: numeric only).
func.func @add_of_bool(%a: tensor<4xi1>) {
  // expected-error @+1 {{'kiln.add' op operand #0 must be statically shaped tensor of numeric values, but got 'tensor<4xi1>'}}
  %0 = kiln.add %a, %a : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  return
}

// -----

// Pow is float-only (ODS constraint).
func.func @pow_of_integer(%a: tensor<4xi32>) {
  // expected-error @+1 {{'kiln.pow' op operand #0 must be statically shaped tensor of floating-point values, but got 'tensor<4xi32>'}}
  %0 = kiln.pow %a, %a : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return
}

// -----

// Logical and of floats (ODS constraint: i1 only).
func.func @and_of_float(%a: tensor<4xf32>) {
  // expected-error @+1 {{'kiln.and' op operand #0 must be statically shaped tensor of boolean (i1) values, but got 'tensor<4xf32>'}}
  %0 = kiln.and %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

// Compare whose written result is not a boolean tensor (ODS constraint).
func.func @compare_result_not_bool(%a: tensor<4xf32>) {
  // expected-error @+1 {{'kiln.compare' op result #0 must be statically shaped tensor of boolean (i1) values, but got 'tensor<4xf32>'}}
  %0 = kiln.compare lt, %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

// Binary op whose written result shape is not the broadcast shape.
func.func @add_wrong_result_shape(%a: tensor<4xf32>) {
  // expected-error @+2 {{'kiln.add' op inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<2x4xf32>'}}
  // expected-error @+1 {{'kiln.add' op failed to infer returned types}}
  %0 = kiln.add %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  return
}

// -----

// Compare whose written result shape is not the broadcast shape.
func.func @compare_wrong_result_shape(%a: tensor<2x1xi32>, %b: tensor<3xi32>) {
  // expected-error @+2 {{'kiln.compare' op inferred type(s) 'tensor<2x3xi1>' are incompatible with return type(s) of operation 'tensor<2x1xi1>'}}
  // expected-error @+1 {{'kiln.compare' op failed to infer returned types}}
  %0 = kiln.compare eq, %a, %b : (tensor<2x1xi32>, tensor<3xi32>) -> tensor<2x1xi1>
  return
}

// -----

// Unary op (generic form) whose written result type differs from the input's.
func.func @exp_wrong_result_type(%a: tensor<4xf32>) {
  // expected-error @+2 {{'kiln.exp' op inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<4xf16>'}}
  // expected-error @+1 {{'kiln.exp' op failed to infer returned types}}
  %0 = "kiln.exp"(%a) : (tensor<4xf32>) -> tensor<4xf16>
  return
}

// -----

// Select whose written result element type is not the branches'.
func.func @select_wrong_result_type(%c: tensor<4xi1>, %a: tensor<4xf32>) {
  // expected-error @+2 {{'kiln.select' op inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<4xf16>'}}
  // expected-error @+1 {{'kiln.select' op failed to infer returned types}}
  %0 = kiln.select %c, %a, %a : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf16>
  return
}

// -----

// Unknown comparison predicate.
func.func @compare_bad_predicate(%a: tensor<4xf32>) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'predicate' [eq, ne, lt, le, gt, ge]}}
  %0 = kiln.compare foo, %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return
}

// -----

// Unknown GELU approximation.
func.func @gelu_bad_approximation(%a: tensor<4xf32>) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'approximate' [none, tanh]}}
  %0 = kiln.gelu %a approximate fast : tensor<4xf32>
  return
}

// -----

// leaky_relu has no default alpha.
func.func @leaky_relu_missing_alpha(%a: tensor<4xf32>) {
  // expected-error @+1 {{custom op 'kiln.leaky_relu' expected 'alpha'}}
  %0 = kiln.leaky_relu %a : tensor<4xf32>
  return
}

// -----

// leaky_relu without alpha in the generic form (required attribute).
func.func @leaky_relu_missing_alpha_generic(%a: tensor<4xf32>) {
  // expected-error @+1 {{'kiln.leaky_relu' op requires attribute 'alpha'}}
  %0 = "kiln.leaky_relu"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return
}
