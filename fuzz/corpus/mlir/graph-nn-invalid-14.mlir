func.func @pool_integer(%x: tensor<1x3x8x8xi32>) {
  %0 = kiln.max_pool2d %x {kernel_shape = array<i64: 2, 2>} : tensor<1x3x8x8xi32> -> tensor<1x3x7x7xi32>
  return
}
