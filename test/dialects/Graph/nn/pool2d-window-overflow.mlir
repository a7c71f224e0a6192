// RUN: not kiln-opt %s -split-input-file 2>&1 | FileCheck %s

// Regression test (was a misleading diagnostic): inferPool2d computes the window span
// `dilation * (kernel - 1) + 1` in int64_t without an overflow check (signed
// overflow is undefined behaviour). A huge dilation wraps to a negative span
// and the op is rejected, but with a nonsensical message:
//   "padding of spatial dimension 2 must be smaller than the window (-1)"
// for a padding of 0. The error should describe the real problem (the window
// does not fit / the span overflows) and never report a negative window.

// Dilation INT64_MAX: span wraps to -1.
func.func @pool_dilation_overflow(%x: tensor<1x1x4x4xf32>) {
  // CHECK: pool2d-window-overflow.mlir:[[@LINE+2]]:{{[0-9]+}}: error:
  // CHECK-NOT: smaller than the window (-
  %0 = kiln.max_pool2d %x {kernel_shape = array<i64: 3, 3>, dilations = array<i64: 9223372036854775807, 1>}
      : tensor<1x1x4x4xf32> -> tensor<1x1x1x2xf32>
  return
}

// -----

// Dilation 2^62: span wraps to -2^63 + 1.
func.func @pool_dilation_overflow_2(%x: tensor<1x1x4x4xf32>) {
  // CHECK: pool2d-window-overflow.mlir:[[@LINE+2]]:{{[0-9]+}}: error:
  // CHECK-NOT: smaller than the window (-
  %0 = kiln.avg_pool2d %x {kernel_shape = array<i64: 1, 3>, dilations = array<i64: 1, 4611686018427387904>}
      : tensor<1x1x4x4xf32> -> tensor<1x1x4x1xf32>
  return
}
