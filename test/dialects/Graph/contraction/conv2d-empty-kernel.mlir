// RUN: not kiln-opt %s -split-input-file 2>&1 | FileCheck %s

// Regression test (was a bug): inferConv2d never checks that the weight's spatial dimensions (KH, KW)
// are positive. With a 0x0 kernel the window span `dilation * (k - 1) + 1`
// is 0 (or negative with dilation > 1), so windowOutputSize returns *more*
// positions than the input has: a 3x3 input convolved with a 4x4x0x0 weight
// is accepted with an inferred 4x4 output, and dilation 2 gives 5x5.
// kiln.max_pool2d/avg_pool2d reject the same window ("expects every
// 'kernel_shape' value to be positive"); conv2d should reject an empty kernel
// too. (Any error on the op's line satisfies this test.)

// A 0x0 kernel.
func.func @conv2d_empty_kernel(%x: tensor<1x4x3x3xf32>, %w: tensor<4x4x0x0xf32>) -> tensor<1x4x4x4xf32> {
  // CHECK: conv2d-empty-kernel.mlir:[[@LINE+1]]:{{[0-9]+}}: error:
  %0 = kiln.conv2d %x, %w : (tensor<1x4x3x3xf32>, tensor<4x4x0x0xf32>) -> tensor<1x4x4x4xf32>
  return %0 : tensor<1x4x4x4xf32>
}

// -----

// A 0x0 kernel with dilation 2: the output grows further.
func.func @conv2d_empty_kernel_dilated(%x: tensor<1x4x3x3xf32>, %w: tensor<4x4x0x0xf32>) -> tensor<1x4x5x5xf32> {
  // CHECK: conv2d-empty-kernel.mlir:[[@LINE+1]]:{{[0-9]+}}: error:
  %0 = kiln.conv2d %x, %w {dilations = array<i64: 2, 2>} : (tensor<1x4x3x3xf32>, tensor<4x4x0x0xf32>) -> tensor<1x4x5x5xf32>
  return %0 : tensor<1x4x5x5xf32>
}
