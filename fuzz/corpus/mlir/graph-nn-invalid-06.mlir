func.func @pool_stride_negative(%x: tensor<1x3x8x8xf32>) {
  %0 = kiln.avg_pool2d %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: -1, 1>} : tensor<1x3x8x8xf32> -> tensor<1x3x7x7xf32>
  return
}
