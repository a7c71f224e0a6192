// RUN: not kiln-opt %s -split-input-file 2>&1 | FileCheck %s

// Regression test (was a bug): windowOutputSize (TypeInference.cpp) computes
// `dilation * (kernel - 1) + 1` and `input + padBegin + padEnd - span` in
// int64_t without overflow checks (signed overflow is undefined behaviour).
// Huge dilations or pads wrap around and conv2d is accepted with a nonsensical
// inferred shape: dilation INT64_MAX with a 3-wide kernel over 8 elements
// infers an output of 10 (larger than the input); pads of INT64_MAX on both
// sides of 8 elements infer an output of 4. These should be diagnosed (e.g.
// "window does not fit" or an overflow error). (Any error on the op's line
// satisfies this test.)

// Dilation INT64_MAX.
func.func @conv2d_dilation_overflow(%x: tensor<1x4x8x8xf32>, %w: tensor<4x4x3x3xf32>) -> tensor<1x4x10x6xf32> {
  // CHECK: conv2d-window-overflow.mlir:[[@LINE+1]]:{{[0-9]+}}: error:
  %0 = kiln.conv2d %x, %w {dilations = array<i64: 9223372036854775807, 1>} : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x10x6xf32>
  return %0 : tensor<1x4x10x6xf32>
}

// -----

// Pads of INT64_MAX on both sides.
func.func @conv2d_pads_overflow(%x: tensor<1x4x8x8xf32>, %w: tensor<4x4x3x3xf32>) -> tensor<1x4x4x6xf32> {
  // CHECK: conv2d-window-overflow.mlir:[[@LINE+1]]:{{[0-9]+}}: error:
  %0 = kiln.conv2d %x, %w {pads = array<i64: 9223372036854775807, 0, 9223372036854775807, 0>} : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x4x6xf32>
  return %0 : tensor<1x4x4x6xf32>
}
