// RUN: kiln-opt %s -split-input-file -verify-diagnostics

// Regression test (was a bug): inferPad computes `size + low[d] + high[d]` in int64 without an
// overflow check. Huge pads wrap around: the verifier then either builds a
// tensor type with a negative dimension (it reports "inferred type(s)
// 'tensor<-9223372036854775804xf32>' are incompatible ...") or, worse,
// ACCEPTS a pad of tensor<4xf32> by 2^63-1 on both sides whose written result
// is tensor<2xf32> (4 + 2 * (2^63 - 1) wraps to 2). inferConcat already
// reports "concatenated size overflows"; pad should report an overflow the
// same way. (The exact wording is a guess: the tests only ask for
// "overflow".)

// pad: the padded size wraps around to a small positive size.
func.func @pad_overflow_wraps_to_valid(%x: tensor<4xf32>) -> tensor<2xf32> {
  // expected-error @+2 {{overflow}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kiln.pad %x low [9223372036854775807] high [9223372036854775807] constant 0.0
      : tensor<4xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// pad: the padded size wraps around to a negative size.
func.func @pad_overflow_negative(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{overflow}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kiln.pad %x low [9223372036854775807] high [1] edge 0.0
      : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
