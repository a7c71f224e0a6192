// Max pooling whose windows reach outside the input (padding, ceil mode)
// reads the input with bounds checks instead of a padded copy; one without
// reads it through the window map.
// RUN: kiln-opt %s --split-input-file --kiln-convert-graph-to-linalg | FileCheck %s

// CHECK-LABEL: func.func @padded
// CHECK-NOT: tensor<1x2x18x18xf32>
// CHECK: %[[LOWEST:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[INIT:.*]] = linalg.fill ins(%[[LOWEST]] : f32) outs(%{{.*}} : tensor<1x2x8x8xf32>)
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%{{.*}} : tensor<3x3xf32>) outs(%[[INIT]] : tensor<1x2x8x8xf32>)
// CHECK: arith.cmpi sge
// CHECK: arith.cmpi slt
// CHECK: %[[V:.*]] = tensor.extract %arg0[{{.*}}] : tensor<1x2x16x16xf32>
// CHECK: %[[S:.*]] = arith.select %{{.*}}, %[[V]], %{{.*}} : f32
// CHECK: arith.maximumf %{{.*}}, %[[S]] : f32
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @padded(%x: tensor<1x2x16x16xf32>) -> tensor<1x2x8x8xf32> {
  %0 = kiln.max_pool2d %x {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>}
      : tensor<1x2x16x16xf32> -> tensor<1x2x8x8xf32>
  return %0 : tensor<1x2x8x8xf32>
}

// -----

// Ceil mode's extra row and column are outside too.
// CHECK-LABEL: func.func @ceil_mode
// CHECK-NOT: tensor<1x1x6x6xf32>
// CHECK: tensor.extract %arg0
// CHECK: arith.select
func.func @ceil_mode(%x: tensor<1x1x5x5xf32>) -> tensor<1x1x3x3xf32> {
  %0 = kiln.max_pool2d %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>, ceil_mode}
      : tensor<1x1x5x5xf32> -> tensor<1x1x3x3xf32>
  return %0 : tensor<1x1x3x3xf32>
}

// -----

// Windows inside the input: the input is the generic's operand, with the
// output column innermost (the loop that vectorises) after the window's.
// CHECK-LABEL: func.func @unpadded
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "parallel"]} ins(%arg0, %{{.*}} : tensor<1x2x16x16xf32>, tensor<2x2xf32>)
// CHECK-NOT: tensor.extract
// CHECK: return
func.func @unpadded(%x: tensor<1x2x16x16xf32>) -> tensor<1x2x8x8xf32> {
  %0 = kiln.max_pool2d %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>}
      : tensor<1x2x16x16xf32> -> tensor<1x2x8x8xf32>
  return %0 : tensor<1x2x8x8xf32>
}
