func.func @pool_dilations_size(%x: tensor<1x3x8x8xf32>) {
  %0 = kiln.max_pool2d %x {kernel_shape = array<i64: 2, 2>, dilations = array<i64: 1, 1, 1>} : tensor<1x3x8x8xf32> -> tensor<1x3x7x7xf32>
  return
}
