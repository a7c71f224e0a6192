func.func @pool_rank(%x: tensor<3x8x8xf32>) {
  %0 = kiln.max_pool2d %x {kernel_shape = array<i64: 2, 2>} : tensor<3x8x8xf32> -> tensor<3x7x7xf32>
  return
}
