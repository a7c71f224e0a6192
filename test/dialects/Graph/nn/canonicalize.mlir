// RUN: kiln-opt %s -canonicalize="test-convergence" -split-input-file | FileCheck %s

// The nn ops have no folders: they survive canonicalisation (even on
// constants), while the computations feeding them fold and unused ones are
// erased (the ops are pure).

// CHECK-LABEL: func @softmax_of_constant_is_kept
// CHECK-NEXT: %[[C:.*]] = kiln.constant dense<{{\[}}[1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>
// CHECK-NEXT: %[[S:.*]] = kiln.softmax %[[C]] axis -1 : tensor<2x2xf32>
// CHECK-NEXT: %[[L:.*]] = kiln.log_softmax %[[C]] axis 0 : tensor<2x2xf32>
// CHECK-NEXT: return %[[S]], %[[L]]
func.func @softmax_of_constant_is_kept() -> (tensor<2x2xf32>, tensor<2x2xf32>) {
  %c = kiln.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %0 = kiln.softmax %c axis -1 : tensor<2x2xf32>
  %1 = kiln.log_softmax %c axis 0 : tensor<2x2xf32>
  return %0, %1 : tensor<2x2xf32>, tensor<2x2xf32>
}

// -----

// Scale and bias computed from constants fold; the layer_norm stays.
// CHECK-LABEL: func @layer_norm_of_folded_params
// CHECK-SAME: (%[[X:.*]]: tensor<2x4xf32>)
// CHECK-DAG: %[[G:.*]] = kiln.constant dense<[2.000000e+00, 4.000000e+00, 6.000000e+00, 8.000000e+00]> : tensor<4xf32>
// CHECK-DAG: %[[B:.*]] = kiln.constant dense<-5.000000e-01> : tensor<4xf32>
// CHECK: %[[R:.*]] = kiln.layer_norm %[[X]], %[[G]], %[[B]] axis -1 epsilon 1.000000e-05 : (tensor<2x4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: return %[[R]]
func.func @layer_norm_of_folded_params(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %a = kiln.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %two = kiln.constant dense<2.0> : tensor<f32>
  %g = kiln.mul %a, %two : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %h = kiln.constant dense<0.5> : tensor<4xf32>
  %b = kiln.neg %h : tensor<4xf32>
  %0 = kiln.layer_norm %x, %g, %b axis -1 epsilon 1.0e-05
      : (tensor<2x4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// Running statistics converted from f32 constants fold to f16 constants; the
// batch_norm stays.
// CHECK-LABEL: func @batch_norm_of_folded_statistics
// CHECK-SAME: (%[[X:.*]]: tensor<1x2x3x3xf16>)
// CHECK-DAG: %[[ONE:.*]] = kiln.constant dense<1.000000e+00> : tensor<2xf16>
// CHECK-DAG: %[[ZERO:.*]] = kiln.constant dense<0.000000e+00> : tensor<2xf16>
// CHECK-DAG: %[[VAR:.*]] = kiln.constant dense<[2.500000e-01, 4.000000e+00]> : tensor<2xf16>
// CHECK: %[[R:.*]] = kiln.batch_norm %[[X]], %[[ONE]], %[[ZERO]], %[[ZERO]], %[[VAR]] epsilon 1.000000e-03
// CHECK-NEXT: return %[[R]]
func.func @batch_norm_of_folded_statistics(%x: tensor<1x2x3x3xf16>) -> tensor<1x2x3x3xf16> {
  %s = kiln.constant dense<1.0> : tensor<2xf16>
  %b = kiln.constant dense<0.0> : tensor<2xf16>
  %v32 = kiln.constant dense<[0.25, 4.0]> : tensor<2xf32>
  %v = kiln.cast %v32 : tensor<2xf32> -> tensor<2xf16>
  %0 = kiln.batch_norm %x, %s, %b, %b, %v epsilon 1.0e-03
      : (tensor<1x2x3x3xf16>, tensor<2xf16>, tensor<2xf16>, tensor<2xf16>, tensor<2xf16>) -> tensor<1x2x3x3xf16>
  return %0 : tensor<1x2x3x3xf16>
}

// -----

// Pooling of a splat constant is not folded either.
// CHECK-LABEL: func @pool_of_constant_is_kept
// CHECK-NEXT: %[[C:.*]] = kiln.constant dense<1.000000e+00> : tensor<1x1x4x4xf32>
// CHECK-NEXT: %[[M:.*]] = kiln.max_pool2d %[[C]] {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>}
// CHECK-NEXT: %[[G:.*]] = kiln.global_avg_pool %[[C]]
// CHECK-NEXT: return %[[M]], %[[G]]
func.func @pool_of_constant_is_kept() -> (tensor<1x1x2x2xf32>, tensor<1x1x1x1xf32>) {
  %c = kiln.constant dense<1.0> : tensor<1x1x4x4xf32>
  %0 = kiln.max_pool2d %c {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>}
      : tensor<1x1x4x4xf32> -> tensor<1x1x2x2xf32>
  %1 = kiln.global_avg_pool %c : tensor<1x1x4x4xf32> -> tensor<1x1x1x1xf32>
  return %0, %1 : tensor<1x1x2x2xf32>, tensor<1x1x1x1xf32>
}

// -----

// Identity folds around nn ops: relu(relu(pool)) keeps one relu and the
// cast to the same type disappears.
// CHECK-LABEL: func @identities_around_pool
// CHECK-SAME: (%[[X:.*]]: tensor<1x2x4x4xf32>)
// CHECK-NEXT: %[[P:.*]] = kiln.avg_pool2d %[[X]] {count_include_pad, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>}
// CHECK-NEXT: %[[R:.*]] = kiln.relu %[[P]]
// CHECK-NEXT: return %[[R]]
func.func @identities_around_pool(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %c = kiln.cast %x : tensor<1x2x4x4xf32> -> tensor<1x2x4x4xf32>
  %0 = kiln.avg_pool2d %c {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, count_include_pad}
      : tensor<1x2x4x4xf32> -> tensor<1x2x4x4xf32>
  %1 = kiln.relu %0 : tensor<1x2x4x4xf32>
  %2 = kiln.relu %1 : tensor<1x2x4x4xf32>
  return %2 : tensor<1x2x4x4xf32>
}

// -----

// Unused nn ops are erased.
// CHECK-LABEL: func @erase_unused_nn_ops
// CHECK-NOT: kiln.
// CHECK: return
func.func @erase_unused_nn_ops(%x: tensor<1x4x4x4xf32>, %p: tensor<4xf32>) {
  %0 = kiln.max_pool2d %x {kernel_shape = array<i64: 2, 2>} : tensor<1x4x4x4xf32> -> tensor<1x4x3x3xf32>
  %1 = kiln.avg_pool2d %x {kernel_shape = array<i64: 2, 2>} : tensor<1x4x4x4xf32> -> tensor<1x4x3x3xf32>
  %2 = kiln.global_max_pool %x : tensor<1x4x4x4xf32> -> tensor<1x4x1x1xf32>
  %3 = kiln.softmax %x axis 1 : tensor<1x4x4x4xf32>
  %4 = kiln.layer_norm %x, %p axis -1 epsilon 1.0e-05 : (tensor<1x4x4x4xf32>, tensor<4xf32>) -> tensor<1x4x4x4xf32>
  %5 = kiln.batch_norm %x, %p, %p, %p, %p epsilon 1.0e-05
      : (tensor<1x4x4x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x4x4xf32>
  return
}
