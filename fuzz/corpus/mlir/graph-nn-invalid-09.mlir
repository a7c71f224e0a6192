func.func @pool_pad_not_smaller_than_window(%x: tensor<1x3x8x8xf32>) {
  %0 = kiln.avg_pool2d %x {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 0, 1, 3>} : tensor<1x3x8x8xf32> -> tensor<1x3x8x9xf32>
  return
}
