func.func @pool_pad_negative(%x: tensor<1x3x8x8xf32>) {
  %0 = kiln.max_pool2d %x {kernel_shape = array<i64: 2, 2>, pads = array<i64: 0, -1, 0, 0>} : tensor<1x3x8x8xf32> -> tensor<1x3x7x6xf32>
  return
}
