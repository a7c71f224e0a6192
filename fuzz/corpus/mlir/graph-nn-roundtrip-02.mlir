func.func @avg_pool2d(%x: tensor<1x8x4x4xf32>, %h: tensor<1x8x4x4xf64>) {
  %0 = kiln.avg_pool2d %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>}
      : tensor<1x8x4x4xf32> -> tensor<1x8x2x2xf32>
  %1 = kiln.avg_pool2d %x {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>,
                           count_include_pad}
      : tensor<1x8x4x4xf32> -> tensor<1x8x4x4xf32>
  %2 = kiln.avg_pool2d %h {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>,
                           ceil_mode, count_include_pad}
      : tensor<1x8x4x4xf64> -> tensor<1x8x2x2xf64>
  return
}
