// Reductions that keep their reduced dimensions (softmax's row maximum and
// sum, global pools) reduce into the remaining dimensions and reshape: an
// output indexed by a constant 0 vectorises to an accumulator read and
// write of different shapes, which stay in memory across the reduction
// loop instead of in registers. Global pools first make their spatial
// dimensions one, so that one loop reduces all of them.
// RUN: kiln-opt %s --split-input-file --kiln-convert-graph-to-linalg | FileCheck %s

// CHECK-LABEL: func.func @global_avg
// CHECK: %[[FLAT:.*]] = tensor.expand_shape {{.*}} output_shape [1, 32, 49] : tensor<1568xf32> into tensor<1x32x49xf32>
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[FLAT]] : tensor<1x32x49xf32>) outs(%{{.*}} : tensor<1x32xf32>)
// CHECK: tensor.expand_shape {{.*}} output_shape [1, 32, 1, 1]
// CHECK: arith.constant 4.900000e+01 : f32
func.func @global_avg(%x: tensor<1x32x7x7xf32>) -> tensor<1x32x1x1xf32> {
  %0 = kiln.global_avg_pool %x : tensor<1x32x7x7xf32> -> tensor<1x32x1x1xf32>
  return %0 : tensor<1x32x1x1xf32>
}

// -----

// CHECK-LABEL: func.func @softmax_rows
// CHECK: %[[MAX:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%{{.*}} : tensor<4x10xf32>) outs(%{{.*}} : tensor<4xf32>)
// CHECK: tensor.expand_shape %[[MAX]] {{.*}} output_shape [4, 1] : tensor<4xf32> into tensor<4x1xf32>
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%{{.*}} : tensor<4x10xf32>) outs(%{{.*}} : tensor<4xf32>)
// CHECK: tensor.expand_shape %[[SUM]] {{.*}} output_shape [4, 1] : tensor<4xf32> into tensor<4x1xf32>
func.func @softmax_rows(%x: tensor<4x10xf32>) -> tensor<4x10xf32> {
  %0 = kiln.softmax %x axis 1 : tensor<4x10xf32>
  return %0 : tensor<4x10xf32>
}
