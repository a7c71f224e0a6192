// Max pooling whose windows reach outside the input (padding, ceil mode)
// never makes a padded copy: the windows that lie inside the input run over
// a slice of it (the window map, vectorised), and only the border rows and
// columns read the input with bounds checks. One without reads it through
// the window map.
// RUN: kiln-opt %s --split-input-file --kiln-convert-graph-to-linalg | FileCheck %s

// 3x3 stride 2 with padding 1 (ResNet's stem): outputs 1..7 of 8 read
// inside, from input row and column 1; row 0 and column 0 are checked.
// CHECK-LABEL: func.func @padded
// CHECK-NOT: tensor<1x2x18x18xf32>
// CHECK: %[[WINDOWS:.*]] = tensor.extract_slice %arg0[0, 0, 1, 1] [1, 2, 15, 15] [1, 1, 1, 1]
// CHECK: %[[LOWEST:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[INIT:.*]] = linalg.fill ins(%[[LOWEST]] : f32) outs(%{{.*}} : tensor<1x2x7x7xf32>)
// CHECK: %[[INNER:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "parallel"]} ins(%[[WINDOWS]], %{{.*}} : tensor<1x2x15x15xf32>, tensor<3x3xf32>) outs(%[[INIT]] : tensor<1x2x7x7xf32>)
// CHECK-NOT: tensor.extract %arg0
// CHECK: %[[R0:.*]] = tensor.insert_slice %[[INNER]] into %{{.*}}[0, 0, 1, 1] [1, 2, 7, 7] [1, 1, 1, 1]
// CHECK: %[[TOP:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%{{.*}} : tensor<3x3xf32>) outs(%{{.*}} : tensor<1x2x1x8xf32>)
// CHECK: arith.cmpi sge
// CHECK: arith.cmpi slt
// CHECK: %[[V:.*]] = tensor.extract %arg0[{{.*}}] : tensor<1x2x16x16xf32>
// CHECK: %[[S:.*]] = arith.select %{{.*}}, %[[V]], %{{.*}} : f32
// CHECK: arith.maximumf %{{.*}}, %[[S]] : f32
// CHECK: %[[R1:.*]] = tensor.insert_slice %[[TOP]] into %[[R0]][0, 0, 0, 0] [1, 2, 1, 8] [1, 1, 1, 1]
// CHECK: %[[LEFT:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x2x7x1xf32>)
// CHECK: tensor.extract %arg0
// CHECK: %[[R2:.*]] = tensor.insert_slice %[[LEFT]] into %[[R1]][0, 0, 1, 0] [1, 2, 7, 1] [1, 1, 1, 1]
// CHECK-NOT: linalg.generic
// CHECK: return %[[R2]]
func.func @padded(%x: tensor<1x2x16x16xf32>) -> tensor<1x2x8x8xf32> {
  %0 = kiln.max_pool2d %x {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>}
      : tensor<1x2x16x16xf32> -> tensor<1x2x8x8xf32>
  return %0 : tensor<1x2x8x8xf32>
}

// -----

// Ceil mode's extra row and column are outside too: the last output row
// and column are checked, the 2x2 before them are not.
// CHECK-LABEL: func.func @ceil_mode
// CHECK-NOT: tensor<1x1x6x6xf32>
// CHECK: tensor.extract_slice %arg0[0, 0, 0, 0] [1, 1, 4, 4] [1, 1, 1, 1]
// CHECK: tensor.insert_slice %{{.*}}[0, 0, 0, 0] [1, 1, 2, 2] [1, 1, 1, 1]
// CHECK: tensor.extract %arg0
// CHECK: arith.select
// CHECK: tensor.insert_slice %{{.*}}[0, 0, 2, 0] [1, 1, 1, 3] [1, 1, 1, 1]
// CHECK: tensor.insert_slice %{{.*}}[0, 0, 0, 2] [1, 1, 2, 1] [1, 1, 1, 1]
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

// -----

// No window lies inside (a 3x3 input with padding 2 and a 5x5 kernel
// stride 4, a single output): all of it is checked.
// CHECK-LABEL: func.func @all_border
// CHECK-NOT: tensor.extract_slice
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x1x1x1xf32>)
// CHECK: tensor.extract %arg0
// CHECK-NOT: tensor.insert_slice
func.func @all_border(%x: tensor<1x1x3x3xf32>) -> tensor<1x1x1x1xf32> {
  %0 = kiln.max_pool2d %x {kernel_shape = array<i64: 5, 5>, strides = array<i64: 4, 4>, pads = array<i64: 2, 2, 2, 2>}
      : tensor<1x1x3x3xf32> -> tensor<1x1x1x1xf32>
  return %0 : tensor<1x1x1x1xf32>
}
