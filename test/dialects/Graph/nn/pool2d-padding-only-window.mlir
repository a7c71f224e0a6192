// RUN: not kiln-opt %s -split-input-file 2>&1 | FileCheck %s

// Regression test (was a bug): inferPool2d rejects padding that is not smaller than the window span
// because "a window made only of padding has no defined maximum or mean", but
// with dilation that check is not sufficient: the taps of a dilated window
// can straddle the whole input. Here the input height is 1, the window has 2
// taps with dilation 3 (span 4) and pads are 1 (top) and 2 (bottom), both
// smaller than the span, so the op is accepted with one output row whose
// window taps rows -1 and 2: padding only. The max (and the mean without
// count_include_pad) of that window is undefined; the verifier should reject
// it. (Any error on the op's line satisfies this test.)

// max_pool2d whose only window reads padding only.
func.func @max_pool_padding_only_window(%x: tensor<1x1x1x1xf32>) -> tensor<1x1x1x1xf32> {
  // CHECK: pool2d-padding-only-window.mlir:[[@LINE+1]]:{{[0-9]+}}: error:
  %0 = kiln.max_pool2d %x {kernel_shape = array<i64: 2, 1>, dilations = array<i64: 3, 1>, pads = array<i64: 1, 0, 2, 0>}
      : tensor<1x1x1x1xf32> -> tensor<1x1x1x1xf32>
  return %0 : tensor<1x1x1x1xf32>
}

// -----

// avg_pool2d (without count_include_pad): the same window has no real element
// to divide by.
func.func @avg_pool_padding_only_window(%x: tensor<1x1x1x1xf32>) -> tensor<1x1x1x1xf32> {
  // CHECK: pool2d-padding-only-window.mlir:[[@LINE+1]]:{{[0-9]+}}: error:
  %0 = kiln.avg_pool2d %x {kernel_shape = array<i64: 2, 1>, dilations = array<i64: 3, 1>, pads = array<i64: 1, 0, 2, 0>}
      : tensor<1x1x1x1xf32> -> tensor<1x1x1x1xf32>
  return %0 : tensor<1x1x1x1xf32>
}
