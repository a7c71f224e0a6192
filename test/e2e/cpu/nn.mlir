// End-to-end numeric tests of pooling, softmax and normalisation
// (GraphNNOps.td) on the CPU path; references in nn_cases.py.
//
// RUN: /usr/bin/python3 %S/../lib/check_e2e.py --kilnc kilnc --model %s --cases %S/nn_cases.py --workdir %t | FileCheck %s
//
// CHECK-NOT: FAIL
// CHECK: SUMMARY: {{[1-9][0-9]*}} passed, 0 failed

//===----------------------------------------------------------------------===//
// max_pool2d
//===----------------------------------------------------------------------===//

func.func @max_pool_basic(%x: tensor<2x3x6x6xf32>) -> (tensor<2x3x3x3xf32>, tensor<2x3x4x4xf32>) {
  %0 = kiln.max_pool2d %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>}
      : tensor<2x3x6x6xf32> -> tensor<2x3x3x3xf32>
  %1 = kiln.max_pool2d %x {kernel_shape = array<i64: 3, 3>}
      : tensor<2x3x6x6xf32> -> tensor<2x3x4x4xf32>
  return %0, %1 : tensor<2x3x3x3xf32>, tensor<2x3x4x4xf32>
}

// Padded positions never win, even when every real value is negative.
func.func @max_pool_padding(%x: tensor<1x2x7x7xf32>) -> (tensor<1x2x4x4xf32>, tensor<1x2x8x6xf32>) {
  %0 = kiln.max_pool2d %x {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>}
      : tensor<1x2x7x7xf32> -> tensor<1x2x4x4xf32>
  // Asymmetric pads [top 2, left 0, bottom 1, right 0], 3x2 window:
  // (7 + 2 + 1 - 3) + 1 = 8 rows, 7 - 2 + 1 = 6 columns.
  %1 = kiln.max_pool2d %x {kernel_shape = array<i64: 3, 2>, pads = array<i64: 2, 0, 1, 0>, strides = array<i64: 1, 1>}
      : tensor<1x2x7x7xf32> -> tensor<1x2x8x6xf32>
  return %0, %1 : tensor<1x2x4x4xf32>, tensor<1x2x8x6xf32>
}

// ceil_mode: the last window hangs over the input's end.
func.func @max_pool_ceil(%x: tensor<1x2x6x6xf32>, %y: tensor<2x3x5x5xf32>)
    -> (tensor<1x2x3x3xf32>, tensor<2x3x2x2xf32>) {
  %0 = kiln.max_pool2d %x {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, ceil_mode}
      : tensor<1x2x6x6xf32> -> tensor<1x2x3x3xf32>
  // A window would start in the trailing padding: dropped (2, not 3).
  %1 = kiln.max_pool2d %y {kernel_shape = array<i64: 2, 2>, strides = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, ceil_mode}
      : tensor<2x3x5x5xf32> -> tensor<2x3x2x2xf32>
  return %0, %1 : tensor<1x2x3x3xf32>, tensor<2x3x2x2xf32>
}

// Dilated rectangular window with asymmetric padding.
func.func @max_pool_dilation(%y: tensor<1x2x9x7xf32>) -> tensor<1x2x8x4xf32> {
  %0 = kiln.max_pool2d %y {kernel_shape = array<i64: 2, 3>, strides = array<i64: 1, 2>,
                           dilations = array<i64: 2, 1>, pads = array<i64: 0, 2, 1, 0>}
      : tensor<1x2x9x7xf32> -> tensor<1x2x8x4xf32>
  return %0 : tensor<1x2x8x4xf32>
}

func.func @max_pool_f16(%x: tensor<1x2x5x5xf16>) -> tensor<1x2x3x3xf16> {
  %0 = kiln.max_pool2d %x {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>}
      : tensor<1x2x5x5xf16> -> tensor<1x2x3x3xf16>
  return %0 : tensor<1x2x3x3xf16>
}

//===----------------------------------------------------------------------===//
// avg_pool2d
//===----------------------------------------------------------------------===//

func.func @avg_pool_basic(%x: tensor<1x3x4x4xf32>) -> (tensor<1x3x2x2xf32>, tensor<1x3x2x3xf32>) {
  %0 = kiln.avg_pool2d %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>}
      : tensor<1x3x4x4xf32> -> tensor<1x3x2x2xf32>
  %1 = kiln.avg_pool2d %x {kernel_shape = array<i64: 3, 2>}
      : tensor<1x3x4x4xf32> -> tensor<1x3x2x3xf32>
  return %0, %1 : tensor<1x3x2x2xf32>, tensor<1x3x2x3xf32>
}

// Padding with and without count_include_pad.
func.func @avg_pool_padding(%x: tensor<2x2x5x5xf32>)
    -> (tensor<2x2x5x5xf32>, tensor<2x2x5x5xf32>, tensor<2x2x3x4xf32>, tensor<2x2x3x4xf32>) {
  %0 = kiln.avg_pool2d %x {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>}
      : tensor<2x2x5x5xf32> -> tensor<2x2x5x5xf32>
  %1 = kiln.avg_pool2d %x {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, count_include_pad}
      : tensor<2x2x5x5xf32> -> tensor<2x2x5x5xf32>
  // Asymmetric: H (5 + 2 + 0 - 3) / 2 + 1 = 3, W (5 + 0 + 1 - 3) / 1 + 1 = 4.
  %2 = kiln.avg_pool2d %x {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 1>, pads = array<i64: 2, 0, 0, 1>}
      : tensor<2x2x5x5xf32> -> tensor<2x2x3x4xf32>
  %3 = kiln.avg_pool2d %x {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 1>, pads = array<i64: 2, 0, 0, 1>, count_include_pad}
      : tensor<2x2x5x5xf32> -> tensor<2x2x3x4xf32>
  return %0, %1, %2, %3 : tensor<2x2x5x5xf32>, tensor<2x2x5x5xf32>, tensor<2x2x3x4xf32>, tensor<2x2x3x4xf32>
}

// ceil_mode without padding: the overhang never counts.
func.func @avg_pool_ceil(%x: tensor<1x2x6x6xf32>) -> (tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) {
  %0 = kiln.avg_pool2d %x {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, ceil_mode}
      : tensor<1x2x6x6xf32> -> tensor<1x2x3x3xf32>
  %1 = kiln.avg_pool2d %x {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, ceil_mode, count_include_pad}
      : tensor<1x2x6x6xf32> -> tensor<1x2x3x3xf32>
  return %0, %1 : tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>
}

// ceil_mode with padding: the last window covers real rows, one padded row
// (counted with count_include_pad) and one row of ceil-mode overhang (never
// counted): (6 + 2 - 3) / 2 rounds up to 3, + 1 = 4 outputs.
func.func @avg_pool_ceil_pad(%x: tensor<1x2x6x6xf32>) -> (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) {
  %0 = kiln.avg_pool2d %x {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, ceil_mode}
      : tensor<1x2x6x6xf32> -> tensor<1x2x4x4xf32>
  %1 = kiln.avg_pool2d %x {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, ceil_mode, count_include_pad}
      : tensor<1x2x6x6xf32> -> tensor<1x2x4x4xf32>
  %2 = kiln.max_pool2d %x {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, ceil_mode}
      : tensor<1x2x6x6xf32> -> tensor<1x2x4x4xf32>
  return %0, %1, %2 : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>
}

func.func @avg_pool_dilation(%x: tensor<1x1x7x7xf32>) -> (tensor<1x1x3x5xf32>, tensor<1x1x3x6xf32>) {
  %0 = kiln.avg_pool2d %x {kernel_shape = array<i64: 3, 2>, dilations = array<i64: 2, 2>}
      : tensor<1x1x7x7xf32> -> tensor<1x1x3x5xf32>
  %1 = kiln.avg_pool2d %x {kernel_shape = array<i64: 2, 2>, dilations = array<i64: 2, 2>, pads = array<i64: 1, 1, 0, 0>, strides = array<i64: 2, 1>}
      : tensor<1x1x7x7xf32> -> tensor<1x1x3x6xf32>
  return %0, %1 : tensor<1x1x3x5xf32>, tensor<1x1x3x6xf32>
}

func.func @avg_pool_f16(%x: tensor<1x2x4x4xf16>) -> tensor<1x2x4x4xf16> {
  %0 = kiln.avg_pool2d %x {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>}
      : tensor<1x2x4x4xf16> -> tensor<1x2x4x4xf16>
  return %0 : tensor<1x2x4x4xf16>
}

//===----------------------------------------------------------------------===//
// Global pools
//===----------------------------------------------------------------------===//

func.func @global_pools(%x: tensor<2x3x4x5xf32>, %y: tensor<2x4x9xf32>, %z: tensor<1x2x3x2x2xf32>)
    -> (tensor<2x3x1x1xf32>, tensor<2x3x1x1xf32>, tensor<2x4x1xf32>, tensor<2x4x1xf32>,
        tensor<1x2x1x1x1xf32>, tensor<1x2x1x1x1xf32>) {
  %0 = kiln.global_avg_pool %x : tensor<2x3x4x5xf32> -> tensor<2x3x1x1xf32>
  %1 = kiln.global_max_pool %x : tensor<2x3x4x5xf32> -> tensor<2x3x1x1xf32>
  %2 = kiln.global_avg_pool %y : tensor<2x4x9xf32> -> tensor<2x4x1xf32>
  %3 = kiln.global_max_pool %y : tensor<2x4x9xf32> -> tensor<2x4x1xf32>
  %4 = kiln.global_avg_pool %z : tensor<1x2x3x2x2xf32> -> tensor<1x2x1x1x1xf32>
  %5 = kiln.global_max_pool %z : tensor<1x2x3x2x2xf32> -> tensor<1x2x1x1x1xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<2x3x1x1xf32>, tensor<2x3x1x1xf32>, tensor<2x4x1xf32>,
      tensor<2x4x1xf32>, tensor<1x2x1x1x1xf32>, tensor<1x2x1x1x1xf32>
}

func.func @global_pools_f16(%x: tensor<1x3x4x4xf16>) -> (tensor<1x3x1x1xf16>, tensor<1x3x1x1xf16>) {
  %0 = kiln.global_avg_pool %x : tensor<1x3x4x4xf16> -> tensor<1x3x1x1xf16>
  %1 = kiln.global_max_pool %x : tensor<1x3x4x4xf16> -> tensor<1x3x1x1xf16>
  return %0, %1 : tensor<1x3x1x1xf16>, tensor<1x3x1x1xf16>
}

//===----------------------------------------------------------------------===//
// Softmax
//===----------------------------------------------------------------------===//

func.func @softmax_axes(%x: tensor<2x3x5xf32>)
    -> (tensor<2x3x5xf32>, tensor<2x3x5xf32>, tensor<2x3x5xf32>, tensor<2x3x5xf32>) {
  %0 = kiln.softmax %x axis -1 : tensor<2x3x5xf32>
  %1 = kiln.softmax %x axis 0 : tensor<2x3x5xf32>
  %2 = kiln.softmax %x axis 1 : tensor<2x3x5xf32>
  %3 = kiln.softmax %x axis -2 : tensor<2x3x5xf32>
  return %0, %1, %2, %3 : tensor<2x3x5xf32>, tensor<2x3x5xf32>, tensor<2x3x5xf32>, tensor<2x3x5xf32>
}

func.func @log_softmax_axes(%x: tensor<2x3x5xf32>)
    -> (tensor<2x3x5xf32>, tensor<2x3x5xf32>, tensor<2x3x5xf32>) {
  %0 = kiln.log_softmax %x axis -1 : tensor<2x3x5xf32>
  %1 = kiln.log_softmax %x axis 0 : tensor<2x3x5xf32>
  %2 = kiln.log_softmax %x axis -2 : tensor<2x3x5xf32>
  return %0, %1, %2 : tensor<2x3x5xf32>, tensor<2x3x5xf32>, tensor<2x3x5xf32>
}

// Large logits (stabilisation) and -inf entries (masking).
func.func @softmax_stability(%x: tensor<3x6xf32>) -> (tensor<3x6xf32>, tensor<3x6xf32>) {
  %0 = kiln.softmax %x axis 1 : tensor<3x6xf32>
  %1 = kiln.log_softmax %x axis -1 : tensor<3x6xf32>
  return %0, %1 : tensor<3x6xf32>, tensor<3x6xf32>
}

// A softmax axis of size 1, and f64.
func.func @softmax_unit_axis_f64(%x: tensor<3x1xf32>, %d: tensor<2x4xf64>)
    -> (tensor<3x1xf32>, tensor<3x1xf32>, tensor<2x4xf64>, tensor<2x4xf64>) {
  %0 = kiln.softmax %x axis 1 : tensor<3x1xf32>
  %1 = kiln.log_softmax %x axis -1 : tensor<3x1xf32>
  %2 = kiln.softmax %d axis 0 : tensor<2x4xf64>
  %3 = kiln.log_softmax %d axis 1 : tensor<2x4xf64>
  return %0, %1, %2, %3 : tensor<3x1xf32>, tensor<3x1xf32>, tensor<2x4xf64>, tensor<2x4xf64>
}

func.func @softmax_1d_f16(%x: tensor<16xf32>, %h: tensor<4x10xf16>)
    -> (tensor<16xf32>, tensor<16xf32>, tensor<4x10xf16>, tensor<4x10xf16>) {
  %0 = kiln.softmax %x axis 0 : tensor<16xf32>
  %1 = kiln.log_softmax %x axis 0 : tensor<16xf32>
  %2 = kiln.softmax %h axis -1 : tensor<4x10xf16>
  %3 = kiln.log_softmax %h axis -2 : tensor<4x10xf16>
  return %0, %1, %2, %3 : tensor<16xf32>, tensor<16xf32>, tensor<4x10xf16>, tensor<4x10xf16>
}

//===----------------------------------------------------------------------===//
// Normalisation
//===----------------------------------------------------------------------===//

func.func @layer_norm_last(%x: tensor<2x5x8xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>)
    -> (tensor<2x5x8xf32>, tensor<2x5x8xf32>, tensor<2x5x8xf32>) {
  %0 = kiln.layer_norm %x, %g, %b axis -1 epsilon 1.0e-05
      : (tensor<2x5x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x5x8xf32>
  %1 = kiln.layer_norm %x, %g axis 2 epsilon 1.0e-12
      : (tensor<2x5x8xf32>, tensor<8xf32>) -> tensor<2x5x8xf32>
  %2 = kiln.layer_norm %x, %g, %b axis -1 epsilon 0.5
      : (tensor<2x5x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x5x8xf32>
  return %0, %1, %2 : tensor<2x5x8xf32>, tensor<2x5x8xf32>, tensor<2x5x8xf32>
}

// Normalising over several trailing dimensions (axis not last), and over the
// whole tensor.
func.func @layer_norm_multi_dim(%x: tensor<2x3x4x5xf32>, %g: tensor<3x4x5xf32>, %b: tensor<3x4x5xf32>,
                                %g2: tensor<4x5xf32>, %y: tensor<6xf32>)
    -> (tensor<2x3x4x5xf32>, tensor<2x3x4x5xf32>, tensor<2x3x4x5xf32>, tensor<6xf32>) {
  %0 = kiln.layer_norm %x, %g, %b axis 1 epsilon 1.0e-05
      : (tensor<2x3x4x5xf32>, tensor<3x4x5xf32>, tensor<3x4x5xf32>) -> tensor<2x3x4x5xf32>
  %1 = kiln.layer_norm %x, %g axis -3 epsilon 1.0e-03
      : (tensor<2x3x4x5xf32>, tensor<3x4x5xf32>) -> tensor<2x3x4x5xf32>
  %2 = kiln.layer_norm %x, %g2 axis 2 epsilon 1.0e-05
      : (tensor<2x3x4x5xf32>, tensor<4x5xf32>) -> tensor<2x3x4x5xf32>
  %3 = kiln.layer_norm %y, %y, %y axis 0 epsilon 1.0e-05
      : (tensor<6xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
  return %0, %1, %2, %3 : tensor<2x3x4x5xf32>, tensor<2x3x4x5xf32>, tensor<2x3x4x5xf32>, tensor<6xf32>
}

func.func @layer_norm_f16(%x: tensor<4x16xf16>, %g: tensor<16xf16>, %b: tensor<16xf16>) -> tensor<4x16xf16> {
  %0 = kiln.layer_norm %x, %g, %b axis -1 epsilon 1.0e-05
      : (tensor<4x16xf16>, tensor<16xf16>, tensor<16xf16>) -> tensor<4x16xf16>
  return %0 : tensor<4x16xf16>
}

func.func @batch_norm_nchw(%x: tensor<2x3x4x4xf32>, %s: tensor<3xf32>, %b: tensor<3xf32>,
                           %m: tensor<3xf32>, %v: tensor<3xf32>) -> (tensor<2x3x4x4xf32>, tensor<2x3x4x4xf32>) {
  %0 = kiln.batch_norm %x, %s, %b, %m, %v epsilon 1.0e-05
      : (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4x4xf32>
  %1 = kiln.batch_norm %x, %s, %b, %m, %v epsilon 0.25
      : (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4x4xf32>
  return %0, %1 : tensor<2x3x4x4xf32>, tensor<2x3x4x4xf32>
}

func.func @batch_norm_ranks(%x: tensor<8x16xf32>, %p: tensor<16xf32>, %q: tensor<16xf32>,
                            %y: tensor<2x4x10xf32>, %r: tensor<4xf32>, %t: tensor<4xf32>,
                            %z: tensor<1x2x2x3x2xf32>, %u: tensor<2xf32>)
    -> (tensor<8x16xf32>, tensor<2x4x10xf32>, tensor<1x2x2x3x2xf32>) {
  %0 = kiln.batch_norm %x, %p, %q, %q, %p epsilon 1.0e-03
      : (tensor<8x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<8x16xf32>
  %1 = kiln.batch_norm %y, %r, %t, %t, %r epsilon 0.0
      : (tensor<2x4x10xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4x10xf32>
  %2 = kiln.batch_norm %z, %u, %u, %u, %u epsilon 1.0e-05
      : (tensor<1x2x2x3x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x2x3x2xf32>
  return %0, %1, %2 : tensor<8x16xf32>, tensor<2x4x10xf32>, tensor<1x2x2x3x2xf32>
}

func.func @batch_norm_f16(%x: tensor<1x4x3x3xf16>, %s: tensor<4xf16>, %b: tensor<4xf16>,
                          %m: tensor<4xf16>, %v: tensor<4xf16>) -> tensor<1x4x3x3xf16> {
  %0 = kiln.batch_norm %x, %s, %b, %m, %v epsilon 1.0e-03
      : (tensor<1x4x3x3xf16>, tensor<4xf16>, tensor<4xf16>, tensor<4xf16>, tensor<4xf16>) -> tensor<1x4x3x3xf16>
  return %0 : tensor<1x4x3x3xf16>
}

// The usual inference shape: constant statistics folded next to a conv.
func.func @batch_norm_constant_stats(%x: tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32> {
  %s = kiln.constant dense<[1.5, -0.5]> : tensor<2xf32>
  %b = kiln.constant dense<[0.1, 0.2]> : tensor<2xf32>
  %m = kiln.constant dense<[0.3, -0.4]> : tensor<2xf32>
  %v = kiln.constant dense<[2.0, 0.5]> : tensor<2xf32>
  %0 = kiln.batch_norm %x, %s, %b, %m, %v epsilon 1.0e-05
      : (tensor<1x2x3x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x3x3xf32>
  return %0 : tensor<1x2x3x3xf32>
}
