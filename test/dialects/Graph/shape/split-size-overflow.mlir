// RUN: kiln-opt %s -split-input-file -verify-diagnostics

// Regression test (was a bug): SplitOp::verify adds the pieces' sizes along the axis in int64
// without an overflow check, so pieces of 2^63-1, 2^63-1 and 2 elements
// "add up to" 0 and a split of an EMPTY tensor<0xf32> into them is accepted.
// The verifier should reject it (any 'kiln.split' op diagnostic will do, e.g.
// the existing "result sizes along axis 0 add up to ..." or an overflow
// message).

// split: the pieces' sizes overflow int64 and wrap to the input's size.
func.func @split_size_overflow(%x: tensor<0xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'kiln.split' op}}
  %0:3 = kiln.split %x axis 0 : tensor<0xf32> -> tensor<9223372036854775807xf32>,
      tensor<9223372036854775807xf32>, tensor<2xf32>
  return %0#2 : tensor<2xf32>
}
