func.func @pool_strides_size(%x: tensor<1x3x8x8xf32>) {
  %0 = kiln.avg_pool2d %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2>} : tensor<1x3x8x8xf32> -> tensor<1x3x4x4xf32>
  return
}
