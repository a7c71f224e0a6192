// Small maps on the CPU (pack-weight-rows set): when a product of P pixel
// columns would leave many FMA lanes idle (49 = 32 + 16 + 1 columns) and
// the output channels would not, the channels are the columns instead:
// constant weights [O, C, KH, KW] become [C*KH*KW, O] (or panels of 32
// channels, [O / 32, C*KH*KW, 32]), col is the
// contraction's left-hand side, the product is [N, P, O] and a transposing
// copy gives [N, O, P] back.
// RUN: kiln-opt %s --split-input-file --kiln-convert-graph-to-linalg=pack-weight-rows=8 --mlir-print-elementsattrs-with-hex-if-larger=-1 | FileCheck %s
// RUN: kiln-opt %s --split-input-file --kiln-convert-graph-to-linalg | FileCheck %s --check-prefix=PLAIN

// W[o, c] = o + 100 c, transposed: row c holds 100 c, 100 c + 1, ...
// CHECK-LABEL: func.func @small_map
// CHECK: %[[W:.*]] = arith.constant dense<{{\[}}[0.000000e+00, 1.000000e+00, 2.000000e+00, {{.*}}], [1.000000e+02, 1.010000e+02, {{.*}}]]> : tensor<2x32xf32>
// CHECK: %[[ZERO:.*]] = linalg.fill {{.*}} -> tensor<1x49x32xf32>
// CHECK: %[[PRODUCT:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %[[W]] : tensor<1x2x49xf32>, tensor<2x32xf32>) outs(%[[ZERO]] : tensor<1x49x32xf32>)
// CHECK: %[[FIRST:.*]] = linalg.generic {{.*}} ins(%[[PRODUCT]] : tensor<1x49x32xf32>) outs(%{{.*}} : tensor<1x32x49xf32>)
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape %[[FIRST]]
// CHECK: tensor.expand_shape %[[FLAT]] {{.*}} output_shape [1, 32, 7, 7]
// PLAIN-LABEL: func.func @small_map
// PLAIN: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<32x2xf32>, tensor<1x2x49xf32>) outs(%{{.*}} : tensor<1x32x49xf32>)
// PLAIN-NOT: tensor<1x49x32xf32>
func.func @small_map(%x: tensor<1x2x7x7xf32>) -> tensor<1x32x7x7xf32> {
  %w = kiln.constant dense<[[[[0.0]], [[100.0]]], [[[1.0]], [[101.0]]], [[[2.0]], [[102.0]]], [[[3.0]], [[103.0]]], [[[4.0]], [[104.0]]], [[[5.0]], [[105.0]]], [[[6.0]], [[106.0]]], [[[7.0]], [[107.0]]], [[[8.0]], [[108.0]]], [[[9.0]], [[109.0]]], [[[10.0]], [[110.0]]], [[[11.0]], [[111.0]]], [[[12.0]], [[112.0]]], [[[13.0]], [[113.0]]], [[[14.0]], [[114.0]]], [[[15.0]], [[115.0]]], [[[16.0]], [[116.0]]], [[[17.0]], [[117.0]]], [[[18.0]], [[118.0]]], [[[19.0]], [[119.0]]], [[[20.0]], [[120.0]]], [[[21.0]], [[121.0]]], [[[22.0]], [[122.0]]], [[[23.0]], [[123.0]]], [[[24.0]], [[124.0]]], [[[25.0]], [[125.0]]], [[[26.0]], [[126.0]]], [[[27.0]], [[127.0]]], [[[28.0]], [[128.0]]], [[[29.0]], [[129.0]]], [[[30.0]], [[130.0]]], [[[31.0]], [[131.0]]]]> : tensor<32x2x1x1xf32>
  %0 = kiln.conv2d %x, %w : (tensor<1x2x7x7xf32>, tensor<32x2x1x1xf32>) -> tensor<1x32x7x7xf32>
  return %0 : tensor<1x32x7x7xf32>
}

// -----

// A padded 3x3 convolution on a 1x1 map: one pixel, 48 channels (32 + 16).
// CHECK-LABEL: func.func @one_pixel
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x18x1xf32>, tensor<18x48xf32>) outs(%{{.*}} : tensor<1x1x48xf32>)
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<1x1x48xf32>) outs(%{{.*}} : tensor<1x48x1xf32>)
func.func @one_pixel(%x: tensor<1x2x1x1xf32>) -> tensor<1x48x1x1xf32> {
  %w = kiln.constant dense<0.5> : tensor<48x2x3x3xf32>
  %0 = kiln.conv2d %x, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x1x1xf32>, tensor<48x2x3x3xf32>) -> tensor<1x48x1x1xf32>
  return %0 : tensor<1x48x1x1xf32>
}

// -----

// 64 pixels fill whole tiles: pixels stay the columns (weights packed by 8).
// Weights that are not constants, and fewer than 16 channels, stay too.
// CHECK-LABEL: func.func @stays_pixel_columns
// CHECK: outs(%{{.*}} : tensor<1x4x8x64xf32>)
// CHECK: outs(%{{.*}} : tensor<1x32x49xf32>)
// CHECK: outs(%{{.*}} : tensor<1x8x49xf32>)
// CHECK-NOT: tensor<1x49x
func.func @stays_pixel_columns(%x: tensor<1x2x8x8xf32>, %y: tensor<1x2x7x7xf32>, %v: tensor<32x2x1x1xf32>)
    -> (tensor<1x32x8x8xf32>, tensor<1x32x7x7xf32>, tensor<1x8x7x7xf32>) {
  %w = kiln.constant dense<0.25> : tensor<32x2x1x1xf32>
  %u = kiln.constant dense<0.125> : tensor<8x2x1x1xf32>
  %0 = kiln.conv2d %x, %w : (tensor<1x2x8x8xf32>, tensor<32x2x1x1xf32>) -> tensor<1x32x8x8xf32>
  %1 = kiln.conv2d %y, %v : (tensor<1x2x7x7xf32>, tensor<32x2x1x1xf32>) -> tensor<1x32x7x7xf32>
  %2 = kiln.conv2d %y, %u : (tensor<1x2x7x7xf32>, tensor<8x2x1x1xf32>) -> tensor<1x8x7x7xf32>
  return %0, %1, %2 : tensor<1x32x8x8xf32>, tensor<1x32x7x7xf32>, tensor<1x8x7x7xf32>
}

// -----

// 64 channels are two panels of the tile's 32 columns: the weights are
// packed [O / 32, C*KH*KW, 32] (panel b, row c holds channels 32 b .. of
// input channel c) and the product is [N, P, O / 32, 32], the same bytes
// as [N, P, O].
// W[o, c] = o + 100 c: panel 1, row 1 starts at 132.
// CHECK-LABEL: func.func @packed_panels
// CHECK: %[[W:.*]] = arith.constant dense<{{\[}}{{\[}}[0.000000e+00, 1.000000e+00, {{.*}}], [1.000000e+02, {{.*}}]], {{\[}}[3.200000e+01, {{.*}}], [1.320000e+02, {{.*}}]]]> : tensor<2x2x32xf32>
// CHECK: %[[PRODUCT:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %[[W]] : tensor<1x2x49xf32>, tensor<2x2x32xf32>) outs(%{{.*}} : tensor<1x49x2x32xf32>)
// CHECK: tensor.collapse_shape %[[PRODUCT]]
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<1x49x64xf32>) outs(%{{.*}} : tensor<1x64x49xf32>)
func.func @packed_panels(%x: tensor<1x2x7x7xf32>) -> tensor<1x64x7x7xf32> {
  %w = kiln.constant dense<[[[[0.0]], [[100.0]]], [[[1.0]], [[101.0]]], [[[2.0]], [[102.0]]], [[[3.0]], [[103.0]]], [[[4.0]], [[104.0]]], [[[5.0]], [[105.0]]], [[[6.0]], [[106.0]]], [[[7.0]], [[107.0]]], [[[8.0]], [[108.0]]], [[[9.0]], [[109.0]]], [[[10.0]], [[110.0]]], [[[11.0]], [[111.0]]], [[[12.0]], [[112.0]]], [[[13.0]], [[113.0]]], [[[14.0]], [[114.0]]], [[[15.0]], [[115.0]]], [[[16.0]], [[116.0]]], [[[17.0]], [[117.0]]], [[[18.0]], [[118.0]]], [[[19.0]], [[119.0]]], [[[20.0]], [[120.0]]], [[[21.0]], [[121.0]]], [[[22.0]], [[122.0]]], [[[23.0]], [[123.0]]], [[[24.0]], [[124.0]]], [[[25.0]], [[125.0]]], [[[26.0]], [[126.0]]], [[[27.0]], [[127.0]]], [[[28.0]], [[128.0]]], [[[29.0]], [[129.0]]], [[[30.0]], [[130.0]]], [[[31.0]], [[131.0]]], [[[32.0]], [[132.0]]], [[[33.0]], [[133.0]]], [[[34.0]], [[134.0]]], [[[35.0]], [[135.0]]], [[[36.0]], [[136.0]]], [[[37.0]], [[137.0]]], [[[38.0]], [[138.0]]], [[[39.0]], [[139.0]]], [[[40.0]], [[140.0]]], [[[41.0]], [[141.0]]], [[[42.0]], [[142.0]]], [[[43.0]], [[143.0]]], [[[44.0]], [[144.0]]], [[[45.0]], [[145.0]]], [[[46.0]], [[146.0]]], [[[47.0]], [[147.0]]], [[[48.0]], [[148.0]]], [[[49.0]], [[149.0]]], [[[50.0]], [[150.0]]], [[[51.0]], [[151.0]]], [[[52.0]], [[152.0]]], [[[53.0]], [[153.0]]], [[[54.0]], [[154.0]]], [[[55.0]], [[155.0]]], [[[56.0]], [[156.0]]], [[[57.0]], [[157.0]]], [[[58.0]], [[158.0]]], [[[59.0]], [[159.0]]], [[[60.0]], [[160.0]]], [[[61.0]], [[161.0]]], [[[62.0]], [[162.0]]], [[[63.0]], [[163.0]]]]> : tensor<64x2x1x1xf32>
  %0 = kiln.conv2d %x, %w : (tensor<1x2x7x7xf32>, tensor<64x2x1x1xf32>) -> tensor<1x64x7x7xf32>
  return %0 : tensor<1x64x7x7xf32>
}
