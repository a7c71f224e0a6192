// RUN: kiln-opt %s -canonicalize="test-convergence" -split-input-file | FileCheck %s

// Folders of the reductions (foldTrivialReduce in GraphOpFolders.cpp):
// reducing nothing, or only size-1 dimensions that are kept, is the identity.

// CHECK-LABEL: func.func @reduce_unit_axes_keep_dims
// CHECK-SAME: (%[[X:.*]]: tensor<2x1x4x1xf32>, %[[Y:.*]]: tensor<1x3xi32>, %[[Z:.*]]: tensor<1xf16>)
// CHECK-NOT: kiln.reduce
// CHECK: return %[[X]], %[[X]], %[[Y]], %[[Y]], %[[Z]]
func.func @reduce_unit_axes_keep_dims(%x: tensor<2x1x4x1xf32>, %y: tensor<1x3xi32>,
                                      %z: tensor<1xf16>)
    -> (tensor<2x1x4x1xf32>, tensor<2x1x4x1xf32>, tensor<1x3xi32>,
        tensor<1x3xi32>, tensor<1xf16>) {
  %0 = kiln.reduce_sum %x axes [1] keep_dims : tensor<2x1x4x1xf32> -> tensor<2x1x4x1xf32>
  %1 = kiln.reduce_mean %x axes [-1, 1] keep_dims : tensor<2x1x4x1xf32> -> tensor<2x1x4x1xf32>
  %2 = kiln.reduce_max %y axes [0] keep_dims : tensor<1x3xi32> -> tensor<1x3xi32>
  %3 = kiln.reduce_min %y axes [-2] keep_dims : tensor<1x3xi32> -> tensor<1x3xi32>
  %4 = kiln.reduce_prod %z axes [0] keep_dims : tensor<1xf16> -> tensor<1xf16>
  return %0, %1, %2, %3, %4 : tensor<2x1x4x1xf32>, tensor<2x1x4x1xf32>,
      tensor<1x3xi32>, tensor<1x3xi32>, tensor<1xf16>
}

// -----

// CHECK-LABEL: func.func @reduce_empty_axes
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xbf16>, %[[Y:.*]]: tensor<i64>, %[[Z:.*]]: tensor<4xi8>)
// CHECK-NOT: kiln.reduce
// CHECK: return %[[X]], %[[X]], %[[Y]], %[[Z]], %[[Z]]
func.func @reduce_empty_axes(%x: tensor<2x3xbf16>, %y: tensor<i64>, %z: tensor<4xi8>)
    -> (tensor<2x3xbf16>, tensor<2x3xbf16>, tensor<i64>, tensor<4xi8>, tensor<4xi8>) {
  %0 = kiln.reduce_sum %x axes [] : tensor<2x3xbf16> -> tensor<2x3xbf16>
  %1 = kiln.reduce_mean %x axes [] keep_dims : tensor<2x3xbf16> -> tensor<2x3xbf16>
  %2 = kiln.reduce_max %y axes [] : tensor<i64> -> tensor<i64>
  %3 = kiln.reduce_min %z axes [] : tensor<4xi8> -> tensor<4xi8>
  %4 = kiln.reduce_prod %z axes [] keep_dims : tensor<4xi8> -> tensor<4xi8>
  return %0, %1, %2, %3, %4 : tensor<2x3xbf16>, tensor<2x3xbf16>, tensor<i64>,
      tensor<4xi8>, tensor<4xi8>
}

// -----

// Reducing a non-unit axis is real work, kept or not.
// CHECK-LABEL: func.func @no_fold_non_unit_axis
// CHECK: kiln.reduce_sum %{{.*}} axes [2] keep_dims
// CHECK: kiln.reduce_mean %{{.*}} axes [1, 2] keep_dims
// CHECK: kiln.reduce_max %{{.*}} axes [0]
// CHECK: kiln.reduce_prod %{{.*}} axes [0] keep_dims
func.func @no_fold_non_unit_axis(%x: tensor<2x1x4xf32>, %e: tensor<0x3xf32>)
    -> (tensor<2x1x1xf32>, tensor<2x1x1xf32>, tensor<1x4xf32>, tensor<1x3xf32>) {
  %0 = kiln.reduce_sum %x axes [2] keep_dims : tensor<2x1x4xf32> -> tensor<2x1x1xf32>
  // One unit axis and one non-unit axis.
  %1 = kiln.reduce_mean %x axes [1, 2] keep_dims : tensor<2x1x4xf32> -> tensor<2x1x1xf32>
  %2 = kiln.reduce_max %x axes [0] : tensor<2x1x4xf32> -> tensor<1x4xf32>
  // An empty axis reduces to the identity element, not to the input.
  %3 = kiln.reduce_prod %e axes [0] keep_dims : tensor<0x3xf32> -> tensor<1x3xf32>
  return %0, %1, %2, %3 : tensor<2x1x1xf32>, tensor<2x1x1xf32>, tensor<1x4xf32>,
      tensor<1x3xf32>
}

// -----

// Without keep_dims a unit axis is dropped: the type changes, so the fold
// (which only returns the input) does not apply.
// CHECK-LABEL: func.func @no_fold_unit_axis_dropped
// CHECK-SAME: (%[[X:.*]]: tensor<2x1xf32>)
// CHECK: %[[R:.*]] = kiln.reduce_sum %[[X]] axes [1] : tensor<2x1xf32> -> tensor<2xf32>
// CHECK: return %[[R]]
func.func @no_fold_unit_axis_dropped(%x: tensor<2x1xf32>) -> tensor<2xf32> {
  %0 = kiln.reduce_sum %x axes [1] : tensor<2x1xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// Arg-reductions have no folder: even over a unit axis the result is an
// index tensor (all zeros), not the input.
// CHECK-LABEL: func.func @no_fold_argmax
// CHECK: kiln.argmax %{{.*}} axis 1 keep_dims
// CHECK: kiln.argmin %{{.*}} axis 0
func.func @no_fold_argmax(%x: tensor<3x1xi64>) -> (tensor<3x1xi64>, tensor<1xi64>) {
  %0 = kiln.argmax %x axis 1 keep_dims : tensor<3x1xi64> -> tensor<3x1xi64>
  %1 = kiln.argmin %x axis 0 : tensor<3x1xi64> -> tensor<1xi64>
  return %0, %1 : tensor<3x1xi64>, tensor<1xi64>
}
