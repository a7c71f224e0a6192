// RUN: kiln-opt %s -kiln-split-full-reductions -split-input-file | FileCheck %s

// A min over every axis: the leading axes first (a [64] vector of partial
// minima), then the last.
// CHECK-LABEL: func @min_all
// CHECK: %[[ROWS:.*]] = kiln.reduce_min %{{.*}} axes [0, 1] : tensor<4x32x64xf32> -> tensor<64xf32>
// CHECK: %[[ALL:.*]] = kiln.reduce_min %[[ROWS]] axes [0] : tensor<64xf32> -> tensor<f32>
// CHECK: return %[[ALL]]
func.func @min_all(%x: tensor<4x32x64xf32>) -> tensor<f32> {
  %r = kiln.reduce_min %x axes [2, 0, 1] : tensor<4x32x64xf32> -> tensor<f32>
  return %r : tensor<f32>
}

// -----

// keep_dims keeps every axis as size 1 in both stages.
// CHECK-LABEL: func @max_keep_dims
// CHECK: %[[ROWS:.*]] = kiln.reduce_max %{{.*}} axes [0] keep_dims : tensor<128x64xf32> -> tensor<1x64xf32>
// CHECK: kiln.reduce_max %[[ROWS]] axes [1] keep_dims : tensor<1x64xf32> -> tensor<1x1xf32>
func.func @max_keep_dims(%x: tensor<128x64xf32>) -> tensor<1x1xf32> {
  %r = kiln.reduce_max %x axes [-2, -1] keep_dims : tensor<128x64xf32> -> tensor<1x1xf32>
  return %r : tensor<1x1xf32>
}

// -----

// Left alone: a sum (its rounding would change), a partial reduction, a
// small tensor, a narrow last axis.
// CHECK-LABEL: func @unchanged
// CHECK: kiln.reduce_sum %{{.*}} axes [0, 1] : tensor<128x64xf32> -> tensor<f32>
// CHECK: kiln.reduce_max %{{.*}} axes [0] : tensor<128x64xf32> -> tensor<64xf32>
// CHECK: kiln.reduce_max %{{.*}} axes [0, 1] : tensor<8x64xf32> -> tensor<f32>
// CHECK: kiln.reduce_min %{{.*}} axes [0, 1] : tensor<1024x8xf32> -> tensor<f32>
func.func @unchanged(%x: tensor<128x64xf32>, %y: tensor<8x64xf32>, %z: tensor<1024x8xf32>) -> (tensor<f32>, tensor<64xf32>, tensor<f32>, tensor<f32>) {
  %s = kiln.reduce_sum %x axes [0, 1] : tensor<128x64xf32> -> tensor<f32>
  %p = kiln.reduce_max %x axes [0] : tensor<128x64xf32> -> tensor<64xf32>
  %m = kiln.reduce_max %y axes [0, 1] : tensor<8x64xf32> -> tensor<f32>
  %n = kiln.reduce_min %z axes [0, 1] : tensor<1024x8xf32> -> tensor<f32>
  return %s, %p, %m, %n : tensor<f32>, tensor<64xf32>, tensor<f32>, tensor<f32>
}
