func.func @avg_pool_padding_only_window(%x: tensor<1x1x1x1xf32>) -> tensor<1x1x1x1xf32> {
  %0 = kiln.avg_pool2d %x {kernel_shape = array<i64: 2, 1>, dilations = array<i64: 3, 1>, pads = array<i64: 1, 0, 2, 0>}
      : tensor<1x1x1x1xf32> -> tensor<1x1x1x1xf32>
  return %0 : tensor<1x1x1x1xf32>
}
