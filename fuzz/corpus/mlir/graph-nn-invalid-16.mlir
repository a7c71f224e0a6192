func.func @pool_unranked(%x: tensor<*xf32>) {
  %0 = kiln.max_pool2d %x {kernel_shape = array<i64: 2, 2>} : tensor<*xf32> -> tensor<1x3x7x7xf32>
  return
}
