// RUN: kiln-opt %s --kiln-shard='ranks=2 rank=1 strategy=data' --canonicalize | FileCheck %s

// Data parallelism: each rank takes its slice of the batch, runs the whole
// model on it with whole weights, and the outputs are gathered back (the
// interface stays whole). Convolutions, pooling and row-wise softmax keep
// the batch split.

// CHECK: all_gathers = 1 : i64, all_reduces = 0 : i64, rank = 1 : i64, ranks = 2 : i64, reduce_scatters = 0 : i64, strategy = "data"
// CHECK: %[[X:.*]] = kiln.slice %arg0 starts [2, 0, 0, 0] limits [4, 1, 4, 4] steps [1, 1, 1, 1] : tensor<4x1x4x4xf32> -> tensor<2x1x4x4xf32>
// CHECK: kiln.conv2d %[[X]], %{{.*}} : (tensor<2x1x4x4xf32>, tensor<2x1x3x3xf32>) -> tensor<2x2x2x2xf32>
// CHECK: kiln.global_avg_pool %{{.*}} : tensor<2x2x2x2xf32> -> tensor<2x2x1x1xf32>
// CHECK: kiln.reshape %{{.*}} : tensor<2x2x1x1xf32> -> tensor<2x2xf32>
// CHECK: kiln.gemm %{{.*}}, %{{.*}} {trans_b} : (tensor<2x2xf32>, tensor<3x2xf32>) -> tensor<2x3xf32>
// CHECK: %[[S:.*]] = kiln.softmax %{{.*}} axis 1 : tensor<2x3xf32>
// CHECK: %[[G:.*]] = kiln.all_gather %[[S]] axis(0) ranks(2) : tensor<2x3xf32> -> tensor<4x3xf32>
// CHECK: return %[[G]]
func.func @cnn(%x: tensor<4x1x4x4xf32>) -> tensor<4x3xf32> {
  %w = kiln.constant dense<0.5> : tensor<2x1x3x3xf32>
  %c = kiln.conv2d %x, %w : (tensor<4x1x4x4xf32>, tensor<2x1x3x3xf32>) -> tensor<4x2x2x2xf32>
  %p = kiln.global_avg_pool %c : tensor<4x2x2x2xf32> -> tensor<4x2x1x1xf32>
  %f = kiln.reshape %p : tensor<4x2x1x1xf32> -> tensor<4x2xf32>
  %w2 = kiln.constant dense<0.25> : tensor<3x2xf32>
  %y = kiln.gemm %f, %w2 {trans_b} : (tensor<4x2xf32>, tensor<3x2xf32>) -> tensor<4x3xf32>
  %s = kiln.softmax %y axis 1 : tensor<4x3xf32>
  return %s : tensor<4x3xf32>
}
