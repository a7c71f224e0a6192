// RUN: kiln-opt %s -split-input-file -verify-diagnostics

// Diagnostics of kiln.constant, kiln.fusion and kiln.yield.

// kiln.constant: the value's type differs from the result type.
func.func @constant_type_mismatch() -> tensor<3xf32> {
  // expected-error @+1 {{all of {value, result} have same type}}
  %c = "kiln.constant"() {value = dense<1.0> : tensor<2xf32>} : () -> tensor<3xf32>
  return %c : tensor<3xf32>
}

// -----

// kiln.constant: same shape, different element type.
func.func @constant_element_mismatch() -> tensor<2xf16> {
  // expected-error @+1 {{all of {value, result} have same type}}
  %c = "kiln.constant"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf16>
  return %c : tensor<2xf16>
}

// -----

// kiln.constant: f8 is not a supported element type.
func.func @constant_f8() -> tensor<2xf8E4M3FN> {
  // expected-error @+1 {{result #0 must be statically shaped tensor of supported element values}}
  %c = kiln.constant dense<1.0> : tensor<2xf8E4M3FN>
  return %c : tensor<2xf8E4M3FN>
}

// -----

// kiln.constant: the value must be an elements attribute.
func.func @constant_not_elements() -> tensor<f32> {
  // expected-error @+1 {{attribute 'value' failed to satisfy constraint: constant vector/tensor attribute}}
  %c = "kiln.constant"() {value = 1.0 : f32} : () -> tensor<f32>
  return %c : tensor<f32>
}

// -----

// kiln.fusion: the body's argument types differ from the inputs' types.
func.func @fusion_arg_type_mismatch(%x: tensor<2xf32>) -> tensor<2xf16> {
  // expected-error @+1 {{expects the body's arguments to match the inputs' types, got ('tensor<2xf16>') for inputs ('tensor<2xf32>')}}
  %r = kiln.fusion ins(%x : tensor<2xf32>) -> tensor<2xf16> {
  ^bb0(%a: tensor<2xf16>):
    kiln.yield %a : tensor<2xf16>
  }
  return %r : tensor<2xf16>
}

// -----

// kiln.fusion: the body has fewer arguments than there are inputs.
func.func @fusion_arg_count_mismatch(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{expects the body's arguments to match the inputs' types, got () for inputs ('tensor<2xf32>')}}
  %r = kiln.fusion ins(%x : tensor<2xf32>) -> tensor<2xf32> {
    %c = kiln.constant dense<1.0> : tensor<2xf32>
    kiln.yield %c : tensor<2xf32>
  }
  return %r : tensor<2xf32>
}

// -----

// kiln.fusion: the body does not end with kiln.yield.
func.func @fusion_no_yield(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{expects the body to end with 'kiln.yield'}}
  %r = kiln.fusion ins(%x : tensor<2xf32>) -> tensor<2xf32> {
  ^bb0(%a: tensor<2xf32>):
    %t = kiln.relu %a : tensor<2xf32>
  }
  return %r : tensor<2xf32>
}

// -----

// kiln.fusion: the body block is empty.
func.func @fusion_empty_block(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{expects a non-empty block}}
  %r = "kiln.fusion"(%x) ({
  ^bb0(%a: tensor<2xf32>):
  }) : (tensor<2xf32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}

// -----

// kiln.fusion: the body is one block, not two.
func.func @fusion_two_blocks(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{expects region #0 to have 0 or 1 blocks}}
  %r = "kiln.fusion"(%x) ({
  ^bb0(%a: tensor<2xf32>):
    "kiln.yield"(%a) : (tensor<2xf32>) -> ()
  ^bb1:
    "kiln.yield"(%a) : (tensor<2xf32>) -> ()
  }) : (tensor<2xf32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}

// -----

// kiln.fusion: the yielded type differs from the result type.
func.func @fusion_yield_type_mismatch(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{yields ('tensor<1x2xf32>') but has results ('tensor<2xf32>')}}
  %r = kiln.fusion ins(%x : tensor<2xf32>) -> tensor<2xf32> {
  ^bb0(%a: tensor<2xf32>):
    %c = kiln.reshape %a : tensor<2xf32> -> tensor<1x2xf32>
    kiln.yield %c : tensor<1x2xf32>
  }
  return %r : tensor<2xf32>
}

// -----

// kiln.fusion: the yield has more values than the fusion has results.
func.func @fusion_yield_count_mismatch(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{yields ('tensor<2xf32>', 'tensor<2xf32>') but has results ('tensor<2xf32>')}}
  %r = kiln.fusion ins(%x : tensor<2xf32>) -> tensor<2xf32> {
  ^bb0(%a: tensor<2xf32>):
    kiln.yield %a, %a : tensor<2xf32>, tensor<2xf32>
  }
  return %r : tensor<2xf32>
}

// -----

// kiln.fusion: a (registered) non-kiln op inside the body.
func.func @callee(%a: tensor<2xf32>) -> tensor<2xf32> {
  return %a : tensor<2xf32>
}

func.func @fusion_non_kiln_op(%x: tensor<2xf32>) -> tensor<2xf32> {
  %r = kiln.fusion ins(%x : tensor<2xf32>) -> tensor<2xf32> {
  ^bb0(%a: tensor<2xf32>):
    // expected-error @+1 {{'func.call' op cannot be inside a 'kiln.fusion' body: only non-fusion kiln ops (or the arith, linalg, math and tensor ops they lower to) can}}
    %c = func.call @callee(%a) : (tensor<2xf32>) -> tensor<2xf32>
    kiln.yield %c : tensor<2xf32>
  }
  return %r : tensor<2xf32>
}

// -----

// kiln.fusion: a fusion nested in a fusion.
func.func @fusion_nested(%x: tensor<2xf32>) -> tensor<2xf32> {
  %r = kiln.fusion ins(%x : tensor<2xf32>) -> tensor<2xf32> {
  ^bb0(%a: tensor<2xf32>):
    // expected-error @+1 {{'kiln.fusion' op cannot be inside a 'kiln.fusion' body}}
    %i = kiln.fusion ins(%a : tensor<2xf32>) -> tensor<2xf32> {
    ^bb0(%b: tensor<2xf32>):
      %t = kiln.relu %b : tensor<2xf32>
      kiln.yield %t : tensor<2xf32>
    }
    kiln.yield %i : tensor<2xf32>
  }
  return %r : tensor<2xf32>
}

// -----

// kiln.fusion: the body reads a value from outside instead of an input.
func.func @fusion_not_isolated(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-note @+1 {{required by region isolation constraints}}
  %r = kiln.fusion ins(%x : tensor<2xf32>) -> tensor<2xf32> {
  ^bb0(%a: tensor<2xf32>):
    // expected-error @+1 {{using value defined outside the region}}
    %t = kiln.relu %x : tensor<2xf32>
    kiln.yield %t : tensor<2xf32>
  }
  return %r : tensor<2xf32>
}

// -----

// kiln.fusion: results must be statically shaped tensors.
func.func @fusion_dynamic_result(%x: tensor<2xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{result #0 must be variadic of statically shaped tensor of supported element values}}
  %r = "kiln.fusion"(%x) ({
  ^bb0(%a: tensor<2xf32>):
    "kiln.yield"(%a) : (tensor<2xf32>) -> ()
  }) : (tensor<2xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// -----

// kiln.fusion: `kind` must be a string.
func.func @fusion_kind_not_string(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{attribute 'kind' failed to satisfy constraint: string attribute}}
  %r = kiln.fusion ins(%x : tensor<2xf32>) attributes {kind = 3 : i64} -> tensor<2xf32> {
  ^bb0(%a: tensor<2xf32>):
    kiln.yield %a : tensor<2xf32>
  }
  return %r : tensor<2xf32>
}

// -----

// kiln.yield outside a kiln.fusion.
func.func @yield_outside_fusion(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'kiln.yield' op expects parent op 'kiln.fusion'}}
  kiln.yield %x : tensor<2xf32>
}
