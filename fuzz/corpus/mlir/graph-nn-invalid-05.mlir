func.func @pool_kernel_shape_zero(%x: tensor<1x3x8x8xf32>) {
  %0 = kiln.max_pool2d %x {kernel_shape = array<i64: 0, 2>} : tensor<1x3x8x8xf32> -> tensor<1x3x9x7xf32>
  return
}
