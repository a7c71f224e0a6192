// Constant convolution weights packed for the CPU register tile: with
// pack-weight-rows=R, a weight [O, C, KH, KW] whose O divides by R becomes
// the constant [O / R, C*KH*KW, R] (the R weights one reduction step of a
// register tile reads, contiguous) and the product is [N, O / R, R, P].
// RUN: kiln-opt %s --split-input-file --kiln-convert-graph-to-linalg=pack-weight-rows=2 | FileCheck %s
// RUN: kiln-opt %s --split-input-file --kiln-convert-graph-to-linalg | FileCheck %s --check-prefix=PLAIN

// W[o, c] = 10 o + c for o < 4, c < 3: packed by 2 rows, block b holds
// rows 2b and 2b + 1 interleaved along c.
// CHECK-LABEL: func.func @pointwise
// CHECK: %[[W:.*]] = arith.constant dense<{{\[}}{{\[}}[0.000000e+00, 1.000000e+01], [1.000000e+00, 1.100000e+01], [2.000000e+00, 1.200000e+01]], {{\[}}[2.000000e+01, 3.000000e+01], [2.100000e+01, 3.100000e+01], [2.200000e+01, 3.200000e+01]]]> : tensor<2x3x2xf32>
// CHECK: %[[ZERO:.*]] = linalg.fill {{.*}} -> tensor<1x2x2x16xf32>
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%[[W]], %{{.*}} : tensor<2x3x2xf32>, tensor<1x3x16xf32>) outs(%[[ZERO]] : tensor<1x2x2x16xf32>)
// CHECK: tensor.expand_shape {{.*}} output_shape [1, 4, 4, 4]
// PLAIN-LABEL: func.func @pointwise
// PLAIN: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<4x3xf32>, tensor<1x3x16xf32>) outs(%{{.*}} : tensor<1x4x16xf32>)
func.func @pointwise(%x: tensor<1x3x4x4xf32>) -> tensor<1x4x4x4xf32> {
  %w = kiln.constant dense<[[[[0.0]], [[1.0]], [[2.0]]], [[[10.0]], [[11.0]], [[12.0]]],
                            [[[20.0]], [[21.0]], [[22.0]]], [[[30.0]], [[31.0]], [[32.0]]]]> : tensor<4x3x1x1xf32>
  %0 = kiln.conv2d %x, %w : (tensor<1x3x4x4xf32>, tensor<4x3x1x1xf32>) -> tensor<1x4x4x4xf32>
  return %0 : tensor<1x4x4x4xf32>
}

// -----

// Weights that are not constants, or whose output channels the rows do
// not divide, stay [O, R].
// CHECK-LABEL: func.func @not_packed
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<4x3xf32>, tensor<1x3x16xf32>) outs(%{{.*}} : tensor<1x4x16xf32>)
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<3x3xf32>, tensor<1x3x16xf32>) outs(%{{.*}} : tensor<1x3x16xf32>)
func.func @not_packed(%x: tensor<1x3x4x4xf32>, %w: tensor<4x3x1x1xf32>) -> (tensor<1x4x4x4xf32>, tensor<1x3x4x4xf32>) {
  %odd = kiln.constant dense<1.0> : tensor<3x3x1x1xf32>
  %0 = kiln.conv2d %x, %w : (tensor<1x3x4x4xf32>, tensor<4x3x1x1xf32>) -> tensor<1x4x4x4xf32>
  %1 = kiln.conv2d %x, %odd : (tensor<1x3x4x4xf32>, tensor<3x3x1x1xf32>) -> tensor<1x3x4x4xf32>
  return %0, %1 : tensor<1x4x4x4xf32>, tensor<1x3x4x4xf32>
}
