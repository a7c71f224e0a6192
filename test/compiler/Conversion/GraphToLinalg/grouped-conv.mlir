// Grouped and depthwise convolutions: one generic whose innermost loop is
// the output column, read from the second operand (the padded input), so
// that the CPU code generator's vectors run along output columns and each
// weight is a broadcast.
// RUN: kiln-opt %s --split-input-file --kiln-convert-graph-to-linalg | FileCheck %s

// CHECK-DAG: #[[W:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d1, d2, d4, d5, d6)>
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d4, d3 * 2 + d5, d7 * 2 + d6)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d3, d7)>
// CHECK-LABEL: func.func @depthwise_stride_2
// The zero padding is a fill and a copy into its interior, not a gather.
// CHECK: %[[ZERO:.*]] = linalg.fill {{.*}} -> tensor<1x8x18x18xf32>
// CHECK: %[[PADDED:.*]] = tensor.insert_slice %arg0 into %[[ZERO]][0, 0, 1, 1] [1, 8, 16, 16] [1, 1, 1, 1]
// CHECK: %[[IN5:.*]] = tensor.expand_shape {{.*}} output_shape [1, 8, 1, 18, 18]
// CHECK: %[[W5:.*]] = tensor.expand_shape {{.*}} output_shape [8, 1, 1, 3, 3]
// CHECK: linalg.generic {indexing_maps = [#[[W]], #[[IN]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "parallel"]} ins(%[[W5]], %[[IN5]] : tensor<8x1x1x3x3xf32>, tensor<1x8x1x18x18xf32>)
// CHECK-NOT: tensor.extract
func.func @depthwise_stride_2(%x: tensor<1x8x16x16xf32>, %w: tensor<8x1x3x3xf32>) -> tensor<1x8x8x8xf32> {
  %0 = kiln.conv2d %x, %w {groups = 8 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>}
      : (tensor<1x8x16x16xf32>, tensor<8x1x3x3xf32>) -> tensor<1x8x8x8xf32>
  return %0 : tensor<1x8x8x8xf32>
}
