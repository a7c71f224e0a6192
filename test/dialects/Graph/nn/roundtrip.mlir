// RUN: kiln-opt %s | kiln-opt | FileCheck %s
// RUN: kiln-opt %s --mlir-print-op-generic | kiln-opt | FileCheck %s

// Round trip of the nn ops (pooling, softmax, normalisation) through the
// custom and the generic printer.

//===----------------------------------------------------------------------===//
// Pooling
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func @max_pool2d
// CHECK-SAME: (%[[X:.*]]: tensor<1x64x112x112xf32>)
func.func @max_pool2d(%x: tensor<1x64x112x112xf32>)
    -> (tensor<1x64x56x56xf32>, tensor<1x64x57x57xf32>, tensor<1x64x110x110xf32>) {
  // CHECK: %[[R0:.*]] = kiln.max_pool2d %[[X]] {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : tensor<1x64x112x112xf32> -> tensor<1x64x56x56xf32>
  %0 = kiln.max_pool2d %x {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>,
                           pads = array<i64: 1, 1, 1, 1>}
      : tensor<1x64x112x112xf32> -> tensor<1x64x56x56xf32>
  // ceil_mode rounds (112 + 2 - 3) / 2 up.
  // CHECK: %[[R1:.*]] = kiln.max_pool2d %[[X]] {ceil_mode, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : tensor<1x64x112x112xf32> -> tensor<1x64x57x57xf32>
  %1 = kiln.max_pool2d %x {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>,
                           pads = array<i64: 1, 1, 1, 1>, ceil_mode}
      : tensor<1x64x112x112xf32> -> tensor<1x64x57x57xf32>
  // Default strides/pads/dilations are not printed.
  // CHECK: %[[R2:.*]] = kiln.max_pool2d %[[X]] {kernel_shape = array<i64: 3, 3>} : tensor<1x64x112x112xf32> -> tensor<1x64x110x110xf32>
  %2 = kiln.max_pool2d %x {kernel_shape = array<i64: 3, 3>, strides = array<i64: 1, 1>,
                           dilations = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>}
      : tensor<1x64x112x112xf32> -> tensor<1x64x110x110xf32>
  // CHECK: return %[[R0]], %[[R1]], %[[R2]]
  return %0, %1, %2 : tensor<1x64x56x56xf32>, tensor<1x64x57x57xf32>, tensor<1x64x110x110xf32>
}

// CHECK-LABEL: func @max_pool2d_variants
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x5x5xf16>, %[[Y:.*]]: tensor<1x1x9x7xbf16>)
func.func @max_pool2d_variants(%x: tensor<2x3x5x5xf16>, %y: tensor<1x1x9x7xbf16>) {
  // In ceil mode the last window may not start in the trailing padding:
  // ceil((5 + 2 - 2) / 3) = 2 steps would start at 6 >= 5 + 1, so 2 outputs.
  // CHECK: kiln.max_pool2d %[[X]] {ceil_mode, kernel_shape = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 3, 3>} : tensor<2x3x5x5xf16> -> tensor<2x3x2x2xf16>
  %0 = kiln.max_pool2d %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 3, 3>,
                           pads = array<i64: 1, 1, 1, 1>, ceil_mode}
      : tensor<2x3x5x5xf16> -> tensor<2x3x2x2xf16>
  // Dilated, rectangular window with asymmetric padding: the 2x3 window with
  // dilation 2x1 spans 3x3; (9 + 0 + 1 - 3) / 1 + 1 = 8, (7 + 2 + 0 - 3) / 2 + 1 = 4.
  // CHECK: kiln.max_pool2d %[[Y]] {dilations = array<i64: 2, 1>, kernel_shape = array<i64: 2, 3>, pads = array<i64: 0, 2, 1, 0>, strides = array<i64: 1, 2>} : tensor<1x1x9x7xbf16> -> tensor<1x1x8x4xbf16>
  %1 = kiln.max_pool2d %y {kernel_shape = array<i64: 2, 3>, strides = array<i64: 1, 2>,
                           dilations = array<i64: 2, 1>, pads = array<i64: 0, 2, 1, 0>}
      : tensor<1x1x9x7xbf16> -> tensor<1x1x8x4xbf16>
  return
}

// CHECK-LABEL: func @avg_pool2d
// CHECK-SAME: (%[[X:.*]]: tensor<1x8x4x4xf32>, %[[H:.*]]: tensor<1x8x4x4xf64>)
func.func @avg_pool2d(%x: tensor<1x8x4x4xf32>, %h: tensor<1x8x4x4xf64>) {
  // CHECK: kiln.avg_pool2d %[[X]] {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : tensor<1x8x4x4xf32> -> tensor<1x8x2x2xf32>
  %0 = kiln.avg_pool2d %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>}
      : tensor<1x8x4x4xf32> -> tensor<1x8x2x2xf32>
  // CHECK: kiln.avg_pool2d %[[X]] {count_include_pad, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : tensor<1x8x4x4xf32> -> tensor<1x8x4x4xf32>
  %1 = kiln.avg_pool2d %x {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>,
                           count_include_pad}
      : tensor<1x8x4x4xf32> -> tensor<1x8x4x4xf32>
  // CHECK: kiln.avg_pool2d %[[H]] {ceil_mode, count_include_pad, kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>} : tensor<1x8x4x4xf64> -> tensor<1x8x2x2xf64>
  %2 = kiln.avg_pool2d %h {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>,
                           ceil_mode, count_include_pad}
      : tensor<1x8x4x4xf64> -> tensor<1x8x2x2xf64>
  return
}

// CHECK-LABEL: func @global_pool
// CHECK-SAME: (%[[X:.*]]: tensor<1x512x7x7xf32>, %[[Y:.*]]: tensor<2x4x9xf16>, %[[Z:.*]]: tensor<1x2x3x4x5xbf16>)
func.func @global_pool(%x: tensor<1x512x7x7xf32>, %y: tensor<2x4x9xf16>, %z: tensor<1x2x3x4x5xbf16>) {
  // CHECK: kiln.global_avg_pool %[[X]] : tensor<1x512x7x7xf32> -> tensor<1x512x1x1xf32>
  %0 = kiln.global_avg_pool %x : tensor<1x512x7x7xf32> -> tensor<1x512x1x1xf32>
  // CHECK: kiln.global_max_pool %[[X]] : tensor<1x512x7x7xf32> -> tensor<1x512x1x1xf32>
  %1 = kiln.global_max_pool %x : tensor<1x512x7x7xf32> -> tensor<1x512x1x1xf32>
  // Any rank >= 3 works.
  // CHECK: kiln.global_avg_pool %[[Y]] : tensor<2x4x9xf16> -> tensor<2x4x1xf16>
  %2 = kiln.global_avg_pool %y : tensor<2x4x9xf16> -> tensor<2x4x1xf16>
  // CHECK: kiln.global_max_pool %[[Z]] : tensor<1x2x3x4x5xbf16> -> tensor<1x2x1x1x1xbf16>
  %3 = kiln.global_max_pool %z : tensor<1x2x3x4x5xbf16> -> tensor<1x2x1x1x1xbf16>
  return
}

//===----------------------------------------------------------------------===//
// Softmax
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func @softmax
// CHECK-SAME: (%[[X:.*]]: tensor<2x8x128xf32>, %[[H:.*]]: tensor<4x10xf16>, %[[B:.*]]: tensor<16xbf16>)
func.func @softmax(%x: tensor<2x8x128xf32>, %h: tensor<4x10xf16>, %b: tensor<16xbf16>)
    -> (tensor<2x8x128xf32>, tensor<2x8x128xf32>, tensor<4x10xf16>, tensor<16xbf16>) {
  // CHECK: %[[R0:.*]] = kiln.softmax %[[X]] axis -1 : tensor<2x8x128xf32>
  %0 = kiln.softmax %x axis -1 : tensor<2x8x128xf32>
  // CHECK: %[[R1:.*]] = kiln.softmax %[[X]] axis 0 : tensor<2x8x128xf32>
  %1 = kiln.softmax %x axis 0 : tensor<2x8x128xf32>
  // CHECK: %[[R2:.*]] = kiln.log_softmax %[[H]] axis -2 : tensor<4x10xf16>
  %2 = kiln.log_softmax %h axis -2 : tensor<4x10xf16>
  // CHECK: %[[R3:.*]] = kiln.log_softmax %[[B]] axis 0 : tensor<16xbf16>
  %3 = kiln.log_softmax %b axis 0 : tensor<16xbf16>
  // CHECK: return %[[R0]], %[[R1]], %[[R2]], %[[R3]]
  return %0, %1, %2, %3 : tensor<2x8x128xf32>, tensor<2x8x128xf32>, tensor<4x10xf16>, tensor<16xbf16>
}

//===----------------------------------------------------------------------===//
// Normalisation
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func @layer_norm
// CHECK-SAME: (%[[X:.*]]: tensor<1x128x768xf32>, %[[G:.*]]: tensor<768xf32>, %[[B:.*]]: tensor<768xf32>)
func.func @layer_norm(%x: tensor<1x128x768xf32>, %g: tensor<768xf32>, %b: tensor<768xf32>)
    -> (tensor<1x128x768xf32>, tensor<1x128x768xf32>) {
  // CHECK: %[[R0:.*]] = kiln.layer_norm %[[X]], %[[G]], %[[B]] axis -1 epsilon 1.000000e-05 : (tensor<1x128x768xf32>, tensor<768xf32>, tensor<768xf32>) -> tensor<1x128x768xf32>
  %0 = kiln.layer_norm %x, %g, %b axis -1 epsilon 1.0e-05
      : (tensor<1x128x768xf32>, tensor<768xf32>, tensor<768xf32>) -> tensor<1x128x768xf32>
  // Without bias.
  // CHECK: %[[R1:.*]] = kiln.layer_norm %[[X]], %[[G]] axis 2 epsilon 9.9999999999999998E-13 : (tensor<1x128x768xf32>, tensor<768xf32>) -> tensor<1x128x768xf32>
  %1 = kiln.layer_norm %x, %g axis 2 epsilon 1.0e-12
      : (tensor<1x128x768xf32>, tensor<768xf32>) -> tensor<1x128x768xf32>
  // CHECK: return %[[R0]], %[[R1]]
  return %0, %1 : tensor<1x128x768xf32>, tensor<1x128x768xf32>
}

// Normalising over several trailing dimensions.
// CHECK-LABEL: func @layer_norm_multi_dim
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4x5xf16>, %[[G:.*]]: tensor<3x4x5xf16>, %[[B:.*]]: tensor<3x4x5xf16>, %[[Y:.*]]: tensor<6xbf16>)
func.func @layer_norm_multi_dim(%x: tensor<2x3x4x5xf16>, %g: tensor<3x4x5xf16>, %b: tensor<3x4x5xf16>,
                                %y: tensor<6xbf16>) {
  // CHECK: kiln.layer_norm %[[X]], %[[G]], %[[B]] axis 1 epsilon 1.000000e-05 : (tensor<2x3x4x5xf16>, tensor<3x4x5xf16>, tensor<3x4x5xf16>) -> tensor<2x3x4x5xf16>
  %0 = kiln.layer_norm %x, %g, %b axis 1 epsilon 1.0e-05
      : (tensor<2x3x4x5xf16>, tensor<3x4x5xf16>, tensor<3x4x5xf16>) -> tensor<2x3x4x5xf16>
  // CHECK: kiln.layer_norm %[[X]], %[[G]] axis -3 epsilon 1.000000e-03 : (tensor<2x3x4x5xf16>, tensor<3x4x5xf16>) -> tensor<2x3x4x5xf16>
  %1 = kiln.layer_norm %x, %g axis -3 epsilon 1.0e-03
      : (tensor<2x3x4x5xf16>, tensor<3x4x5xf16>) -> tensor<2x3x4x5xf16>
  // The whole tensor.
  // CHECK: kiln.layer_norm %[[Y]], %[[Y]], %[[Y]] axis 0 epsilon 1.000000e-05 : (tensor<6xbf16>, tensor<6xbf16>, tensor<6xbf16>) -> tensor<6xbf16>
  %2 = kiln.layer_norm %y, %y, %y axis 0 epsilon 1.0e-05
      : (tensor<6xbf16>, tensor<6xbf16>, tensor<6xbf16>) -> tensor<6xbf16>
  return
}

// CHECK-LABEL: func @batch_norm
// CHECK-SAME: (%[[X:.*]]: tensor<1x64x56x56xf32>, %[[S:.*]]: tensor<64xf32>, %[[B:.*]]: tensor<64xf32>, %[[M:.*]]: tensor<64xf32>, %[[V:.*]]: tensor<64xf32>)
func.func @batch_norm(%x: tensor<1x64x56x56xf32>, %s: tensor<64xf32>, %b: tensor<64xf32>,
                      %m: tensor<64xf32>, %v: tensor<64xf32>) -> tensor<1x64x56x56xf32> {
  // CHECK: %[[R:.*]] = kiln.batch_norm %[[X]], %[[S]], %[[B]], %[[M]], %[[V]] epsilon 1.000000e-05 : (tensor<1x64x56x56xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<1x64x56x56xf32>
  // CHECK: return %[[R]]
  %0 = kiln.batch_norm %x, %s, %b, %m, %v epsilon 1.0e-05
      : (tensor<1x64x56x56xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>)
      -> tensor<1x64x56x56xf32>
  return %0 : tensor<1x64x56x56xf32>
}

// Rank-2 ([N, C]) and rank-3 inputs, other float types.
// CHECK-LABEL: func @batch_norm_ranks
// CHECK-SAME: (%[[X:.*]]: tensor<8x16xf16>, %[[P:.*]]: tensor<16xf16>, %[[Y:.*]]: tensor<2x4x10xbf16>, %[[Q:.*]]: tensor<4xbf16>)
func.func @batch_norm_ranks(%x: tensor<8x16xf16>, %p: tensor<16xf16>, %y: tensor<2x4x10xbf16>, %q: tensor<4xbf16>) {
  // CHECK: kiln.batch_norm %[[X]], %[[P]], %[[P]], %[[P]], %[[P]] epsilon 1.000000e-03 : (tensor<8x16xf16>, tensor<16xf16>, tensor<16xf16>, tensor<16xf16>, tensor<16xf16>) -> tensor<8x16xf16>
  %0 = kiln.batch_norm %x, %p, %p, %p, %p epsilon 1.0e-03
      : (tensor<8x16xf16>, tensor<16xf16>, tensor<16xf16>, tensor<16xf16>, tensor<16xf16>) -> tensor<8x16xf16>
  // CHECK: kiln.batch_norm %[[Y]], %[[Q]], %[[Q]], %[[Q]], %[[Q]] epsilon 0.000000e+00 : (tensor<2x4x10xbf16>, tensor<4xbf16>, tensor<4xbf16>, tensor<4xbf16>, tensor<4xbf16>) -> tensor<2x4x10xbf16>
  %1 = kiln.batch_norm %y, %q, %q, %q, %q epsilon 0.0
      : (tensor<2x4x10xbf16>, tensor<4xbf16>, tensor<4xbf16>, tensor<4xbf16>, tensor<4xbf16>) -> tensor<2x4x10xbf16>
  return
}
